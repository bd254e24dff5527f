; Groovy tags (the bundled grammar reads Java-like Groovy loosely: see each pattern).
; implements: blank

(class_definition "interface" name: (identifier) @name) @definition.interface

(class_definition name: (identifier) @name) @definition.class

; A class whose body the grammar could not read (the whole file an error): its head's name.
(ERROR "class" . (identifier) @name @definition.class)

(function_definition function: (identifier) @name) @definition.function

; An interface's or an abstract method, without a body.
(function_declaration function: (identifier) @name) @definition.function

; A constructor reads as a call of the class's name in its body followed by a closure.
(class_definition
  name: (identifier) @_class
  body: (closure
    (function_call
      function: (identifier) @name
      args: (argument_list (closure) .)) @definition.function)
  (#eq? @_class @name))

; `enum Kind { ... }` and `trait Named { ... }` read as two words and a closure.
((identifier) @_kind . (identifier) @name . (closure) @definition.enum
  (#eq? @_kind "enum"))

((identifier) @_kind . (identifier) @name . (closure) @definition.trait
  (#eq? @_kind "trait"))

(class_definition
  body: (closure
    (declaration
      (modifier) (modifier)
      name: (identifier) @name) @definition.constant)
  (#match? @name "^[A-Z][A-Z0-9_]*$"))

(class_definition superclass: (identifier) @name @reference.inherits)

(function_call
  function: [
    (identifier) @name
    (dotted_identifier (identifier) @name .)
  ]) @reference.call

(groovy_import (qualified_name) @name) @reference.import
