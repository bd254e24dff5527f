; Fortran tags: modules and programs, functions and subroutines (a module's under it),
; derived types, calls and `use`.

; What follows the opening statement is the body (the signature is that statement).
(module (module_statement (name) @name) . (_) @body) @definition.module

(program (program_statement (name) @name) . (_) @body) @definition.module

(function (function_statement name: (name) @name) . (_) @body) @definition.function

(subroutine (subroutine_statement name: (name) @name) . (_) @body) @definition.function

(derived_type_definition (derived_type_statement (type_name) @name) . (_) @body) @definition.struct

(subroutine_call subroutine: (identifier) @name @reference.call)

(call_expression . (identifier) @name) @reference.call

(use_statement (module_name) @name) @reference.import
