; Entry points in Java (strata.index.code.entrypoints.spring): Spring controllers and the
; mapping annotations of their methods.
(class_declaration
  (modifiers) @mods
  name: (identifier) @class
  body: (class_body) @body) @cls
