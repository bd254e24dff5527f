"""Build output shipped beside its TypeScript source (npm packages): known from the paths,
ranked as generated code, and after the source among a name's equal definitions."""

from __future__ import annotations

from textwrap import dedent

import pytest

from strata import Engine
from strata.query.compiled import compiled_outputs
from strata.query.lookup import compiled_paths, find_symbols


def test_outputs_beside_in_the_package_root_or_under_dist_are_known() -> None:
    paths = [
        *("v4/classic/schemas.ts", "v4/classic/schemas.js", "v4/classic/schemas.cjs"),
        *("v4/classic/schemas.d.cts", "v4/classic/schemas.d.ts", "v4/classic/schemas.js.map"),
        *("src/v3/types.ts", "v3/types.js", "v3/types.d.cts"),  # zod: sources under src/
        *("packages/server/src/http/router.ts", "packages/server/dist/esm/http/router.mjs"),
        *("packages/server/dist/http/router.d.ts", "packages/server/dist/http/other.js"),
        *("plain/index.js", "plain/util.cjs", "scripts/build.js", "app/view.tsx"),
        *("src/lib/chunk.ts", "lib/chunk.js"),  # `lib/` as the output of `src/lib/`
    ]
    assert compiled_outputs(paths) == {
        *("v4/classic/schemas.js", "v4/classic/schemas.cjs", "v4/classic/schemas.d.cts"),
        *("v4/classic/schemas.d.ts", "v4/classic/schemas.js.map"),
        *("v3/types.js", "v3/types.d.cts"),
        *("packages/server/dist/esm/http/router.mjs", "packages/server/dist/http/router.d.ts"),
        "lib/chunk.js",
    }
    # a JavaScript package without TypeScript sources has no build output to tell apart
    assert compiled_outputs(["lib/index.js", "lib/index.d.ts", "lib/util.mjs"]) == frozenset()


SOURCE = """
    /**
     * A schema validates input and reports every issue it finds, each with the path
     * that leads to it and the message that a user of the form would see.
     */
    export class ZodType {
      /** Parse the input, throwing a ZodError that lists the issues. */
      parse(input: unknown): unknown {
        return this.safeParse(input);
      }

      safeParse(input: unknown): unknown {
        return input;
      }
    }
"""
BUILT = """
    /** A schema validates input and reports every issue. */
    export class ZodType {
      /** Parse the input, throwing a ZodError that lists the issues. */
      parse(input) {
        return this.safeParse(input);
      }

      safeParse(input) {
        return input;
      }
    }
"""


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("zodlike")
    # the build output has the source's qualified name and is read first, and its shorter
    # comment holds the same words (the bundler dropped the rest): BM25 alone ranks it first
    files = {"src/lib/types.ts": SOURCE, "lib/types.js": BUILT, "lib/types.cjs": BUILT}
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dedent(text).lstrip(), encoding="utf-8")
    eng = Engine.open(
        root, index_dir=tmp_path_factory.mktemp("idx"), config={"embed.provider": "none"}
    )
    eng.index()
    return eng


def test_the_source_comes_before_its_build_output(package: Engine) -> None:
    assert compiled_paths(package.store) == {"lib/types.js", "lib/types.cjs"}
    found = find_symbols(package.store, "ZodType", exact=True)
    assert found[0].record.path == "src/lib/types.ts"
    hits = package.search("schema that reports every issue of its input", mode="lexical")
    first = hits[0]
    assert first.record.path == "src/lib/types.ts", [h.record.path for h in hits]
    built = [h for h in hits if h.record.path != "src/lib/types.ts"]
    assert built and all(h.parts.get("vendored_x") for h in built)
