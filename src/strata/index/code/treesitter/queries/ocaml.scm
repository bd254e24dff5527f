; OCaml tags. A top-level `let` with parameters (or a `fun`) is a function, any other a
; constant; a local `let ... in` is no definition.

([(compilation_unit
   (value_definition
     .
     (let_binding
       pattern: (value_name) @name
       body: [(fun_expression) (function_expression)] @body)) @definition.function)
  (structure
   (value_definition
     .
     (let_binding
       pattern: (value_name) @name
       body: [(fun_expression) (function_expression)] @body)) @definition.function)])

([(compilation_unit
   (value_definition
     .
     (let_binding pattern: (value_name) @name (parameter) body: (_) @body)) @definition.function)
  (structure
   (value_definition
     .
     (let_binding pattern: (value_name) @name (parameter) body: (_) @body)) @definition.function)])

([(compilation_unit
   (value_definition
     .
     (let_binding pattern: (value_name) @name)) @definition.constant)
  (structure
   (value_definition
     .
     (let_binding pattern: (value_name) @name)) @definition.constant)])

(value_definition
  (let_binding)
  (let_binding pattern: (value_name) @name (parameter)) @definition.function)

(external (value_name) @name) @definition.function

(module_definition
  (module_binding (module_name) @name body: (structure) @body)) @definition.module

(module_definition
  (module_binding (module_name) @name)) @definition.module

(module_type_definition
  (module_type_name) @name
  body: (signature)? @body) @definition.interface

(signature (value_specification (value_name) @name) @definition.function)

(type_definition
  (type_binding name: (type_constructor) @name body: (record_declaration) @body)) @definition.struct

(type_definition
  (type_binding name: (type_constructor) @name)) @definition.type

(exception_definition (constructor_declaration (constructor_name) @name)) @definition.type

(class_definition
  (class_binding (class_name) @name body: (_) @body)) @definition.class

(method_definition (method_name) @name body: (_) @body) @definition.method

(open_module module: (module_path) @name) @reference.import

(application_expression
  function: (value_path (value_name) @name)) @reference.call

(method_invocation (method_name) @name) @reference.call
