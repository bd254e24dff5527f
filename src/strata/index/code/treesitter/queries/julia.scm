; Julia tags. A string right above a definition is its docstring.

((string_literal) @attribute @doc
  .
  [
    (function_definition)
    (macro_definition)
    (struct_definition)
    (abstract_definition)
    (module_definition)
    (assignment)
    (const_statement)
  ])

(module_definition
  name: (identifier) @name
  (block) @body) @definition.module

; `function f(x)`, `function f(x)::T`, `function f(x) where T`, `function Base.f(x)`.
(function_definition
  (signature
    [
      (call_expression . [(identifier) (operator)] @name)
      (call_expression . (field_expression value: (_) @scope (identifier) @name .))
      (typed_expression . (call_expression . [(identifier) @name (field_expression value: (_) @scope (identifier) @name .)]))
      (where_expression . (call_expression . [(identifier) @name (field_expression value: (_) @scope (identifier) @name .)]))
      (where_expression . (typed_expression . (call_expression . [(identifier) @name (field_expression value: (_) @scope (identifier) @name .)])))
    ])
  (block)? @body) @definition.function

(macro_definition
  (signature (call_expression . (identifier) @name))
  (block)? @body) @definition.function

; `f(x) = ...`, `Base.f(x) = ...`: a method in short form, wherever it is written.
(assignment
  .
  [
    (call_expression . [(identifier) @name (field_expression value: (_) @scope (identifier) @name .)])
    (where_expression . (call_expression . [(identifier) @name (field_expression value: (_) @scope (identifier) @name .)]))
    (typed_expression . (call_expression . [(identifier) @name (field_expression value: (_) @scope (identifier) @name .)]))
  ]
  (operator)
  .
  (_) @body) @definition.function

(struct_definition
  (type_head
    [
      (identifier) @name
      (parametrized_type_expression . (identifier) @name)
      (binary_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])
    ])
  (block)? @body) @definition.struct

(abstract_definition
  (type_head
    [
      (identifier) @name
      (parametrized_type_expression . (identifier) @name)
      (binary_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])
    ])) @definition.type

(const_statement (assignment . (identifier) @name)) @definition.constant

(struct_definition
  (type_head (binary_expression (operator) . [(identifier) @name (parametrized_type_expression . (identifier) @name)]) @reference.inherits))

(using_statement [(identifier) (import_path)] @name) @reference.import

(import_statement [(identifier) (import_path)] @name) @reference.import

(import_statement (selected_import . [(identifier) (import_path)] @name)) @reference.import

(using_statement (selected_import . [(identifier) (import_path)] @name)) @reference.import

(call_expression
  . [(identifier) @name (field_expression (identifier) @name .)]) @reference.call

(macrocall_expression (macro_identifier (identifier) @name)) @reference.call
