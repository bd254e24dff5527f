; Entry points in Rust (strata.index.code.entrypoints.axum): axum `Router` chains (`route`,
; `nest`, `merge`) and `fn main`.
(call_expression
  function: (field_expression value: (_) @recv field: (field_identifier) @method)
  arguments: (arguments) @args) @call

(function_item name: (identifier) @main (#eq? @main "main")) @mainfunc
