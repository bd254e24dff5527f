; Entry points in Rust (strata.index.code.entrypoints.axum): axum `Router` chains (`route`,
; `nest`, `merge`), calls of a file's own route helpers (`route("/p", get(h))`) and `fn main`.
(call_expression
  function: (field_expression value: (_) @recv field: (field_identifier) @method)
  arguments: (arguments) @args) @call

(call_expression
  function: (identifier) @helper
  arguments: (arguments) @helperargs) @helpercall

(function_item name: (identifier) @main (#eq? @main "main")) @mainfunc
