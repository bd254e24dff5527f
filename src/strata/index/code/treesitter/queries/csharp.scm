; C# tags.

(class_declaration name: (identifier) @name) @definition.class

(record_declaration name: (identifier) @name) @definition.class

(struct_declaration name: (identifier) @name) @definition.struct

(interface_declaration name: (identifier) @name) @definition.interface

(enum_declaration name: (identifier) @name) @definition.enum

(namespace_declaration name: [(identifier) (qualified_name)] @name) @definition.module

(file_scoped_namespace_declaration name: [(identifier) (qualified_name)] @name) @definition.module

(method_declaration name: (identifier) @name) @definition.method

(constructor_declaration name: (identifier) @name) @definition.method

(local_function_statement name: (identifier) @name) @definition.function

(delegate_declaration name: (identifier) @name) @definition.type

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
