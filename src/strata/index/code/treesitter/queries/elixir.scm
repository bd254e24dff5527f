; clauses: merge
; Elixir tags. Every form is a `call`: `defmodule`, `def` and their kin are told by the
; identifier they call.

((call
  target: (identifier) @_def
  (arguments . [(alias) (atom)] @name)
  (do_block) @body) @definition.module
  (#eq? @_def "defmodule"))

((call
  target: (identifier) @_def
  (arguments . (alias) @name)
  (do_block) @body) @definition.interface
  (#eq? @_def "defprotocol"))

((call
  target: (identifier) @_def
  (arguments . (alias) @name)
  (do_block) @body) @definition.impl
  (#eq? @_def "defimpl"))

; `def f(x), do: x + 1`: the keyword's value is the body.
((call
  target: (identifier) @_def
  (arguments
    . [
      (identifier) @name
      (call target: (identifier) @name)
      (binary_operator left: (call target: (identifier) @name) operator: "when")
      (binary_operator left: (identifier) @name operator: "when")
    ]
    . (keywords . (pair value: (_) @body)))) @definition.function
  (#match? @_def "^(def|defp|defmacro|defmacrop|defguard|defguardp|defn|defnp)$"))

; `def f(x) do`, `def f(x) when g(x), do:`, `def f, do:`; `defmacro` and the guards too.
((call
  target: (identifier) @_def
  (arguments
    . [
      (identifier) @name
      (call target: (identifier) @name)
      (binary_operator left: (call target: (identifier) @name) operator: "when")
      (binary_operator left: (identifier) @name operator: "when")
    ])
  (do_block)? @body) @definition.function
  (#match? @_def "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defn|defnp)$"))

; `@doc`, `@spec`, `@impl` and the like belong to the definition below them.
((unary_operator
  operator: "@"
  operand: (call
    target: (identifier) @_attr
    (arguments . (string (quoted_content) @doc)))) @attribute
  (#eq? @_attr "doc"))

((unary_operator
  operator: "@"
  operand: (call target: (identifier) @_attr)) @attribute
  (#match? @_attr "^(doc|spec|impl|deprecated|since|decorate)$"))

((call
  target: (identifier) @_imp
  (arguments . (alias) @name)) @reference.import
  (#match? @_imp "^(alias|import|require|use)$"))

((call
  target: [
    (identifier) @name
    (dot right: (identifier) @name)
  ]) @reference.call
  (#not-match? @name "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defn|defnp|defmodule|defprotocol|defimpl|defstruct|defexception|defoverridable|alias|import|require|use|case|cond|if|unless|for|with|try|receive|quote|unquote|unquote_splicing|raise|reraise|throw|super|fn|doc|moduledoc|spec|impl|type|typep|opaque|callback|behaviour)$"))
