; Objective-C tags. A class is an `@interface` or `@implementation`; methods are declared
; in the one and defined in the other.
; prototypes: declarations
; interfaces: declarations

(class_interface
  . (identifier) @name
  [(property_declaration) (method_declaration) (instance_variables)] @body) @definition.interface

(class_interface . (identifier) @name) @definition.interface

(class_implementation . (identifier) @name (implementation_definition) @body) @definition.class

(class_implementation . (identifier) @name) @definition.class

(protocol_declaration . (identifier) @name (method_declaration) @body) @definition.interface

(protocol_declaration . (identifier) @name) @definition.interface

; A method is named by the first part of its selector (`add` of `add:to:`).
(method_definition (method_type) . (identifier) @name (compound_statement) @body) @definition.method

(method_definition . (identifier) @name (compound_statement) @body) @definition.method

(method_declaration (method_type) . (identifier) @name) @definition.method

(method_declaration . (identifier) @name) @definition.method

(function_definition
  declarator: (function_declarator declarator: (identifier) @name)
  body: (compound_statement) @body) @definition.function

(function_definition
  declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
  body: (compound_statement) @body) @definition.function

(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.struct

(enum_specifier name: (type_identifier) @name) @definition.enum

(class_interface superclass: (identifier) @name @reference.inherits)

(preproc_include path: (string_literal (string_content) @name)) @reference.import @local

(preproc_include path: (system_lib_string) @name) @reference.import

(message_expression method: (identifier) @name) @reference.call

(call_expression function: (identifier) @name) @reference.call
