; Make tags: rules named by their first target (not `.PHONY` and the like, not `%`
; patterns), top-level variables and `define`s; a prerequisite is a call of its rule.

((rule (targets . (word) @name) (recipe)? @body) @definition.function
  (#not-match? @name "^\\.|%"))

(makefile (variable_assignment name: (word) @name) @definition.constant)

(makefile (define_directive name: (word) @name) @definition.constant)

((rule (targets . (word) @_target) normal: (prerequisites (word) @name @reference.call))
  (#not-match? @_target "^\\.|%"))
