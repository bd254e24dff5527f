"""The semble anchor (`benchmarks.quality.semble_anchor`): the real semble 0.7, given Strata's
model, answers a question over files on disk, its hits as the quality metrics read them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks.quality.metrics import Retrieved
from benchmarks.quality.model import Corpus, Query, Target
from benchmarks.quality.semble_anchor import (
    Model,
    semble_searcher,
    semble_with,
    table,
    wants_docs,
)

from strata.config import load_config
from strata.embedding import make_embedder
from strata.embedding.cache import EmbeddingCache

PARSER = '''def parse_duration(text):
    """Read "1h30m" as seconds."""
    hours, _, rest = text.partition("h")
    return int(hours) * 3600 + int(rest.rstrip("m")) * 60
'''
MAILER = '''class Mailer:
    def send_invoice(self, customer, amount):
        """Email the customer an invoice for the amount."""
        return self.smtp.send(customer.email, f"Invoice: {amount}")
'''


def _corpus(root: Path, targets: tuple[Target, ...] = ()) -> Corpus:
    return Corpus("tiny", root, (Query("q", "nl-python", "tiny", "question", targets),))


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Model:
    cache = EmbeddingCache(tmp_path_factory.mktemp("cache") / "embed.sqlite")
    return Model(make_embedder(load_config(env={}).embed), cache)


def test_semble_finds_the_function_a_question_describes(tmp_path: Path, model: Model) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "durations.py").write_text(PARSER, encoding="utf-8")
    (tmp_path / "pkg" / "mail.py").write_text(MAILER, encoding="utf-8")
    search = semble_searcher(_corpus(tmp_path), model)
    hits = search("send an invoice to a customer by email")
    assert hits[0] == Retrieved("pkg/mail.py", 1, 4)  # relative to the corpus, 1-based lines
    assert search("parse a duration such as 1h30m")[0].path == "pkg/durations.py"
    assert model.encode([]).shape == (0, model.dim)


def test_a_corpus_semble_reads_nothing_of_answers_nothing(tmp_path: Path, model: Model) -> None:
    (tmp_path / "complete-me").write_text("_complete() { :; }\n", encoding="utf-8")
    assert semble_searcher(_corpus(tmp_path), model)("complete") == []


def test_semble_is_given_the_model_and_left_as_it_was(model: Model) -> None:
    import semble.index.index as semble_index

    before = semble_index.load_model
    with semble_with(model) as patched:
        assert patched.load_model()[0] is model
    assert semble_index.load_model is before


def test_documents_are_indexed_when_a_question_targets_one(tmp_path: Path) -> None:
    assert wants_docs(_corpus(tmp_path, (Target("README.md", 1, 5),)))
    assert not wants_docs(_corpus(tmp_path, (Target("src/a.go", 1, 5),)))


def test_the_table_sets_semble_beside_the_last_quality_run(tmp_path: Path) -> None:
    quality = tmp_path / "quality.json"
    rows = [
        {"set": "doc-go", "repo": "all", "system": "code-aware BM25", "mrr": 0.25, "ndcg_10": 0.5},
        {"set": "doc-go", "repo": "all", "system": "strata hybrid (m)", "mrr": 0.5, "ndcg_10": 0.9},
    ]
    quality.write_text(json.dumps({"summary": rows}), encoding="utf-8")
    ours = [{"set": "doc-go", "repo": "all", "n": 3, "mrr": 0.4, "ndcg_10": 0.8}]
    assert (
        table(ours, quality).splitlines()[-1]
        == "| doc-go | 3 | 0.250 | 0.400 | 0.500 | 0.800 | 0.900 |"
    )
    assert (
        table(ours, tmp_path / "none.json").splitlines()[-1]
        == "| doc-go | 3 | - | 0.400 | - | 0.800 | - |"
    )
