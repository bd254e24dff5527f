; Racket tags: as Scheme's (`define`, `struct`, `require`).
; inherits: scheme
