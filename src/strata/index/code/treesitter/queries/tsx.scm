; TSX tags: the TypeScript ones (JSX adds no definitions of its own).
; inherits: typescript
