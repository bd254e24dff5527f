; C tags (cpp.scm inherits these).
; docs: across a blank line
; prototypes: declarations

(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator
      declarator: (function_declarator declarator: (identifier) @name)))
  ]) @definition.function

(translation_unit
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    ]) @definition.function)

; The same inside an include guard or another `#if` of the file's top level, and inside an
; `extern "C" {}` block or a C++ namespace.
(preproc_ifdef
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    ]) @definition.function)

(preproc_if
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    ]) @definition.function)

(preproc_else
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    ]) @definition.function)

(preproc_elif
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    ]) @definition.function)

(declaration_list
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    ]) @definition.function)

(type_definition
  type: (struct_specifier body: (field_declaration_list) @body)
  declarator: (type_identifier) @name) @definition.struct

(type_definition
  type: (union_specifier body: (field_declaration_list) @body)
  declarator: (type_identifier) @name) @definition.struct

(type_definition
  type: (enum_specifier body: (enumerator_list) @body)
  declarator: (type_identifier) @name) @definition.enum

(type_definition declarator: (type_identifier) @name) @definition.type

(translation_unit
  [
    (struct_specifier name: (type_identifier) @name body: (field_declaration_list))
    (union_specifier name: (type_identifier) @name body: (field_declaration_list))
  ] @definition.struct)

(translation_unit
  (enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.enum)

(preproc_def name: (identifier) @name) @definition.constant

(preproc_function_def name: (identifier) @name) @definition.function

(call_expression
  function: [
    (identifier) @name
    (field_expression field: (field_identifier) @name)
  ]) @reference.call

(preproc_include path: (system_lib_string) @name) @reference.import

(preproc_include path: (string_literal (string_content) @name)) @reference.import @local
