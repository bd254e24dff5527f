; Perl tags. `package` is a statement, not a block: subs are not qualified by it.
; opens function: sub
; opens package: package

(function_definition name: (identifier) @name body: (block) @body) @definition.function

(package_statement (package_name) @name) @definition.package

(use_constant_statement constant: (identifier) @name) @definition.constant

(use_parent_statement [(string_single_quoted) (string_double_quoted) (package_name)] @name) @reference.inherits

(use_no_statement package_name: (package_name) @name) @reference.import

(require_statement package_name: (package_name) @name) @reference.import

(call_expression_with_bareword function_name: (identifier) @name) @reference.call

(method_invocation function_name: (identifier) @name) @reference.call
