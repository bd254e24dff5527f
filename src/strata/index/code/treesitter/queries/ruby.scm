; Ruby tags.

(class name: [(constant) (scope_resolution)] @name) @definition.class

(module name: [(constant) (scope_resolution)] @name) @definition.module

; `class << self`: its methods are the enclosing class's (`Thor.subcommand`)
(singleton_class value: (self) @name) @definition.singleton

(method name: (_) @name) @definition.function

(singleton_method name: (_) @name) @definition.method

(assignment left: (constant) @name) @definition.constant

(superclass [(constant) (scope_resolution)] @name @reference.inherits)

((call
  method: (identifier) @_inc
  arguments: (argument_list . [(constant) (scope_resolution)] @name)) @reference.inherits
  (#match? @_inc "^(include|extend|prepend)$"))

((call
  method: (identifier) @_req
  arguments: (argument_list . (string (string_content) @name))) @reference.import
  (#eq? @_req "require"))

((call
  method: (identifier) @_req
  arguments: (argument_list . (string (string_content) @name))) @reference.import @local
  (#eq? @_req "require_relative"))

((call method: (identifier) @name) @reference.call
  (#not-match? @name "^(require|require_relative|include|extend|prepend|attr_reader|attr_accessor|attr_writer|private|protected|public)$"))
