"""Compressed text columns give back exactly what went in, row by row."""

from __future__ import annotations

import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from strata.store.packed import BLOCK_ROWS, PackedText

texts = st.lists(st.none() | st.text(max_size=40), max_size=3 * BLOCK_ROWS + 5)


@given(texts)
def test_every_row_comes_back(values: list[str | None]) -> None:
    packed = PackedText(pa.array(values, type=pa.string()))
    assert len(packed) == len(values)
    assert [packed.get(i) for i in range(len(values))] == values


def test_chunked_and_sliced_columns() -> None:
    values = [f'{{"qname": "pkg.mod.f{i}", "kind": "function"}}' for i in range(200)]
    column = pa.chunked_array([pa.array(values[:70]), pa.array(values[70:])])
    packed = PackedText(column)
    assert [packed.get(i) for i in range(200)] == values
    sliced = PackedText(pa.array(values).slice(33, 100))
    assert [sliced.get(i) for i in range(100)] == values[33:133]
    assert packed.nbytes < sum(len(v) for v in values) / 2  # repetitive JSON packs well
    with pytest.raises(IndexError):
        packed.get(200)


def test_a_block_of_empty_strings() -> None:
    packed = PackedText(pa.array([""] * (BLOCK_ROWS + 1)))
    assert {packed.get(i) for i in range(BLOCK_ROWS + 1)} == {""}
