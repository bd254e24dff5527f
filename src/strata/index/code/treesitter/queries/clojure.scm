; Clojure tags. Every form is a list: `defn` and its kin are told by the symbol they start
; with; the name follows, then an optional docstring.

((list_lit
  .
  (sym_lit name: (sym_name) @_def)
  .
  (sym_lit name: (sym_name) @name)
  .
  (str_lit)? @doc
  .
  [(vec_lit) (list_lit) (map_lit)] @body) @definition.function
  (#match? @_def "^(defn|defn-|defmacro|defmulti|defmethod|deftest)$"))

((list_lit
  .
  (sym_lit name: (sym_name) @_def)
  .
  (sym_lit name: (sym_name) @name)) @definition.interface
  (#match? @_def "^(defprotocol|definterface)$"))

((list_lit
  .
  (sym_lit name: (sym_name) @_def)
  .
  (sym_lit name: (sym_name) @name)) @definition.class
  (#match? @_def "^(defrecord|deftype)$"))

((list_lit
  .
  (sym_lit name: (sym_name) @_def)
  .
  (sym_lit name: (sym_name) @name)) @definition.constant
  (#match? @_def "^(def|defonce)$"))

((list_lit
  .
  (sym_lit name: (sym_name) @_def)
  .
  (sym_lit name: (sym_name) @name)) @definition.package
  (#eq? @_def "ns"))

((list_lit
  .
  (kwd_lit name: (kwd_name) @_req)
  [
    (sym_lit) @name
    (vec_lit . (sym_lit) @name)
  ]) @reference.import
  (#match? @_req "^(require|use|import)$"))

((list_lit
  .
  (sym_lit name: (sym_name) @name)) @reference.call
  (#not-match? @name "^(def|defn|defn-|defmacro|defmulti|defmethod|deftest|defprotocol|definterface|defrecord|deftype|defonce|ns|fn|let|if|do|when|cond|loop|recur|quote|var|try|catch|finally|throw|new|set!)$"))
