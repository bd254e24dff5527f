"""The `extralangs` benchmark's own walk of definitions and doc comments (not Strata's
queries), and the other-kinds-of-question benchmarks' shared summary."""

from __future__ import annotations

from pathlib import Path

from benchmarks.quality.askforms import form_summary
from benchmarks.quality.extralangs import CSHARP, KOTLIN, RUBY, SWIFT, Spec, definitions

CODE = Path(__file__).parent / "corpora" / "code"


def _by_name(spec: Spec, root: Path, name: str) -> dict[str, tuple[int, int, object, str]]:
    return {d.name: (d.start, d.end, d.comment, d.doc) for d in definitions(spec, root, name)}


def test_ruby_methods_classes_and_predicates_with_the_comment_above() -> None:
    defs = _by_name(RUBY, CODE, "queue.rb")
    assert defs["Queue"] == (9, 33, (8, 8), "Holds jobs in FIFO order.")
    assert defs["push"] == (15, 18, (14, 14), "Add a job to the tail.")
    assert {"full?", "create", "initialize"} <= set(defs)  # `def self.create` too
    assert defs["Jobs"][2] is None  # a file's first comment is no module's doc


def test_csharp_xml_docs_lose_their_tags_and_keep_what_they_refer_to(tmp_path: Path) -> None:
    (tmp_path / "Ledger.cs").write_text(
        "class Ledger\n{\n"
        "    /// <summary>\n"
        '    /// Makes a <see cref="T:App.Row"/> of <paramref name="n"/> cells.\n'
        "    /// </summary>\n"
        '    /// <param name="n">How many.</param>\n'
        "    public Row Make(int n) { return null; }\n"
        "}\n",
        encoding="utf-8",
    )
    assert _by_name(CSHARP, tmp_path, "Ledger.cs")["Make"][2:] == (
        (3, 6),
        "Makes a App.Row of n cells.",
    )
    assert _by_name(CSHARP, CODE, "Billing.cs")["Unit"][2:] == (
        (37, 37),
        "The currency totals are in.",
    )


def test_swift_and_kotlin_types_with_their_doc_and_no_extension() -> None:
    swift = _by_name(SWIFT, CODE, "Store.swift")
    assert swift["Store"] == (23, 40, (22, 22), "Keeps notes. Evicts the oldest first.")
    assert {"Storable", "Note", "init", "put"} <= set(swift)
    kotlin = _by_name(KOTLIN, CODE, "Repository.kt")
    assert kotlin["MemoryRepository"][2:] == ((15, 17), "Keeps users in memory. Used by tests.")


def test_a_form_summary_counts_recall_at_one_and_mrr() -> None:
    rows = [{"form": "a", "rank": 1}, {"form": "a", "rank": 2}, {"form": "b", "rank": None}]
    assert form_summary(rows) == [
        {"form": "a", "n": 2, "r_at_1": 0.5, "mrr": 0.75},
        {"form": "b", "n": 1, "r_at_1": 0.0, "mrr": 0.0},
    ]
