; Java tags.
; inherits: java_csharp

(annotation_type_declaration name: (identifier) @name) @definition.interface

(field_declaration
  (modifiers "static" "final")
  declarator: (variable_declarator name: (identifier) @name)) @definition.constant

(superclass (type_identifier) @name @reference.inherits)

(super_interfaces (type_list (type_identifier) @name @reference.inherits))

(extends_interfaces (type_list (type_identifier) @name @reference.inherits))

(method_invocation name: (identifier) @name) @reference.call

(object_creation_expression type: (type_identifier) @name) @reference.call

(import_declaration [(scoped_identifier) (identifier)] @name) @reference.import

; Any other field of a class (after the constants: the first pattern of a node wins).
(class_body
  (field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field)
