; Protocol Buffers tags: messages (nested ones under their message), enums, services and
; their RPCs.

(message (message_name (identifier) @name) (message_body) @body) @definition.struct

(enum (enum_name (identifier) @name) (enum_body) @body) @definition.enum

(service (service_name (identifier) @name)) @definition.interface

(rpc (rpc_name (identifier) @name)) @definition.method

(import (string) @name) @reference.import
