; TypeScript tags (tsx.scm inherits these).
; inherits: ecmascript

[
  (class_declaration name: (type_identifier) @name)
  (abstract_class_declaration name: (type_identifier) @name)
] @definition.class

(interface_declaration name: (type_identifier) @name) @definition.interface

(enum_declaration name: (identifier) @name) @definition.enum

; an object type's alias (`type Options = { ... }`) is an interface in all but its keyword
(type_alias_declaration name: (type_identifier) @name value: (object_type) @body) @definition.interface

(type_alias_declaration name: (type_identifier) @name) @definition.type

(internal_module name: [(identifier) (nested_identifier)] @name) @definition.module

[
  (method_signature name: (property_identifier) @name)
  (abstract_method_signature name: (property_identifier) @name)
] @definition.method

(function_signature name: (identifier) @name) @definition.function

(extends_clause value: [(identifier) (member_expression)] @name @reference.inherits)

(implements_clause (type_identifier) @name @reference.inherits)

(extends_type_clause type: (type_identifier) @name @reference.inherits)

; A class's field (`baseUrl: string;`, `static readonly TIMEOUT = 30`) is a member it defines.
(class_body (public_field_definition name: (property_identifier) @name) @definition.field)
