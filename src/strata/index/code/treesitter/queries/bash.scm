; Bash tags. A parse error (bash-completion's `[[ $cur =~ ^(\$(\{[!#]?)?)... ]]`) may turn
; the rest of the file into one `ERROR` node: what it left unread is parsed again, cut
; above each `function name` and `name()` line.
; opens function: function ()

(function_definition name: (word) @name) @definition.function

(program
  (declaration_command
    "readonly"
    (variable_assignment name: (variable_name) @name)) @definition.constant)

(program
  (variable_assignment name: (variable_name) @name)
  @definition.constant
  (#match? @name "^[A-Z][A-Z0-9_]*$"))

((command
  name: (command_name) @_source
  argument: [(word) (string) (raw_string)] @name) @reference.import @local
  (#match? @_source "^(source|\\.)$"))

((command name: (command_name (word) @name)) @reference.call
  (#not-match? @name "^(source|\\.)$"))
