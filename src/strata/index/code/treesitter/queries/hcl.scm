; HCL (Terraform) tags: resources and data sources named as they are referred to
; (`aws_s3_bucket.logs`), modules, variables and outputs.

((block
  (identifier) @_kind
  .
  (string_lit (template_literal) @receiver)
  .
  (string_lit (template_literal) @name)) @definition.struct
  (#any-of? @_kind "resource" "data"))

((block (identifier) @_kind . (string_lit (template_literal) @name) . (block_start)) @definition.module
  (#eq? @_kind "module"))

((block (identifier) @_kind . (string_lit (template_literal) @name) . (block_start)) @definition.constant
  (#any-of? @_kind "variable" "output"))
