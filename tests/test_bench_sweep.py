"""The quality sweep's `--constant`: a module's constant, or one entry of a mapping, set for
the values of a sweep and put back after."""

from __future__ import annotations

import pytest
from benchmarks.quality.sweep import constant

from strata.query import fusion, ranking


def test_constant_sets_a_module_constant_and_puts_it_back() -> None:
    before = fusion.STANDOUT_SHARE
    with constant("strata.query.fusion.STANDOUT_SHARE", 0.12):
        assert fusion.STANDOUT_SHARE == 0.12
    assert before == fusion.STANDOUT_SHARE


def test_constant_sets_one_entry_of_a_mapping() -> None:
    before = dict(ranking.SENTENCE_WEIGHTS)
    with constant("strata.query.ranking.SENTENCE_WEIGHTS[lexical]", 1.3):
        assert {**before, "lexical": 1.3} == ranking.SENTENCE_WEIGHTS
    assert dict(ranking.SENTENCE_WEIGHTS) == before


def test_constant_refuses_a_name_it_cannot_read() -> None:
    with pytest.raises(SystemExit, match=r"module\.NAME"), constant("STANDOUT_SHARE", 0.1):
        pass
