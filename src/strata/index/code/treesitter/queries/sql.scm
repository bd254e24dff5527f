; SQL tags: what a schema defines (tables and views as structs, functions, procedures and
; triggers as functions, types, indexes and sequences), named without their schema.

(statement
  [
    (create_table (object_reference name: (identifier) @name))
    (create_view (object_reference name: (identifier) @name))
    (create_materialized_view (object_reference name: (identifier) @name))
  ]) @definition.struct

(statement
  (create_function
    (object_reference name: (identifier) @name)
    (function_body) @body)) @definition.function

(statement
  [
    (create_function (object_reference name: (identifier) @name))
    (create_trigger (object_reference name: (identifier) @name))
  ]) @definition.function

(statement
  (create_type (object_reference name: (identifier) @name))) @definition.type

(statement
  [
    (create_index column: (identifier) @name)
    (create_sequence (object_reference name: (identifier) @name))
  ]) @definition.constant

(statement
  (create_trigger
    (keyword_function) . (object_reference name: (identifier) @name) @reference.call))
