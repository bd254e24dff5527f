"""A C or C++ function declared in a header and defined elsewhere is one function
(query/declared): a definition the query finds brings the chunk holding its declaration
next to it. Real grammars, a real index."""

from __future__ import annotations

from pathlib import Path

from strata import Engine
from tests.sources import indexed_tree

HEADER = """\
#pragma once
namespace Json {

class Value {
public:
  bool isNull() const;
  bool isArray() const;
  bool empty() const;
  void clear();
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
C_FILES = {
    "include/lua.h": "int lua_gettop (lua_State *L);\nvoid lua_settop (lua_State *L, int idx);\n",
    "src/lapi.c": (
        "int lua_gettop (lua_State *L) {\n  return cast_int(L->top - (L->ci->func + 1));\n}\n\n"
        "void lua_settop (lua_State *L, int idx) {\n  L->top = L->ci->func + 1 + idx;\n}\n"
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
    assert path == "include/json/value.h" and start <= 8 <= end  # `bool empty() const;`
    top = eng.search("return size zero when null or array", k=5, mode="lexical").hits[1]
    assert "declared" in top.parts
    # a name asked for: its definition first, the declaration is no answer of its own
    found = eng.search("where is Value::empty defined", k=3, mode="lexical").hits
    assert "declared" not in found[0].parts


def test_c_prototypes_follow_their_bodies(tmp_path: Path) -> None:
    eng = indexed_tree(tmp_path, C_FILES)
    places = _places(eng, "top minus func plus one cast int", k=3)
    assert places[0][0] == "src/lapi.c" and places[0][1] == 1
    assert ("include/lua.h", 1) in [(p, s) for p, s, _ in places[1:3]]
