"""A passage another hit already shows is left out for the next result, and its place named:
a read-me included whole as the docs' index page (tenacity's `README.rst` and
`doc/source/index.rst`), a module copied into two packages. A name's definitions keep every
copy: each is a place asked for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from strata.query.twins import MIN_CHARS
from strata.surfaces.http.pool import Engines
from strata.surfaces.http.state import fresh_engine
from strata.surfaces.jobs import Jobs
from strata.surfaces.mcp import Tools, build
from tests.sources import indexed_tree

SECTION = """\
# Backoff

## Waiting between attempts

Each attempt waits twice as long as the one before, up to a ceiling: set the
backoff factor and the maximum delay when the client is made.
"""
CODE = '''\
def backoff_delay(attempt, factor=2.0, ceiling=30.0):
    """How long to wait before `attempt`, doubled each time up to `ceiling`."""
    return min(ceiling, factor ** attempt)
'''
FILES = {
    "README.md": SECTION,
    "docs/index.md": SECTION,
    "docs/other.md": "# Other\n\nThe backoff factor is set on the client; see the read-me.\n",
    "lib/retry.py": CODE,
    "vendor/copy/retry.py": CODE,
}


def _places(hits: Any) -> list[str]:
    return [f"{h.record.path}:{h.record.span_start}" for h in hits]


def test_a_text_shown_once_with_its_other_places(tmp_path: Path) -> None:
    eng = indexed_tree(tmp_path, FILES)
    result = eng.search("how long to wait between attempts backoff factor", k=10, mode="lexical")
    docs = [h for h in result.hits if h.record.layer.startswith("D")]
    sections = [h for h in docs if h.record.title.endswith("Waiting between attempts")]
    (section,) = sections  # one of the two copies, not both
    twin = "docs/index.md" if section.record.path == "README.md" else "README.md"
    assert section.record.metadata["same_text_at"] == [f"{twin}:1-6"]
    assert any(h.record.path == "docs/other.md" for h in docs)  # the room left goes on
    # the code copies are one text too; code and docs stay apart
    code = [h for h in result.hits if h.record.path.endswith("retry.py")]
    assert len(code) == 1 and code[0].record.metadata["same_text_at"]
    # a name's definitions: every copy is a place asked for
    found = eng.search("where is backoff_delay defined", k=5, mode="lexical")
    paths = {h.record.path for h in found.hits}
    assert {"lib/retry.py", "vendor/copy/retry.py"} <= paths


def test_short_texts_are_places_of_their_own(tmp_path: Path) -> None:
    short = "def ping():\n    return 1\n"
    assert len(short) < MIN_CHARS
    files = {"a/ping.py": short, "b/ping.py": short + "\n\ndef pong():\n    return 2\n"}
    eng = indexed_tree(tmp_path, files)
    result = eng.search("ping return one", k=5, mode="lexical")
    assert {h.record.path for h in result.hits} >= {"a/ping.py", "b/ping.py"}
    assert not any("same_text_at" in h.record.metadata for h in result.hits)


def test_one_file_under_several_names_is_shown_once(tmp_path: Path) -> None:
    # Debian's Lua modules: `5.1/` holds the files, `5.2/` and `5.3/` link to them
    short = "local function ping()\n  return 1\nend\n"
    assert len(short) < MIN_CHARS
    (tmp_path / "5.1").mkdir()
    (tmp_path / "5.1/ping.lua").write_text(short)
    for version in ("5.2", "5.3"):
        (tmp_path / version).mkdir()
        (tmp_path / version / "ping.lua").symlink_to("../5.1/ping.lua")
    eng = indexed_tree(tmp_path, {"other.lua": "local x = 1\n"})
    result = eng.search("ping return one", k=5, mode="lexical")
    pings = [h for h in result.hits if h.record.path.endswith("ping.lua")]
    assert len(pings) == 1
    assert len(pings[0].record.metadata["same_text_at"]) == 2


def test_an_agent_reads_the_other_places_in_the_notes(tmp_path: Path) -> None:
    indexed_tree(tmp_path, FILES)
    engines = Engines.open(str(tmp_path), None, None)
    server = build(Tools(engines.served, Jobs(lambda: fresh_engine(engines))))

    async def main() -> dict[str, Any]:
        async with Client(server) as client:
            query = "waiting between attempts backoff factor maximum delay"
            result = await client.call_tool("search", {"query": query, "content": "docs"})
            assert not result.is_error, result.content
            return dict(result.structured_content or {})

    answer = anyio.run(main)
    hits, notes = answer["hits"], answer["notes"]
    top = hits[0]
    assert top["path"] in ("README.md", "docs/index.md")
    twin = "docs/index.md" if top["path"] == "README.md" else "README.md"
    assert [h["path"] for h in hits].count(twin) == 0  # one copy in the hits
    assert f"{top['path']}:1-6: the same text is also at {twin}:1-6" in notes


BUILT = {
    "cjs": (
        '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\n'
        'const base_js_1 = require("./base.js");\n'
        "class Migrator extends base_js_1.Base {\n"
        "  migrateToLatest() {\n    return this.run('latest');\n  }\n}\n"
        "exports.Migrator = Migrator;\n"
    ),
    "esm": (
        'import { Base } from "./base.js";\n'
        "export class Migrator extends Base {\n"
        "  migrateToLatest() {\n    return this.run('latest');\n  }\n}\n"
    ),
}


def test_a_definition_in_a_packages_two_builds_is_shown_once(tmp_path: Path) -> None:
    files = {f"dist/{build}/migrator.js": text for build, text in BUILT.items()}
    files["dist/esm/migrator.d.ts"] = (
        "export declare class Migrator {\n  migrateToLatest(): Promise<void>;\n}\n"
    )
    files["package.json"] = '{"name": "migrate", "main": "dist/cjs/migrator.js"}\n'
    eng = indexed_tree(tmp_path, files)
    result = eng.search("how is the migrator migrated to the latest", k=10, mode="lexical")
    methods = [h.record for h in result.hits if h.record.title == "Migrator.migrateToLatest"]
    built = [r for r in methods if r.path.endswith(".js")]
    assert len(built) == 1  # one of the two builds, naming the other
    other = (
        "dist/cjs/migrator.js" if built[0].path.startswith("dist/esm") else "dist/esm/migrator.js"
    )
    assert [p.split(":")[0] for p in built[0].metadata["same_text_at"]] == [other]
    # a declaration is not a build of the definition
    assert any(h.record.path.endswith(".d.ts") for h in result.hits)
    # a name's definitions: every build is a place asked for
    found = eng.search("where is Migrator.migrateToLatest defined", k=5, mode="lexical")
    assert {"dist/cjs/migrator.js", "dist/esm/migrator.js"} <= {h.record.path for h in found}
