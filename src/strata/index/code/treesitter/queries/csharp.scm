; C# tags.
; inherits: java_csharp

(struct_declaration name: (identifier) @name) @definition.struct

(namespace_declaration name: [(identifier) (qualified_name)] @name) @definition.module

(file_scoped_namespace_declaration name: [(identifier) (qualified_name)] @name) @definition.module

(local_function_statement name: (identifier) @name) @definition.function

(delegate_declaration name: (identifier) @name) @definition.type

; A property (`public int Count { get; set; }`) is a member as a method is.
(property_declaration
  name: (identifier) @name
  [(accessor_list) (arrow_expression_clause)] @body) @definition.property

(field_declaration
  (modifier) @_const
  (variable_declaration (variable_declarator name: (identifier) @name))
  (#eq? @_const "const")) @definition.constant

(base_list [(identifier) (qualified_name) (generic_name)] @name @reference.inherits)

(invocation_expression
  function: [
    (identifier) @name
    (member_access_expression name: (identifier) @name)
    (generic_name (identifier) @name)
  ]) @reference.call

(object_creation_expression type: [(identifier) (qualified_name)] @name) @reference.call

(using_directive [(identifier) (qualified_name)] @name) @reference.import

; Any other field of a type (after the constants: the first pattern of a node wins).
(declaration_list
  (field_declaration
    (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field)
