; clauses: merge
; Erlang tags. Each clause of a function parses as a declaration of its own: consecutive
; ones are merged. A `-spec` belongs to the function below it.

(fun_decl clause: (function_clause name: (atom) @name body: (clause_body) @body)) @definition.function

(spec) @attribute

(record_decl name: (atom) @name) @definition.struct

(type_alias name: (type_name name: (atom) @name)) @definition.type

(opaque name: (type_name name: (atom) @name)) @definition.type

(pp_define lhs: (macro_lhs name: (_) @name)) @definition.constant

(pp_include file: (string) @name) @reference.import @local

(pp_include_lib file: (string) @name) @reference.import

(import_attribute module: (atom) @name) @reference.import

(call expr: (atom) @name) @reference.call
