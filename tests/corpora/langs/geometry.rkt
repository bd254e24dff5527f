#lang racket
(require racket/list)
;; The area of a circle.
(define (area r) (* pi r r))
(define tau (* 2 pi))
(struct point (x y) #:transparent)
(provide area)
