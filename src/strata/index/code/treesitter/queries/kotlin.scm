; Kotlin tags.

(class_declaration "interface" name: (identifier) @name) @definition.interface

(class_declaration
  (modifiers (class_modifier) @_enum)
  name: (identifier) @name
  (#eq? @_enum "enum")) @definition.enum

(class_declaration name: (identifier) @name) @definition.class

(object_declaration name: (identifier) @name) @definition.class

; An extension function (`fun CoroutineScope.launch()`) is named by its receiver type too.
(function_declaration
  (user_type . (identifier) @receiver) . "." . name: (identifier) @name) @definition.function

(function_declaration name: (identifier) @name) @definition.function

(type_alias type: (identifier) @name) @definition.type

(source_file
  (property_declaration
    (modifiers (property_modifier) @_const)
    (variable_declaration (identifier) @name)
    (#eq? @_const "const")) @definition.constant)

(delegation_specifier
  [
    (user_type . (identifier) @name)
    (constructor_invocation (user_type . (identifier) @name))
  ] @reference.inherits)

(call_expression
  [
    (identifier) @name
    (navigation_expression (identifier) @name .)
  ]) @reference.call

(import (qualified_identifier) @name) @reference.import

; A class's property (`val isActive: Boolean`) is a member it defines.
(class_body (property_declaration (variable_declaration (identifier) @name)) @definition.field)
