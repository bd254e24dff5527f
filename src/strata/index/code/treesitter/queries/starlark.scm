; Starlark (Bazel, Buck, Tilt) tags: functions and macros, build targets by their `name`,
; top-level constants, rule calls and `load`s.

(function_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc)?) @body) @definition.function

; A target: a rule's call with `name = "..."` (`cc_library(name = "core", ...)`).
((expression_statement
  (call
    arguments: (argument_list
      (keyword_argument
        name: (identifier) @_key
        value: (string (string_content) @name))))) @definition.struct
  (#eq? @_key "name"))

(module
  (expression_statement
    (assignment left: (identifier) @name) @definition.constant)
  (#match? @name "^[A-Z][A-Z0-9_]*$"))

(call function: [(identifier) @name (attribute attribute: (identifier) @name)]) @reference.call

(call
  function: (identifier) @_load
  arguments: (argument_list . (string (string_content) @name)) @reference.import
  (#eq? @_load "load"))
