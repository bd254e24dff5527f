; JavaScript tags.

(class_declaration
  name: (identifier) @name) @definition.class

(method_definition
  name: [(property_identifier) (private_property_identifier)] @name) @definition.method

[
  (function_declaration name: (identifier) @name)
  (generator_function_declaration name: (identifier) @name)
] @definition.function

(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
    ])) @definition.function

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
    ])) @definition.function

(program
  (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(number) (string) (template_string)])) @definition.constant)

(program
  (export_statement
    (lexical_declaration
      (variable_declarator
        name: (identifier) @name
        value: [(number) (string) (template_string)])) @definition.constant))

(class_heritage (identifier) @name @reference.inherits)

(call_expression
  function: [
    (identifier) @name
    (member_expression property: (property_identifier) @name)
  ]) @reference.call

(new_expression
  constructor: [
    (identifier) @name
    (member_expression property: (property_identifier) @name)
  ]) @reference.call

(import_statement
  source: (string (string_fragment) @name)) @reference.import

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
