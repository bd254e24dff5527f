"""Entry points beyond Python against each framework's own example code: precision and
recall of (method, full route[, handler]) or command path per framework.

    python -m benchmarks.entrypoint_polyglot

The corpora come from Debian (binary packages with `apt-get download` + `dpkg-deb -x`;
source packages, for a README or docs the `-dev` package leaves out, with `apt-get
source`), cached under `benchmarks/.cache`. An app of the oracle is a folder or file of
the package, or code blocks of its documentation (`README.md#L220`: the fenced block that
opens on line 220; a list of them for an example spread over several blocks). The
tree-sitter detectors run over each app, composed across its files as the corpus pass
does, and are compared with `entrypoint_polyglot_oracle.json`, the routes and commands read
off the sources by hand; a miss prints as `-route`, an extra as `+route`. An oracle item
`METHOD /route handler` also checks the handler (its last name; `-` for an inline
function); `METHOD /route` checks the route only; a CLI item is the command path.
axum's example apps come from Debian 13's `librust-axum-dev` (`"suite": "trixie"`: the
cache's own apt lists of that release; Debian 12 has no axum).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from benchmarks.sdists import fetch_deb, fetch_deb_source
from strata.index.code.entrypoints.polyglot import DETECTORS, entrypoints_of
from strata.index.code.model import Entrypoint
from strata.text.langs import language_of

ORACLE = Path(__file__).with_name("entrypoint_polyglot_oracle.json")
_FENCE_LANGS = {"go": "go", "java": "java", "js": "javascript", "javascript": "javascript"}
_ASCIIDOC_SOURCE = re.compile(r"^\[source,(\w+)")


def code_block(path: Path, line: int) -> tuple[str, str]:
    """(language, text) of the documentation code block that opens on `line` (1-based):
    a Markdown fence (```go) or an AsciiDoc `[source,java]` block, whose `**bold**`
    quotes markup is rendered away as AsciiDoc renders it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    opener = lines[line - 1].strip()
    if opener.startswith("```"):
        lang, start = opener.strip("`").strip(), line
        end = next(i for i in range(start, len(lines)) if lines[i].strip().startswith("```"))
        return _FENCE_LANGS[lang], "\n".join(lines[start:end]) + "\n"
    match = _ASCIIDOC_SOURCE.match(opener)
    if match is None:
        raise ValueError(f"{path}:{line}: no code block opens here")
    start = next(i for i in range(line, len(lines)) if lines[i].startswith("----")) + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("----"))
    body = "\n".join(lines[start:end]).replace("**", "")
    return _FENCE_LANGS[match.group(1)], body + "\n"


def app_files(root: Path, app: str | list[str]) -> list[tuple[str, str, str]]:
    """(path, language, text) of an app: files, folders and documentation code blocks."""
    files = []
    for spec in [app] if isinstance(app, str) else app:
        name, _, line = spec.partition("#L")
        target = root / name
        if line:
            lang, text = code_block(target, int(line))
            files.append((f"{spec}.{lang}", lang, text))
            continue
        paths = [target] if target.is_file() else sorted(target.rglob("*"))
        for path in (p for p in paths if p.is_file()):
            rel = path.relative_to(root).as_posix()
            lang = language_of(rel)
            if lang in DETECTORS:
                files.append((rel, lang, path.read_text(encoding="utf-8", errors="replace")))
    return files


def label(e: Entrypoint, with_handler: bool) -> str:
    """How an entry reads in the oracle: `GET /r`, `GET /r handler`, or a command path."""
    if e.entry_type == "cli":
        return e.route_or_command
    text = f"{e.http_method} {e.route_or_command}"
    if not with_handler:
        return text
    handler = re.split(r"[.:]", e.handler_symbol)[-1] if e.handler_symbol else "-"
    return f"{text} {handler}"


def found(files: list[tuple[str, str, str]], framework: str, with_handler: bool) -> set[str]:
    return {
        label(e, with_handler)
        for e in entrypoints_of(files)
        if e.framework == framework and e.entry_type in ("http", "cli")
    }


def corpus_root(spec: dict[str, Any]) -> Path:
    name, version = spec["package"]
    if spec.get("source"):
        return fetch_deb_source(name, version) / spec["dir"]
    return fetch_deb(name, version, suite=spec.get("suite", "")) / spec["dir"]


def measure(framework: str, spec: dict[str, Any]) -> tuple[list[int], list[str]]:
    """[apps, oracle items, found, both] and the misses and extras of one framework."""
    counts, misses = [0, 0, 0, 0], []
    for corpus in spec.get("corpora", [spec]):
        root = corpus_root(corpus)
        for app, items in corpus["apps"].items():
            expected = set(items)
            with_handler = any(len(i.split()) == 3 for i in expected)
            files = app_files(root, corpus.get("blocks", {}).get(app, app))
            got = found(files, framework, with_handler)
            step = (1, len(expected), len(got), len(expected & got))
            counts = [c + n for c, n in zip(counts, step, strict=True)]
            misses += [f"{app}: -{r}" for r in sorted(expected - got)]
            misses += [f"{app}: +{r}" for r in sorted(got - expected)]
    return counts, misses


def main() -> None:
    oracle = json.loads(ORACLE.read_text(encoding="utf-8"))
    print("| framework | apps | oracle items | found | both | recall | precision |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for framework, spec in oracle.items():
        if framework.startswith("_"):
            continue
        (apps, want, got, both), misses = measure(framework, spec)
        print(
            f"| {framework} | {apps} | {want} | {got} | {both} "
            f"| {both / want:.2f} | {both / got if got else 0:.2f} |"
        )
        for line in misses:
            print(f"|   | {line} | | | | | |")


if __name__ == "__main__":
    main()
