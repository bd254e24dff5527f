; GraphQL tags: a schema's types (objects, interfaces, enums, inputs, unions, scalars), the
; fields of its root types, directives, and a document's named operations and fragments.

(object_type_definition (description)? @doc (name) @name (fields_definition)? @body) @definition.class

(interface_type_definition (description)? @doc (name) @name) @definition.interface

(enum_type_definition (description)? @doc (name) @name) @definition.enum

(input_object_type_definition (description)? @doc (name) @name) @definition.struct

(union_type_definition (description)? @doc (name) @name) @definition.type

(scalar_type_definition (description)? @doc (name) @name) @definition.type

; A root type's field is an operation the API serves (`Query.order`).
(object_type_definition
  (name) @_root
  (fields_definition
    (field_definition (description)? @doc (name) @name) @definition.method)
  (#any-of? @_root "Query" "Mutation" "Subscription"))

(directive_definition (description)? @doc (name) @name) @definition.function

(operation_definition (name) @name) @definition.function

(fragment_definition (fragment_name (name) @name)) @definition.function

(implements_interfaces (named_type (name) @name) @reference.inherits)
