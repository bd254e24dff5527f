; Zig tags. A type is a constant bound to a container: `const Point = struct { ... };`.

(variable_declaration
  (identifier) @name
  (struct_declaration) @body) @definition.struct

(variable_declaration
  (identifier) @name
  (enum_declaration) @body) @definition.enum

(variable_declaration
  (identifier) @name
  [(union_declaration) (opaque_declaration)] @body) @definition.struct

(variable_declaration
  (identifier) @name
  (error_set_declaration)) @definition.type

; `fn List(comptime T: type) type { return struct { ... }; }`: a generic type.
(function_declaration
  name: (identifier) @name
  body: (block
    (expression_statement (return_expression (struct_declaration)))) @body) @definition.struct

(function_declaration
  name: (identifier) @name
  body: (block) @body) @definition.function

(function_declaration
  name: (identifier) @name) @definition.function

(test_declaration
  [(string (string_content) @name) (identifier) @name]
  (block) @body) @definition.function

(source_file
  (variable_declaration
    (identifier) @name
    [(integer) (float) (string)]) @definition.constant)

(variable_declaration
  (builtin_function
    (builtin_identifier) @_import
    (arguments . (string (string_content) @name))) @reference.import
  (#eq? @_import "@import"))

(call_expression
  function: [
    (identifier) @name
    (field_expression member: (identifier) @name)
  ]) @reference.call
