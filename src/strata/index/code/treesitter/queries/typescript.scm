; TypeScript tags (tsx.scm inherits these).

[
  (class_declaration name: (type_identifier) @name)
  (abstract_class_declaration name: (type_identifier) @name)
] @definition.class

(interface_declaration name: (type_identifier) @name) @definition.interface

(enum_declaration name: (identifier) @name) @definition.enum

(type_alias_declaration name: (type_identifier) @name) @definition.type

(internal_module name: [(identifier) (nested_identifier)] @name) @definition.module

(method_definition
  name: [(property_identifier) (private_property_identifier)] @name) @definition.method

[
  (method_signature name: (property_identifier) @name)
  (abstract_method_signature name: (property_identifier) @name)
] @definition.method

[
  (function_declaration name: (identifier) @name)
  (generator_function_declaration name: (identifier) @name)
  (function_signature name: (identifier) @name)
] @definition.function

(lexical_declaration
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

(extends_clause value: [(identifier) (member_expression)] @name @reference.inherits)

(implements_clause (type_identifier) @name @reference.inherits)

(extends_type_clause type: (type_identifier) @name @reference.inherits)

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
