; Tags JavaScript and TypeScript share (javascript.scm and typescript.scm inherit these).

(method_definition
  name: [(property_identifier) (private_property_identifier)] @name) @definition.method

[
  (function_declaration name: (identifier) @name)
  (generator_function_declaration name: (identifier) @name)
] @definition.function

; `const f = () => ...`, `let f = function ...` and `var f = ...`: the declarator's parent is
; the declaration (`lexical_declaration` or `variable_declaration`, the only two that hold one).
(_
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
