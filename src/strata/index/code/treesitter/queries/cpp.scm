; C++ tags: the C ones plus classes, namespaces, methods and qualified definitions.
; inherits: c
; macros: export

(class_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.class

(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.struct

(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.enum

(namespace_definition name: (namespace_identifier) @name) @definition.module

(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier
      scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
      name: [(identifier) (destructor_name)] @name))) @definition.method

; `T* Owner::f()`, `const T& Owner::f()`: the return's `*` or `&` wraps the declarator.
(function_definition
  declarator: [
    (pointer_declarator declarator: (function_declarator
      declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name)] @name)))
    (reference_declarator (function_declarator
      declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name)] @name)))
  ]) @definition.method

; `Outer::Inner::f()`: a nested class's method, named by the innermost owner.
(function_definition
  declarator: [
    (function_declarator declarator: (qualified_identifier name: (qualified_identifier
      scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
      name: [(identifier) (destructor_name)] @name)))
    (pointer_declarator declarator: (function_declarator
      declarator: (qualified_identifier name: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name)] @name))))
    (reference_declarator (function_declarator
      declarator: (qualified_identifier name: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name)] @name))))
  ]) @definition.method

; In a class: a destructor defined `= default` or with a body, a constructor declared.
(field_declaration_list
  (function_definition
    declarator: (function_declarator declarator: (destructor_name) @name)) @definition.method)

(field_declaration_list
  (declaration
    declarator: (function_declarator declarator: [(identifier) (destructor_name)] @name)) @definition.method)

(function_definition
  declarator: [
    (function_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name))
  ]) @definition.method

(function_definition
  declarator: (reference_declarator
    (function_declarator declarator: [(identifier) (field_identifier)] @name))) @definition.function

(field_declaration
  declarator: [
    (function_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name))
    (reference_declarator (function_declarator declarator: (field_identifier) @name))
  ]) @definition.method

(declaration_list
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator declarator: (identifier) @name)
    (#eq? @_const "constexpr")) @definition.constant)

(alias_declaration name: (type_identifier) @name) @definition.type

(base_class_clause
  [(type_identifier) (qualified_identifier) (template_type)] @name @reference.inherits)

(call_expression
  function: [
    (qualified_identifier name: (identifier) @name)
    (template_function name: (identifier) @name)
  ]) @reference.call

(new_expression type: (type_identifier) @name) @reference.call
