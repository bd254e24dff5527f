;; Queues as pairs of lists.
(define (make-queue) (cons '() '()))

;;; Push an item at the back.
(define (queue-push! q x)
  (set-cdr! q (cons x (cdr q))))

(define max-size 100)

(define-syntax swap!
  (syntax-rules () ((_ a b) (let ((t a)) (set! a b) (set! b t)))))

(define-record-type point (make-point x y) point? (x point-x) (y point-y))
