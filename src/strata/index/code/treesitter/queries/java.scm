; Java tags.

(class_declaration name: (identifier) @name) @definition.class

(record_declaration name: (identifier) @name) @definition.class

(interface_declaration name: (identifier) @name) @definition.interface

(annotation_type_declaration name: (identifier) @name) @definition.interface

(enum_declaration name: (identifier) @name) @definition.enum

(method_declaration name: (identifier) @name) @definition.method

(constructor_declaration name: (identifier) @name) @definition.method

(field_declaration
  (modifiers "static" "final")
  declarator: (variable_declarator name: (identifier) @name)) @definition.constant

(superclass (type_identifier) @name @reference.inherits)

(super_interfaces (type_list (type_identifier) @name @reference.inherits))

(extends_interfaces (type_list (type_identifier) @name @reference.inherits))

(method_invocation name: (identifier) @name) @reference.call

(object_creation_expression type: (type_identifier) @name) @reference.call

(import_declaration [(scoped_identifier) (identifier)] @name) @reference.import
