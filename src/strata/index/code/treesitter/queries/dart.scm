; Dart tags. A function or method is a signature with its body beside it (a sibling node),
; captured as `@body`.

(class_definition
  name: (identifier) @name
  body: (class_body) @body) @definition.class

(mixin_declaration
  (identifier) @name
  (class_body) @body) @definition.class

(extension_declaration
  name: (identifier) @name
  body: (extension_body) @body) @definition.class

(enum_declaration
  name: (identifier) @name) @definition.enum

(type_alias
  (type_identifier) @name) @definition.type

((method_signature
  [
    (function_signature name: (identifier) @name)
    (getter_signature name: (identifier) @name)
    (setter_signature name: (identifier) @name)
    (constructor_signature (identifier) @name . (formal_parameter_list))
    (factory_constructor_signature (identifier) @name . (formal_parameter_list))
  ]) @definition.method
  .
  (function_body) @body)

(declaration
  [
    (constructor_signature (identifier) @name . (formal_parameter_list))
    (factory_constructor_signature (identifier) @name . (formal_parameter_list))
    (redirecting_factory_constructor_signature (identifier) @name . (formal_parameter_list))
  ]) @definition.method

((function_signature name: (identifier) @name) @definition.function
  .
  (function_body) @body)

((getter_signature name: (identifier) @name) @definition.function
  .
  (function_body) @body)

(superclass (type_identifier) @name @reference.inherits)

(mixins (type_identifier) @name @reference.inherits)

(interfaces (type_identifier) @name @reference.inherits)

(import_or_export
  (library_import
    (import_specification
      (configurable_uri (uri (string_literal) @name))))) @reference.import

((identifier) @name @reference.call
  .
  (selector (argument_part (arguments))))

(_
  (unconditional_assignable_selector (identifier) @name) @reference.call
  .
  (selector (argument_part (arguments))))

(new_expression (type_identifier) @name) @reference.call
