"""Entry points beyond Python against each framework's own example apps: precision and
recall of (method, full route) per framework.

    python -m benchmarks.entrypoint_polyglot

Fetches the example apps from Debian (`apt-get download` + `dpkg-deb -x`, cached under
`benchmarks/.cache`), runs the tree-sitter detectors over each app (composed across its
files, as the corpus pass does) and compares with `entrypoint_polyglot_oracle.json`, the
routes read off the sources by hand; a miss prints as `-route`, an extra as `+route`.
gin, cobra, axum and Spring ship no example app in Debian: they are checked only by
`tests/test_entrypoints_polyglot.py` on corpora written for it, not measured here.
"""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.sdists import fetch_deb
from strata.index.code.entrypoints.polyglot import DETECTORS, entrypoints_of
from strata.text.langs import language_of

ORACLE = Path(__file__).with_name("entrypoint_polyglot_oracle.json")


def found_routes(app: Path, framework: str) -> set[str]:
    files = []
    for path in sorted(p for p in app.rglob("*") if p.is_file()):
        rel = path.relative_to(app).as_posix()
        lang = language_of(rel)
        if lang in DETECTORS:
            files.append((rel, lang, path.read_text(encoding="utf-8", errors="replace")))
    return {
        f"{e.http_method} {e.route_or_command}"
        for e in entrypoints_of(files)
        if e.framework == framework and e.entry_type == "http"
    }


def main() -> None:
    oracle = json.loads(ORACLE.read_text(encoding="utf-8"))
    print("| framework | apps | oracle routes | found | both | recall | precision |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for framework, spec in oracle.items():
        if framework.startswith("_"):
            continue
        root = fetch_deb(*spec["package"]) / spec["dir"]
        want = got = both = 0
        misses: list[str] = []
        for app, routes in spec["apps"].items():
            expected, found = set(routes), found_routes(root / app, framework)
            want, got, both = want + len(expected), got + len(found), both + len(expected & found)
            misses += [f"{app}: -{r}" for r in sorted(expected - found)]
            misses += [f"{app}: +{r}" for r in sorted(found - expected)]
        print(
            f"| {framework} | {len(spec['apps'])} | {want} | {got} | {both} "
            f"| {both / want:.2f} | {both / got if got else 0:.2f} |"
        )
        for line in misses:
            print(f"|   | {line} | | | | | |")


if __name__ == "__main__":
    main()
