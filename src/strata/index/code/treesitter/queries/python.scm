; Python tags (the stdlib-ast path is the reference; this one is for comparison).

(class_definition
  name: (identifier) @name
  superclasses: (argument_list)?
  body: (block . (expression_statement (string) @doc)?)) @definition.class

(function_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc)?)) @definition.function

(module
  (expression_statement
    (assignment
      left: (identifier) @name
      right: (_)) @definition.constant)
  (#match? @name "^[A-Z][A-Z0-9_]*$"))

(class_definition
  superclasses: (argument_list
    [(identifier) @name
     (attribute attribute: (identifier) @name)] @reference.inherits))

(call
  function: [
    (identifier) @name
    (attribute attribute: (identifier) @name)
  ]) @reference.call

(import_statement
  name: [
    (dotted_name) @name
    (aliased_import name: (dotted_name) @name)
  ]) @reference.import

(import_from_statement
  module_name: (dotted_name) @name) @reference.import

(import_from_statement
  module_name: (relative_import) @name) @reference.import @local
