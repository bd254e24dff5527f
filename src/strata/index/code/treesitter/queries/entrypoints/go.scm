; Entry points in Go (strata.index.code.entrypoints.golang): route registrations on routers
; (net/http, chi, gin), calls that hand a router to a function, cobra commands (`Command{...}`
; unqualified counts inside package cobra only), func main.
(call_expression
  function: (selector_expression operand: (_) @recv field: (field_identifier) @method)
  arguments: (argument_list) @args) @call

(call_expression
  function: (identifier) @fn
  arguments: (argument_list) @args) @plaincall

(composite_literal
  type: [
    (qualified_type package: (package_identifier) @pkg name: (type_identifier) @type
      (#eq? @pkg "cobra"))
    (type_identifier) @type
  ]
  body: (literal_value) @body
  (#eq? @type "Command")) @command

(function_declaration name: (identifier) @main (#eq? @main "main")) @mainfunc
