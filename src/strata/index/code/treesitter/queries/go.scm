; Go tags.
; signatures: declarations

(function_declaration
  name: (identifier) @name) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @receiver
        (pointer_type (type_identifier) @receiver)
        (generic_type type: (type_identifier) @receiver)
        (pointer_type (generic_type type: (type_identifier) @receiver))
      ]))
  name: (field_identifier) @name) @definition.method

(type_declaration
  (type_spec name: (type_identifier) @name type: (struct_type (field_declaration_list) @body))) @definition.struct

(type_declaration
  (type_spec name: (type_identifier) @name type: (interface_type) @body)) @definition.interface

(type_declaration
  (type_spec name: (type_identifier) @name)) @definition.type

(type_declaration
  (type_alias name: (type_identifier) @name)) @definition.type

(source_file
  (const_declaration "const" . (const_spec name: (identifier) @name) .) @definition.constant)

(source_file
  (const_declaration "(" (const_spec name: (identifier) @name) @definition.constant))

; A package-level `var` (a sentinel error: `ErrNotFound = errors.New(...)`) is a named value
; of the package, as a `const` is.
(source_file
  (var_declaration "var" . (var_spec name: (identifier) @name) .) @definition.constant)

(source_file
  (var_declaration (var_spec_list (var_spec name: (identifier) @name) @definition.constant)))

(interface_type
  (method_elem name: (field_identifier) @name) @definition.method)

(call_expression
  function: [
    (identifier) @name
    (selector_expression field: (field_identifier) @name)
  ]) @reference.call

(import_spec path: (interpreted_string_literal (interpreted_string_literal_content) @name)) @reference.import

(struct_type
  (field_declaration_list
    (field_declaration . type: [(type_identifier) (qualified_type)] @name . ) @reference.inherits))

; An interface's embedded interface (`io.Reader` in `interface { io.Reader; Close() error }`)
; is one it extends; a union of types (`~int | ~string`) is no interface.
(interface_type
  (type_elem . [(type_identifier) (qualified_type)] @name .) @reference.inherits)

; A struct's field (`BaseURL string`) is a member it defines.
(field_declaration_list
  (field_declaration name: (field_identifier) @name) @definition.field)
