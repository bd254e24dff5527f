"""A question's core: the search reads the topic without the request around it."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest

from strata import Engine
from strata.query.framing import core, is_topic


@pytest.mark.parametrize(
    ("query", "topic"),
    [
        (
            "Can you show me the code responsible for multipart form data parsing?",
            "multipart form data parsing",
        ),
        (
            "I'm trying to understand retry backoff. Where is that handled in the code?",
            "retry backoff",
        ),
        ("where is syslog over UDP implemented", "syslog over UDP"),
        ("which code handles header parsing?", "header parsing"),
        ("please find me the code for retry backoff", "retry backoff"),
        ("Explain XMLHttpRequest adapter for browsers", "XMLHttpRequest adapter for browsers"),
        ("syslog over UDP in this repo", "syslog over UDP"),
    ],
)
def test_the_request_around_a_topic_is_taken_off(query: str, topic: str) -> None:
    assert core(query) == topic


@pytest.mark.parametrize(
    "query",
    [
        "How do I get my log lines written out as JSON objects?",  # the question is the topic
        "What happens to values that the json module cannot serialise?",
        "the function that handles retries",  # one word would be left
        "multipart form data parsing",
    ],
)
def test_a_question_without_a_frame_is_left_whole(query: str) -> None:
    assert core(query) == query


def test_a_framed_question_finds_what_its_topic_finds(minirepo: Path) -> None:
    with Engine.open(minirepo, config={"embed.provider": "none"}) as eng:
        eng.index()
        bare = eng.search("case-insensitive header lookup", k=5)
        framed = eng.search(
            "Can you show me the code responsible for case-insensitive header lookup?", k=5
        )
    assert bare.hits
    assert [h.record.id for h in framed] == [h.record.id for h in bare]
    assert framed.plan["core"] == "case-insensitive header lookup"  # shown by --explain
    assert "core" not in bare.plan


@pytest.mark.parametrize(
    ("query", "topic"),
    [
        ("request API helpers and header access", True),
        ("multipart form data extraction", True),
        ("how chunked transfer encoding is parsed", False),  # a question (leans by _ABOUT_CODE)
        ("How do I extract multipart form data?", False),
        ("Options are defined with the .option() method.", False),  # a sentence from the docs
        ("show me multipart form parsing", True),  # a request around a topic
        ("Can you show me the code responsible for multipart form data parsing?", True),
        ("show me parsing", False),
        ("Please use Promise.all to replace the functions below.", False),
        ("when you add several response interceptors", False),  # the docs, to the reader
        ("bound logger", False),  # a name or two: looked up
        ("one two three four five six seven eight nine ten eleven twelve thirteen", False),
    ],
)
def test_a_topic_is_named_in_a_phrase_not_asked(query: str, topic: bool) -> None:
    assert is_topic(query) is topic


UPLOADS = {
    "README.md": """
        # Uploads

        ## Multipart form data

        Multipart form data extraction reads each part of an upload and its headers, so a
        handler gets the fields and the files.
    """,
    "multipart.py": '''
        """Multipart form data extraction."""


        def extract_parts(body: bytes, boundary: bytes) -> list[bytes]:
            """Split a multipart form data body into its parts."""
            return body.split(boundary)
    ''',
}


def test_a_topic_phrase_leans_to_code_a_usage_question_does_not(tmp_path: Path) -> None:
    for rel, text in UPLOADS.items():
        (tmp_path / rel).write_text(dedent(text).lstrip(), encoding="utf-8")
    with Engine.open(tmp_path, config={"embed.provider": "none"}) as eng:
        eng.index()
        topic = eng.search("multipart form data extraction", k=5)
        usage = eng.search("How do I extract multipart form data?", k=5)
    leaned = {h.record.layer[:1] for h in topic if "code_lean" in h.parts}
    assert leaned == {"C"}, [(h.record.path, h.parts) for h in topic]
    assert topic[0].record.path == "multipart.py"
    assert not any("code_lean" in h.parts for h in usage)
