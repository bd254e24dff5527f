"""How much of a published npm package's code the walk reaches: the build output a package
ships as its only code (`build/`, `dist/`, `out/`, index/published) against the denylist
alone, on the 50 packages below (widely depended-upon ones, pinned; fetched once into the
cache). A script is a JavaScript or TypeScript file (declarations, maps and
`node_modules/` aside).

.venv/bin/python -m benchmarks.shipped_code [--json]
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path
from unittest import mock

from benchmarks.sdists import fetch_npm
from strata.config import load_config
from strata.index import ignore
from strata.index.discovery import discover
from strata.index.published import OUTPUT_DIRS

log = logging.getLogger("benchmarks.shipped_code")
PACKAGES = (
    *(("lodash", "4.18.1"), ("chalk", "6.0.1"), ("commander", "15.1.0"), ("express", "5.3.0")),
    *(("react", "19.3.1"), ("debug", "4.4.3"), ("axios", "1.21.1"), ("tslib", "2.9.1")),
    *(("yargs", "18.2.0"), ("uuid", "14.0.3"), ("semver", "7.8.6"), ("ws", "8.23.1")),
    *(("moment", "2.31.0"), ("fs-extra", "11.4.1"), ("glob", "15.0.0"), ("minimist", "1.2.8")),
    *(("body-parser", "2.4.0"), ("rxjs", "7.8.2"), ("zod", "4.6.7"), ("dayjs", "1.11.23")),
    *(("async", "3.2.6"), ("bluebird", "3.7.2"), ("prop-types", "15.8.1")),
    *(("classnames", "2.5.1"), ("vue", "3.5.47"), ("react-dom", "19.3.1"), ("jquery", "4.1.0")),
    *(("date-fns", "4.4.0"), ("inquirer", "14.3.1"), ("qs", "6.17.1"), ("underscore", "1.13.8")),
    *(("redux", "5.0.1"), ("immer", "11.2.14"), ("mobx", "7.1.3"), ("@babel/core", "8.1.4")),
    *(("webpack", "5.113.0"), ("eslint", "10.16.0"), ("prettier", "3.10.2"), ("lit", "3.3.3")),
    *(("typescript", "7.0.2"), ("three", "0.187.0"), ("d3", "7.9.2"), ("ajv", "8.20.0")),
    *(("joi", "18.3.2"), ("yup", "1.7.1"), ("socket.io", "4.8.4"), ("dotenv", "18.0.10")),
    *(("cheerio", "1.2.0"), ("marked", "18.3.0"), ("handlebars", "4.7.10")),
)
_SCRIPT = (".js", ".cjs", ".mjs", ".jsx", ".ts", ".cts", ".mts", ".tsx")


def is_script(rel: str) -> bool:
    """A JavaScript or TypeScript file, not a declaration."""
    return rel.endswith(_SCRIPT) and not rel.endswith((".d.ts", ".d.cts", ".d.mts"))


def measure(root: Path) -> dict[str, object]:
    """The package's scripts, and how many of them each walk reaches."""
    everything = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()]
    scripts = [r for r in everything if is_script(r) and "node_modules/" not in r]
    cfg = load_config(env={}).index
    walked = [f.rel for f in discover(root, cfg).files if is_script(f.rel)]
    with mock.patch.object(ignore, "is_published_code", return_value=False):
        denylist = [f.rel for f in discover(root, cfg).files if is_script(f.rel)]
    outputs = sorted({r.split("/")[0] for r in walked if r.split("/")[0] in OUTPUT_DIRS})
    return {
        "scripts": len(scripts),
        "denylist_walks": len(denylist),
        "walks": len(walked),
        "output_dirs_walked": outputs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    rows = {}
    for name, version in PACKAGES:
        rows[f"{name}@{version}"] = row = measure(fetch_npm(name, version))
        log.info("%s@%s %s", name, version, row)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print("| package | scripts | reached, denylist alone | reached | output walked |")
    print("|---|---:|---:|---:|---|")
    for pkg, r in rows.items():
        walked = ", ".join(f"`{d}/`" for d in r["output_dirs_walked"]) or "-"  # type: ignore[union-attr]
        print(f"| {pkg} | {r['scripts']} | {r['denylist_walks']} | {r['walks']} | {walked} |")


if __name__ == "__main__":
    main()
