; Swift tags. `extension` blocks are containers named after their type, not symbols.

(class_declaration declaration_kind: "struct" name: (type_identifier) @name) @definition.struct

(class_declaration declaration_kind: "enum" name: (type_identifier) @name) @definition.enum

(class_declaration
  declaration_kind: "extension"
  name: (user_type (type_identifier) @name)) @definition.impl

(class_declaration name: (type_identifier) @name) @definition.class

(protocol_declaration name: (type_identifier) @name) @definition.interface

(function_declaration name: (simple_identifier) @name) @definition.function

(protocol_function_declaration name: (simple_identifier) @name) @definition.method

(init_declaration "init" @name) @definition.method

(typealias_declaration name: (type_identifier) @name) @definition.type

(source_file
  (property_declaration
    (value_binding_pattern) @_let
    name: (pattern bound_identifier: (simple_identifier) @name)
    (#eq? @_let "let")) @definition.constant)

(inheritance_specifier inherits_from: (user_type (type_identifier) @name) @reference.inherits)

(call_expression
  [
    (simple_identifier) @name
    (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @name))
  ]) @reference.call

(import_declaration (identifier) @name) @reference.import

; A type's or a protocol's property (`var webView: WKWebView?`) is a member it defines.
(class_body
  (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field)

(protocol_body
  (protocol_property_declaration
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field)
