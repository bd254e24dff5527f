"""Length-bucketed batches: similar lengths share a batch, vectors come back in order."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from strata.embedding.buckets import bucketed, embed_bucketed, token_counter
from strata.errors import EmbedderError


class Recording:
    """An embedder whose vector says which text it is (its length, and a marker), and
    which records the batches it was given."""

    name = "test:recording"
    dim = 3

    def __init__(self, tokens: bool = True, wrong: bool = False) -> None:
        self.batches: list[list[str]] = []
        self.counted: list[str] = []
        self.wrong = wrong
        if not tokens:
            self.token_lengths = None  # type: ignore[assignment]

    def token_lengths(self, texts: Sequence[str]) -> list[int]:
        self.counted += texts
        return [len(t.split()) for t in texts]  # "tokens": words

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.batches.append(list(texts))
        rows = [[len(t), float(sum(map(ord, t))), 1.0] for t in texts]
        return np.array(rows[: len(rows) - self.wrong], dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]


@given(st.lists(st.integers(min_value=0, max_value=50), max_size=60), st.integers(1, 9))
def test_batches_cover_every_index_once_shortest_first(lengths: list[int], size: int) -> None:
    batches = bucketed(lengths, size)
    flat = [i for b in batches for i in b]
    assert sorted(flat) == list(range(len(lengths)))
    assert all(0 < len(b) <= size for b in batches)
    assert [lengths[i] for i in flat] == sorted(lengths)


def test_vectors_come_back_in_the_order_the_texts_were_given() -> None:
    texts = ["a b c d e f", "x", "a b c", "one two", "", "w w w w w w w w", "q r"]
    model = Recording()
    seen: list[list[int]] = []
    got = embed_bucketed(model, texts, 3, on_batch=lambda idx, _v: seen.append(idx))
    expected = np.array([[len(t), sum(map(ord, t)), 1.0] for t in texts], dtype=np.float32)
    np.testing.assert_array_equal(got, expected)
    assert model.batches[0] == ["", "x", "one two"]  # the shortest share the first batch
    assert [len(b) for b in model.batches] == [3, 3, 1]
    assert sorted(i for b in seen for i in b) == list(range(len(texts)))


def test_token_lengths_are_used_when_the_embedder_counts_tokens() -> None:
    texts = ["aaaaaaaaaaaaaaaaaaaa", "b c d", "e f"]  # by characters the first is longest
    model = Recording()
    embed_bucketed(model, texts, 2)
    assert model.batches[0] == ["aaaaaaaaaaaaaaaaaaaa", "e f"]  # one "token", two
    assert token_counter(model)("a b c") == 3
    chars = Recording(tokens=False)
    embed_bucketed(chars, texts, 2)
    assert chars.batches[0] == ["e f", "b c d"]
    assert token_counter(chars)("a b c") == 5


def test_a_short_answer_from_the_embedder_is_an_error() -> None:
    with pytest.raises(EmbedderError, match="returned shape"):
        embed_bucketed(Recording(wrong=True), ["a", "b"], 4)


def test_no_texts_no_call() -> None:
    model = Recording()
    assert embed_bucketed(model, [], 4).shape == (0, 3) and model.batches == []
