; R tags. A function is a `function` assigned to a name (`<-`, `=`, `<<-`); the `#'`
; roxygen comments above it are its doc.

(binary_operator
  lhs: [(identifier) (string)] @name
  operator: ["<-" "=" "<<-"]
  rhs: (function_definition body: (_) @body)) @definition.function

(binary_operator
  lhs: (function_definition body: (_) @body)
  operator: "->"
  rhs: (identifier) @name) @definition.function

; `setClass("Name", ...)`, `setRefClass`, `R6Class("Name", ...)`: classes.
((call
  function: (identifier) @_def
  arguments: (arguments . (argument value: (string (string_content) @name)))) @definition.class
  (#match? @_def "^(setClass|setRefClass|R6Class)$"))

((call
  function: (identifier) @_def
  arguments: (arguments . (argument value: (string (string_content) @name)))) @definition.function
  (#match? @_def "^(setGeneric|setMethod)$"))

((call
  function: (identifier) @_lib
  arguments: (arguments . (argument value: [(identifier) (string (string_content))] @name))) @reference.import
  (#match? @_lib "^(library|require|requireNamespace)$"))

((call
  function: (identifier) @_src
  arguments: (arguments . (argument value: (string (string_content) @name)))) @reference.import @local
  (#eq? @_src "source"))

((call
  function: [
    (identifier) @name
    (namespace_operator rhs: (identifier) @name)
  ]) @reference.call
  (#not-match? @name "^(library|require|requireNamespace|source|function)$"))
