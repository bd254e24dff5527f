; Solidity tags. Contracts and libraries hold functions (methods), modifiers and types.

(contract_declaration name: (identifier) @name body: (contract_body) @body) @definition.class

(library_declaration name: (identifier) @name body: (contract_body) @body) @definition.class

(interface_declaration name: (identifier) @name body: (contract_body) @body) @definition.interface

(function_definition name: (identifier) @name) @definition.function

(modifier_definition name: (identifier) @name) @definition.function

(constructor_definition "constructor" @name) @definition.function

(fallback_receive_definition ["fallback" "receive"] @name) @definition.function

(struct_declaration name: (identifier) @name) @definition.struct

(enum_declaration name: (identifier) @name) @definition.enum

(event_definition name: (identifier) @name) @definition.type

(error_declaration name: (identifier) @name) @definition.type

(user_defined_type_definition name: (identifier) @name) @definition.type

(state_variable_declaration "constant" name: (identifier) @name) @definition.constant

(source_file (constant_variable_declaration name: (identifier) @name) @definition.constant)

(inheritance_specifier ancestor: (user_defined_type (identifier) @name)) @reference.inherits

(import_directive source: (string) @name) @reference.import

(call_expression
  function: (expression
    [
      (identifier) @name
      (member_expression property: (identifier) @name)
    ])) @reference.call

(emit_statement name: (expression (identifier) @name)) @reference.call
