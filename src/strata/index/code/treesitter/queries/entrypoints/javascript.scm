; Entry points in JavaScript, TypeScript and TSX (strata.index.code.entrypoints.express): Express routes,
; `use` mounts, `route()` chains, and the router a module exports.
(call_expression
  function: (member_expression object: (_) @recv property: (property_identifier) @method)
  arguments: (arguments) @args) @call

(assignment_expression
  left: (member_expression object: (identifier) @module property: (property_identifier) @exports
    (#eq? @module "module") (#eq? @exports "exports"))
  right: (identifier) @exported) @export

(export_statement value: (identifier) @exported) @export
