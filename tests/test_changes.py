"""What a project's changelog answers: what changed in a release ("what changed in 2.1.0",
"release notes for v2.0"), in the latest one, and when a thing changed ("when was
`retry_after` added"); the changelog's sections of that release come first, titled with
it, then the plain search."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata import Engine
from strata.query.changes import changes_asked, heading_version, is_changelog_path, same_release
from strata.query.router import route
from tests.sources import indexed_tree

SOURCES = {
    "CHANGELOG.md": """
        # Changelog

        ## Unreleased

        * Nothing yet.

        ## 2.1.0 (3rd March, 2025)

        ### Added

        * The `retry_after` option waits as the server asks.

        ### Fixed

        * A timeout no longer leaks its socket.

        ## 2.0.1 (1st February, 2025)

        ### Fixed

        * `retry_after` reads a date as well as seconds.

        ## 2.0.0 (2nd January, 2025)

        ### Removed

        * The `proxies` argument; use `proxy`.
        * retry_after no longer retries a POST.

        ### Python 3.13 support

        * Wheels for Python 3.13.
    """,
    "docs/history.rst": """
        History
        =======

        1.9
        ---

        * The `proxy` argument was added.

        1.8.2
        -----

        * A fix for cookies.
    """,
    "client/retry.py": """
        def retry_after(response):
            \"\"\"Seconds to wait before the next attempt (what changed: the header).\"\"\"
            return int(response.headers.get("Retry-After", "0"))
    """,
}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return indexed_tree(tmp_path_factory.mktemp("changes"), SOURCES)


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("what changed in 0.28.0", ("release", "0.28.0")),
        ("what's new in version 2.0", ("release", "2.0")),
        ("What is new in version 3?", ("release", "3")),
        ("release notes for v1.2.3", ("release", "v1.2.3")),
        ("what changed between 0.27 and 0.28", ("release", "0.27 0.28")),
        ("what's in the 1.0 release", ("release", "1.0")),
        ("changelog for 2.4.1", ("release", "2.4.1")),
        ("what changed in the latest release", ("latest", "")),
        ("what are the recent changes", ("latest", "")),
        ("что изменилось в последней версии", ("latest", "")),
        ("что нового в 2.0", ("release", "2.0")),
        ("when was the proxy argument added", ("when", "proxy")),
        ("which version added the proxy argument", ("when", "proxy")),
        ("in which version was proxies deprecated", ("when", "proxies")),
        ("when did `Foo.bar` change", ("when", "Foo.bar")),
        ("since which version is http2 supported", ("when", "http2")),
        ("what is the latest version", None),  # the manifests' question
        ("how does the version 2 api work", None),
        ("when was the connection closed", None),
        ("what's new", None),
        ("Returns the version of the release.", None),
    ],
)
def test_a_question_about_releases(query: str, asked: tuple[str, str] | None) -> None:
    assert changes_asked(query) == asked
    assert (route(query).intent == "changes") is bool(asked)


@pytest.mark.parametrize(
    ("heading", "number"),
    [
        ("0.26.0 (20th December, 2023)", "0.26.0"),
        ("[1.2.3] - 2024-05-01", "1.2.3"),
        ("Version 7.6.1 — 2024-08-04", "7.6.1"),
        ("Release 0.5.3 (Dec 19, 2024)", "0.5.3"),
        ("4.21.2 / 2024-11-06", "4.21.2"),
        ("v2.0.0-rc.1", "v2.0.0-rc.1"),
        ("Version 3", "3"),
        ("Unreleased", None),
        ("Added", None),
        ("pluggy 1.5.0 (2024-04-19)", "1.5.0"),  # towncrier's: the project's name first
        ("attrs 23.1.0 - 2023-04-16", "23.1.0"),
        ("Django 4.2", "4.2"),
        ("Python 3.13 support", None),  # a section that mentions a number names no release
        ("Support Python 3.13", None),
        ("2024.01.05", None),  # a date
    ],
)
def test_the_release_a_heading_names(heading: str, number: str | None) -> None:
    assert heading_version(heading) == number


def test_a_release_and_its_series() -> None:
    assert same_release("2.0", "2.0.0") == 2 and same_release("v1.2.3", "1.2.3") == 2
    assert same_release("0.28", "0.28.1") == 1
    assert same_release("1.2.3", "1.2.30") == 0 and same_release("2.0", "2.0.0rc1") == 1


def test_the_changelogs_by_name() -> None:
    for path in ("CHANGELOG.md", "CHANGES.rst", "History.md", "NEWS", "docs/changelog.rst"):
        assert is_changelog_path(path), path
    assert is_changelog_path("docs/whatsnew/3.1.rst") and is_changelog_path("RELEASE-NOTES.md")
    assert not is_changelog_path("src/changes.py") and not is_changelog_path("README.md")


def _shown(eng: Engine, query: str, k: int = 4) -> list[tuple[str, int | None, str]]:
    result = eng.search(query, k=k, mode="lexical")
    assert result.plan["route"]["intent"] == "changes"
    return [(h.record.path, h.record.span_start, h.record.title) for h in result.hits]


def test_a_release_is_its_sections_titled_with_it(client: Engine) -> None:
    hits = _shown(client, "what changed in 2.1.0")
    assert hits[:2] == [
        ("CHANGELOG.md", 7, "2.1.0 (3rd March, 2025) › Added"),
        ("CHANGELOG.md", 13, "2.1.0 (3rd March, 2025) › Fixed"),
    ]
    # 2.0 is 2.0.0; its "Python 3.13 support" section is 2.0.0's, not a release 3.13
    assert [h[1:] for h in _shown(client, "what's new in version 2.0", k=2)] == [
        (23, "2.0.0 (2nd January, 2025) › Removed"),
        (30, "2.0.0 (2nd January, 2025) › Python 3.13 support"),
    ]


def test_when_a_thing_was_added_is_its_first_release_saying_so(tmp_path: Path) -> None:
    log = (
        "# Changes\n\n## 3.0.0\n\n- Added a `timeout` to `connect`; `connect` retries.\n\n"
        "## 2.0.0\n\n- Fixed `connect` on Windows.\n\n"
        "## 1.0.0\n\n- Added `connect`, `send`, `receive` and `listen`, each with its own"
        " documentation, examples and tests for every platform we support.\n"
    )
    eng = indexed_tree(tmp_path, {"CHANGES.md": log, "lib/net.py": "def connect():\n    pass\n"})
    # both added entries say "Added": the first release that did is the answer
    assert [title for _, _, title in _shown(eng, "when was `connect` added", k=3)] == [
        "1.0.0",
        "3.0.0",
        "2.0.0",
    ]


def test_a_heading_links_text_is_its_title(tmp_path: Path) -> None:
    log = "".join(
        f"## [1.{n}.0](https://example.org/compare/1.{n - 1}.0...1.{n}.0) - 2024-0{n}-01\n\n"
        f"- Added `f{n}`.\n\n"
        for n in (3, 2, 1)
    )
    eng = indexed_tree(tmp_path, {"CHANGELOG.md": log, "lib/util.py": "def f():\n    pass\n"})
    assert _shown(eng, "what changed in 1.2.0", k=1) == [("CHANGELOG.md", 5, "1.2.0 - 2024-02-01")]


def test_a_series_when_no_heading_names_the_release(client: Engine) -> None:
    assert _shown(client, "release notes for 1.8", k=1) == [("docs/history.rst", 9, "1.8.2")]


def test_the_latest_release_is_the_highest_number(client: Engine) -> None:
    # "Unreleased" names no release; 2.1.0's sections, not the older ones'
    assert {h[1] for h in _shown(client, "what changed in the latest release", k=2)} == {7, 13}


def test_when_a_thing_changed_is_the_entry_that_says_so(client: Engine) -> None:
    hits = _shown(client, "when was `retry_after` added")
    # the entry under `### Added` first, then one writing it as code, then in words, then
    # the code
    assert [h[2] for h in hits[:3]] == [
        "2.1.0 (3rd March, 2025) › Added",
        "2.0.1 (1st February, 2025) › Fixed",
        "2.0.0 (2nd January, 2025) › Removed",
    ]
    assert hits[3][0] == "client/retry.py"
    result = client.search("which version added the proxy argument", k=1, mode="lexical")
    (hit,) = result.hits
    assert (hit.record.path, hit.record.title) == ("docs/history.rst", "1.9")


def test_no_changelog_says_so_and_searches(tmp_path: Path) -> None:
    files = {"README.md": "# Util\n\nHelpers.\n", "lib/util.py": "def release_notes():\n    pass\n"}
    result = indexed_tree(tmp_path, files).search("release notes for 1.2.0", k=1, mode="lexical")
    assert "no changelog section answers it: plain search instead" in result.notes
    assert [h.record.path for h in result.hits] == ["lib/util.py"]


def test_a_plain_text_changelog_underlined_as_rst_is_sectioned(tmp_path: Path) -> None:
    # `CHANGELOG` without a suffix (sqlparse's, GNU's `NEWS`): its underlined titles are
    # sections, so a release is one of them and not a window of paragraphs
    news = "".join(
        f"Release 0.{n}.0 (Jan {n}, 2024)\n----------------------------\n\n"
        f"* Change {n} one.\n* Change {n} two.\n\n\n"
        for n in (5, 4, 3, 2, 1)
    )
    eng = indexed_tree(tmp_path, {"NEWS": news, "lib/util.py": "def f():\n    pass\n"})
    (hit,) = eng.search("what changed in 0.3.0", k=1, mode="lexical").hits
    assert (hit.record.path, hit.record.span_start, hit.record.span_end) == ("NEWS", 15, 19)
    assert hit.record.title == "Release 0.3.0 (Jan 3, 2024)"
    # a text with a dashed rule or one underlined line is still read as plain text
    one = "Notes\n-----\n\nSome text.\n\n----\n\nMore text.\n"
    plain = indexed_tree(tmp_path / "plain", {"NOTES": one})
    (rec,) = [h.record for h in plain.search("more text", k=1, mode="lexical").hits]
    assert rec.metadata.get("section_path") in ([], None)


def test_release_notes_known_by_their_content(tmp_path: Path) -> None:
    # more-itertools keeps its release notes in `docs/versions.rst`: no changelog's name,
    # but every heading under the title is a release
    notes = "===============\nVersion History\n===============\n\n" + "".join(
        f"10.{n}.0\n------\n\n* :func:`f{n}` was added.\n\n" for n in (3, 2, 1)
    )
    files = {"docs/versions.rst": notes, "lib/util.py": "def f2():\n    pass\n"}
    eng = indexed_tree(tmp_path, files)
    assert _shown(eng, "what changed in 10.2.0", k=1) == [("docs/versions.rst", 10, "10.2.0")]
    assert _shown(eng, "when was f2 added", k=1) == [("docs/versions.rst", 10, "10.2.0")]
