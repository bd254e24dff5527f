"""A C or C++ function declared in a header and defined elsewhere is one function
(query/declared): in a project that documents its functions where it declares them, a
definition the query finds brings the chunk holding its declaration next to it. Real
grammars, a real index."""

from __future__ import annotations

from pathlib import Path

from strata import Engine
from strata.index.code.treesitter import symbols
from tests.sources import indexed_tree

HEADER = """\
#pragma once
namespace Json {

class Value {
public:
  /// Whether this holds null.
  bool isNull() const;
  /// Whether this holds an array.
  bool isArray() const;
  /// Whether this holds nothing at all.
  bool empty() const;
  /// Remove every member.
  void clear();
  /// Give the array this many elements.
  void resize(unsigned newSize);
};

}  // namespace Json
"""
SOURCE = """\
#include "value.h"
namespace Json {

bool Value::empty() const {
  if (isNull() || isArray()) {
    return size() == 0u;
  }
  return false;
}

void Value::clear() {
  switch (type()) {
  case arrayValue:
  case objectValue:
    value_.map_->clear();
    break;
  default:
    break;
  }
}

}  // namespace Json
"""
# Lua's way: the bodies carry the docs, the header's prototypes are bare
LUA = {
    "include/lua.h": (
        "#ifndef lua_h\n#define lua_h\nint lua_gettop (lua_State *L);\n"
        "void lua_settop (lua_State *L, int idx);\n#endif\n"
    ),
    "src/lapi.c": (
        "/* the index of the top element */\nint lua_gettop (lua_State *L) {\n"
        "  return cast_int(L->top - (L->ci->func + 1));\n}\n\n"
        "/* move the top to idx */\nvoid lua_settop (lua_State *L, int idx) {\n"
        "  L->top = L->ci->func + 1 + idx;\n}\n"
    ),
}


def _places(eng: Engine, query: str, k: int = 5) -> list[tuple[str, int, int]]:
    hits = eng.search(query, k=k, mode="lexical").hits
    return [(h.record.path, h.record.span_start or 0, h.record.span_end or 0) for h in hits]


def test_a_definition_brings_its_declaration_next(tmp_path: Path) -> None:
    eng = indexed_tree(tmp_path, {"include/json/value.h": HEADER, "src/json_value.cpp": SOURCE})
    places = _places(eng, "return size zero when null or array")
    assert places[0][:2] == ("src/json_value.cpp", 4)  # the body the words are in
    path, start, end = places[1]
    assert path == "include/json/value.h" and start <= 11 <= end  # `bool empty() const;`
    top = eng.search("return size zero when null or array", k=5, mode="lexical").hits[1]
    assert "declared" in top.parts
    # a name asked for: its definition first, the declaration is no answer of its own
    found = eng.search("where is Value::empty defined", k=3, mode="lexical").hits
    assert "declared" not in found[0].parts


def test_bare_prototypes_stay_where_they_rank(tmp_path: Path) -> None:
    eng = indexed_tree(tmp_path, LUA)
    hits = eng.search("top minus func plus one cast int", k=3, mode="lexical").hits
    assert hits[0].record.path == "src/lapi.c"
    assert not any("declared" in h.parts for h in hits)


GUARDED = """\
#ifndef YAML_H
#define YAML_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Set a string input.
 */
YAML_DECLARE(void)
yaml_parser_set_input_string(yaml_parser_t *parser, const unsigned char *input, size_t size);

/**
 * Set a file input.
 */
int yaml_parser_set_input_file(yaml_parser_t *parser, FILE *file);

#ifdef __cplusplus
}
#endif

#endif /* YAML_H */
"""


def test_prototypes_in_an_extern_c_block_are_declarations(tmp_path: Path) -> None:
    syms, _ = symbols.extract(GUARDED, "c", "include/yaml.h")
    declared = {s.name for s in syms if s.kind == "function" and s.declaration}
    assert declared == {"yaml_parser_set_input_string", "yaml_parser_set_input_file"}
    eng = indexed_tree(
        tmp_path,
        {
            "include/yaml.h": GUARDED,
            "src/api.c": (
                "YAML_DECLARE(void)\nyaml_parser_set_input_string(yaml_parser_t *parser,\n"
                "        const unsigned char *input, size_t size)\n{\n"
                "    parser->read_handler = yaml_string_read_handler;\n}\n"
            ),
        },
    )
    # a name's definition is its body; the declaration comes after it
    places = [h.record.path for h in eng.search("yaml_parser_set_input_string", k=3).hits]
    assert places[:2] == ["src/api.c", "include/yaml.h"]
    # a description of the body: the header's declaration, with its doc comment, next
    places = _places(eng, "read handler of the string input", k=3)
    assert [p for p, _, _ in places[:2]] == ["src/api.c", "include/yaml.h"]
