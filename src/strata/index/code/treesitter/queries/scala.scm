; Scala tags.

(class_definition name: (identifier) @name) @definition.class

(object_definition name: (identifier) @name) @definition.class

(trait_definition name: (identifier) @name) @definition.trait

(enum_definition name: (identifier) @name) @definition.enum

(function_definition name: (identifier) @name) @definition.function

(function_declaration name: (identifier) @name) @definition.method

(type_definition name: (type_identifier) @name) @definition.type

(compilation_unit (val_definition pattern: (identifier) @name) @definition.constant)

(object_definition
  body: (template_body (val_definition pattern: (identifier) @name) @definition.constant))

(package_object
  body: (template_body (val_definition pattern: (identifier) @name) @definition.constant))

; every type after `extends` and each `with` (a field pattern matches only the first)
(extends_clause [(type_identifier) (generic_type type: (type_identifier))] @name @reference.inherits)

(call_expression
  function: [
    (identifier) @name
    (field_expression field: (identifier) @name)
  ]) @reference.call

(instance_expression [(type_identifier) (generic_type type: (type_identifier))] @name) @reference.call

(import_declaration) @reference.import @name

; A class's or a trait's `val`/`var`, defined or abstract, is a member it defines.
(class_definition
  body: (template_body
    [
      (val_definition pattern: (identifier) @name)
      (var_definition pattern: (identifier) @name)
    ] @definition.field))

(trait_definition
  body: (template_body
    [
      (val_definition pattern: (identifier) @name)
      (var_definition pattern: (identifier) @name)
      (val_declaration name: (identifier) @name)
      (var_declaration name: (identifier) @name)
    ] @definition.field))
