; clauses: merge
; Haskell tags. A function is its type signature and its equations, consecutive
; declarations of one name (merged by `clauses: merge` above).

(declarations
  (signature name: (variable) @name) @definition.function)

; An operator: `(<?>) :: ...` and its equations `p <?> l = ...`.
(declarations
  (signature name: (prefix_id (operator) @name)) @definition.function)

(declarations
  (function (infix operator: (operator) @name) match: (_) @body) @definition.function)

(declarations
  [
    (function name: (variable) @name match: (_) @body)
    (bind name: (variable) @name match: (_) @body)
  ] @definition.function)

(declarations
  [
    (data_type name: (name) @name)
    (newtype name: (name) @name)
  ] @definition.struct)

(declarations
  (type_synomym name: (name) @name) @definition.type)

(declarations
  (type_family name: (name) @name) @definition.type)

(declarations
  (class name: (name) @name declarations: (class_declarations)? @body) @definition.class)

(declarations
  (instance name: (name) @name declarations: (instance_declarations)? @body) @definition.impl)

(class_declarations
  (signature name: (variable) @name) @definition.function)

([(class_declarations
   [
     (function name: (variable) @name match: (_) @body)
     (bind name: (variable) @name match: (_) @body)
   ] @definition.function)
  (instance_declarations
   [
     (function name: (variable) @name match: (_) @body)
     (bind name: (variable) @name match: (_) @body)
   ] @definition.function)])

; `{-# INLINE f #-}` below a function belongs to it.
(declarations (pragma) @trailer)

(import module: (module) @name) @reference.import

(apply function: [
  (variable) @name
  (qualified (variable) @name)
]) @reference.call
