"""What a path says about a file (pure): vendored or generated, example or legacy code, a
declaration stub, a package manifest, release notes; and the words that ask for such files.
Read once per path: a query ranks a hundred candidates, most from files seen before."""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from strata.text.langs import is_stub
from strata.types import Record

__all__ = [
    "BUILD_WORDS",
    "CHANGE_WORDS",
    "EXAMPLE_WORDS",
    "TEST_WORDS",
    "PathKinds",
    "is_changelog",
    "is_manifest",
    "is_vendored",
    "path_kinds",
]

# Example and tutorial code (`examples/`, `_examples/`, FastAPI's `docs_src/`) and code kept
# for old versions (`legacy/`, `deprecated/`).
_EXAMPLE = re.compile(
    r"(^|/)(_?examples?|samples?|demos?|docs?_src|legacy|deprecated)/", re.IGNORECASE
)
_VENDORED = re.compile(
    r"(^|/)(vendor|vendored|_vendor|third_party|thirdparty|external|extern|node_modules)/"
    r"|\.min\.(js|css)$|_pb2(_grpc)?\.py$|\.pb\.go$|(^|/)generated/|\.generated\.|_generated\."
    # a bundler's output: every module of the package again in one file (`index.umd.js`)
    r"|\.(umd|bundle|iife|global|standalone)(\.min)?\.[cm]?js$|(^|/)(umd|bundles?)/[^/]+\.[cm]?js$"
    # lock files and packaging metadata: written by tools, they repeat every name
    r"|(^|/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock"
    r"|poetry\.lock|uv\.lock|Pipfile\.lock|Gemfile\.lock|composer\.lock|go\.sum|mix\.lock"
    r"|pubspec\.lock|Podfile\.lock|flake\.lock|PKG-INFO)$|\.egg-info/"
    # a distribution's packaging of the project at its root (Debian's control, rules, patches)
    r"|^debian/",
)
_MANIFEST = re.compile(
    r"(^|/)(go\.mod|package\.json|Cargo\.toml|pyproject\.toml|setup\.cfg|pom\.xml"
    r"|build\.gradle(\.kts)?|composer\.json|Gemfile|mix\.exs|deno\.jsonc?|[^/]+\.gemspec)$"
)
_CHANGELOG = re.compile(
    r"(^|/)(changelog|changes|history|news|releases|release[-_]?notes)([-_]v?\d[\w.]*)?"
    r"(\.[a-z]+)?$",
    re.I,
)
# One change's note, waiting for the next release to gather it: reno's `releasenotes/notes/`,
# towncrier's `changelog.d/`, `newsfragments/`, `changelog/` or `news/`, changesets'
# `.changeset/`, Ansible's `changelogs/fragments/`; prose or YAML, not code.
_FRAGMENT = re.compile(
    r"(^|/)(releasenotes/notes|release[-_]?notes|changelog\.d|newsfragments|changelog|news"
    r"|\.changeset|changelogs/(fragments|unreleased))/[^/]+\.(md|rst|txt|ya?ml)$",
    re.I,
)
CHANGE_WORDS = frozenset(
    (
        *("changelog", "changed", "change", "changes", "release", "released", "releases"),
        *("version", "versions", "history", "deprecated", "deprecation", "added", "removed"),
        *("since", "new"),
    )
)
EXAMPLE_WORDS = frozenset(
    {"example", "examples", "sample", "samples", "demo", "demos", "tutorial", "tutorials"}
    | {"legacy", "deprecated", "usage", "snippet", "snippets"}
)
TEST_WORDS = frozenset(
    {"test", "tests", "testing", "pytest", "fixture", "fixtures", "spec", "mock"}
)
BUILD_WORDS = frozenset(
    {"dependency", "dependencies", "depend", "depends", "version", "versions", "package"}
    | {"packaging", "build", "install", "installation", "requirement", "requirements"}
    | {"manifest", "module", "modules", "publish", "release"}
)


class PathKinds(NamedTuple):
    """What kinds of file a path names."""

    vendored: bool  # vendored, minified or generated code, lock files, packaging
    example: bool  # example, tutorial or legacy code
    stub: bool  # a declaration stub (`.d.ts`, `.pyi`)
    manifest: bool  # a package manifest


@functools.lru_cache(maxsize=65536)
def path_kinds(path: str) -> PathKinds:
    """The kinds of file `path` names (each path read once)."""
    return PathKinds(
        bool(_VENDORED.search(path)),
        bool(_EXAMPLE.search(path)),
        is_stub(path),
        bool(_MANIFEST.search(path)),
    )


def is_manifest(path: str) -> bool:
    """A package manifest (`package.json`, `pyproject.toml`, `go.mod`, a gemspec, ...)."""
    return bool(_MANIFEST.search(path))


def is_vendored(path: str) -> bool:
    """Vendored, minified or generated code."""
    return path_kinds(path).vendored


def is_changelog(rec: Record) -> bool:
    """Release notes: by the docs classifier's `doc_kind`, by the file name, or a note of
    one change in a folder of them (a YAML note is no code either)."""
    if _FRAGMENT.search(rec.path):
        return True
    if not rec.layer.startswith("D"):
        return False  # code named history.py is code
    return rec.metadata.get("doc_kind") == "changelog" or bool(_CHANGELOG.search(rec.path))
