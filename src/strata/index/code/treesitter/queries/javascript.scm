; JavaScript tags.
; inherits: ecmascript

(class_declaration
  name: (identifier) @name) @definition.class

(class_heritage (identifier) @name @reference.inherits)

(call_expression
  function: (identifier) @_require
  arguments: (arguments . (string (string_fragment) @name))
  (#eq? @_require "require")) @reference.import

(expression_statement
  (assignment_expression
    left: (member_expression property: (property_identifier) @name)
    right: [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
    ])) @definition.function

(class_body (field_definition property: (property_identifier) @name) @definition.field)
