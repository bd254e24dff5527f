; Lua tags.

; `function Account:deposit(v)`: a method of the table before the colon.
(function_declaration
  name: (method_index_expression
    table: (_) @receiver
    method: (identifier) @name)) @definition.method

; `function M.f()`, `function a.b.f()`: a function of a table, qualified by it.
(function_declaration
  name: (dot_index_expression
    table: (_) @scope
    field: (identifier) @name)) @definition.function

; `function f()`, `local function f()`.
(function_declaration
  name: (identifier) @name) @definition.function

; `local f = function (...) ... end`
(variable_declaration
  (assignment_statement
    (variable_list . name: (identifier) @name)
    (expression_list . value: (function_definition body: (block) @body)))) @definition.function

; `M.f = function (...) ... end` and `f = function ...` as statements (a `local` one is the
; pattern above, whose assignment is not a statement of a chunk or block).
([(chunk
   (assignment_statement
     (variable_list . name: (dot_index_expression table: (_) @scope field: (identifier) @name))
     (expression_list . value: (function_definition body: (block) @body))) @definition.function)
  (block
   (assignment_statement
     (variable_list . name: (dot_index_expression table: (_) @scope field: (identifier) @name))
     (expression_list . value: (function_definition body: (block) @body))) @definition.function)])

([(chunk
   (assignment_statement
     (variable_list . name: (identifier) @name)
     (expression_list . value: (function_definition body: (block) @body))) @definition.function)
  (block
   (assignment_statement
     (variable_list . name: (identifier) @name)
     (expression_list . value: (function_definition body: (block) @body))) @definition.function)])

; `{ f = function (...) ... end }`: a function in a table constructor.
(field
  name: (identifier) @name
  value: (function_definition body: (block) @body)) @definition.function

((function_call
  name: (identifier) @_req
  arguments: (arguments . (string content: (string_content) @name))) @reference.import
  (#eq? @_req "require"))

((function_call
  name: [
    (identifier) @name
    (dot_index_expression field: (identifier) @name)
    (method_index_expression method: (identifier) @name)
  ]) @reference.call
  (#not-eq? @name "require"))
