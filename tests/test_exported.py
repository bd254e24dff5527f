"""A module's line that exports a name it defines stands for that definition
(query/exported): for a sentence it leaves the results, and the definition answers. Real
grammars, a real index."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata.index.records import make_record
from strata.query.glue import exported_names
from strata.types import Record
from tests.sources import indexed_tree

CJS = """\
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PostgresDialect = void 0;
const driver_js_1 = require("./postgres-driver.js");
class PostgresDialect {
    #config;
    constructor(config) {
        this.#config = config;
    }
    createDriver() {
        return new driver_js_1.PostgresDriver(this.#config);
    }
}
exports.PostgresDialect = PostgresDialect;
"""
ESM = """\
function cancelToken(executor) {
  return { executor, reason: null };
}

export default cancelToken;
"""


def _chunk(text: str) -> Record:
    return make_record(
        id="a.js:1",
        path="a.js",
        layer="C0_SOURCE_CHUNKS",
        title="",
        content=text,
        lang="",
        file_hash="",
    )


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("exports.PostgresDialect = PostgresDialect;", ("PostgresDialect",)),
        ("module.exports = Router;", ("Router",)),
        ("export default cancelToken;", ("cancelToken",)),
        ("export { parse, stringify as toString };\n// the API", ("parse", "stringify")),
        ("exports.x = require('./x');", ()),  # not a name of its own
        ("export const answer = 42;", ()),  # a definition, not an export of one
    ],
)
def test_the_names_an_export_line_exports(text: str, names: tuple[str, ...]) -> None:
    assert exported_names(_chunk(text)) == names


def test_the_definition_answers_in_its_export_lines_place(tmp_path: Path) -> None:
    files = {"src/postgres-dialect.js": CJS, "src/cancel.js": ESM}
    eng = indexed_tree(tmp_path, files)
    hits = eng.search("what options does the dialect accept", k=5, mode="lexical").hits
    assert hits[0].record.title == "PostgresDialect"
    assert not any(h.record.span_start == 14 for h in hits)  # the export line is gone
    hits = eng.search("how is a cancel token made", k=5, mode="lexical").hits
    assert hits[0].record.title == "cancelToken"
    assert not any(h.record.span_start == 5 for h in hits)
    # a name asked for: the export line may show where it is exported
    found = eng.search("where is PostgresDialect defined", k=5, mode="lexical").hits
    assert found[0].record.title == "PostgresDialect"
