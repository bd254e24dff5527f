; Rust tags. `impl` blocks are containers named after their type; they are not symbols.

(struct_item name: (type_identifier) @name) @definition.struct

; A struct's or union's named field (`pub key: F`) is a member it defines, and an enum
; variant's (`Circle { radius: f64 }`): the variant holds it, not the enum.
(struct_item body: (field_declaration_list
  (field_declaration name: (field_identifier) @name) @definition.field))

(union_item body: (field_declaration_list
  (field_declaration name: (field_identifier) @name) @definition.field))

(enum_variant body: (field_declaration_list
  (field_declaration name: (field_identifier) @name) @definition.field))

(enum_variant name: (identifier) @name body: (field_declaration_list)) @definition.variant

(enum_item name: (type_identifier) @name) @definition.enum

(union_item name: (type_identifier) @name) @definition.struct

(trait_item name: (type_identifier) @name) @definition.trait

(impl_item
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (scoped_type_identifier name: (type_identifier) @name)
  ]) @definition.impl

(mod_item name: (identifier) @name body: (declaration_list)) @definition.module

(function_item name: (identifier) @name) @definition.function

(function_signature_item name: (identifier) @name) @definition.function

(type_item name: (type_identifier) @name) @definition.type

(const_item name: (identifier) @name) @definition.constant

(static_item name: (identifier) @name) @definition.constant

; a macro_rules! is a definition with a body: its rules (the first stands for them)
(macro_definition name: (identifier) @name . (macro_rule) @body) @definition.function

(macro_definition name: (identifier) @name . ) @definition.function

(impl_item
  trait: [
    (type_identifier) @name
    (scoped_type_identifier name: (type_identifier) @name)
    (generic_type type: (type_identifier) @name)
  ] @reference.inherits)

(call_expression
  function: [
    (identifier) @name
    (field_expression field: (field_identifier) @name)
    (scoped_identifier name: (identifier) @name)
  ]) @reference.call

(macro_invocation macro: (identifier) @name) @reference.call

(use_declaration argument: (_) @name) @reference.import

(mod_item name: (identifier) @name !body) @reference.import @local
