"""A question's core: the search reads the topic without the request around it."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata import Engine
from strata.query.framing import core


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
