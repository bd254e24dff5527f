; PHP tags.

(class_declaration name: (name) @name) @definition.class

(interface_declaration name: (name) @name) @definition.interface

(trait_declaration name: (name) @name) @definition.trait

(enum_declaration name: (name) @name) @definition.enum

(namespace_definition name: (namespace_name) @name body: (compound_statement)) @definition.module

(method_declaration name: (name) @name) @definition.method

(function_definition name: (name) @name) @definition.function

(const_declaration (const_element (name) @name)) @definition.constant

(base_clause [(name) (qualified_name)] @name @reference.inherits)

(class_interface_clause [(name) (qualified_name)] @name @reference.inherits)

(use_declaration [(name) (qualified_name)] @name @reference.inherits)

(function_call_expression
  function: [(name) @name (qualified_name (name) @name .)]) @reference.call

(member_call_expression name: (name) @name) @reference.call

(scoped_call_expression name: (name) @name) @reference.call

(object_creation_expression [(name) (qualified_name)] @name) @reference.call

(namespace_use_clause [(qualified_name) (name)] @name) @reference.import

; `require_once 'lib/a.php'`, `include "b.php"`: a file of the project (a path built at run
; time, `__DIR__ . '/c.php'`, is not read)
([(require_expression [(string (string_content) @name) (encapsed_string . (string_content) @name .)])
  (require_once_expression [(string (string_content) @name) (encapsed_string . (string_content) @name .)])
  (include_expression [(string (string_content) @name) (encapsed_string . (string_content) @name .)])
  (include_once_expression [(string (string_content) @name) (encapsed_string . (string_content) @name .)])]
  @reference.import @local)
