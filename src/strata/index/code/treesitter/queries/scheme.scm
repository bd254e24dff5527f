; Scheme tags: `(define (name args) ...)` functions, `(define name value)` constants,
; macros and record types, named as written (`queue-push!`); calls by their head.

; What follows the signature `(name args)` is the body.
(program
  (list . (symbol) @_define . (list . (symbol) @name) . (_) @body) @definition.function
  (#any-of? @_define "define" "define*" "define-public" "define-inline"))

(program
  (list . (symbol) @_define . (symbol) @name) @definition.constant
  (#any-of? @_define "define" "define-public"))

(program
  (list . (symbol) @_define . (symbol) @name) @definition.function
  (#any-of? @_define "define-syntax" "define-macro" "define-syntax-rule"))

(program
  (list . (symbol) @_define . (symbol) @name) @definition.struct
  (#any-of? @_define "define-record-type" "define-struct" "struct"))

((list . (symbol) @name @reference.call)
  (#not-match? @name "^(define|define\\*|define-public|define-inline|define-syntax|define-macro|define-syntax-rule|define-record-type|define-struct|struct|lambda|let|let\\*|letrec|letrec\\*|let-values|if|cond|case|when|unless|begin|do|and|or|quote|quasiquote|set!|syntax-rules|else|_|import|require|provide|module|library|export)$"))

(program
  (list . (symbol) @_import . (_) @name) @reference.import
  (#any-of? @_import "import" "require"))
