; PowerShell tags: functions and filters, classes with their methods and constructors,
; enums, and the commands a function runs.

(function_statement (function_name) @name (script_block) @body) @definition.function

(class_statement . (simple_name) @name) @definition.class

(class_method_definition (simple_name) @name) @definition.method

(enum_statement . (simple_name) @name) @definition.enum

(command command_name: (command_name) @name) @reference.call
