"""The benchmarks of names and questions written wrong or in words: the same forms every run."""

from __future__ import annotations

from pathlib import Path

from benchmarks.quality.inwords import in_words
from benchmarks.quality.misspelt import PHRASINGS, TYPOS, _forms, _words
from benchmarks.quality.typos import misspelt


def test_each_typo_is_one_edit_inside_the_name_and_the_same_every_run() -> None:
    name = "parse_header"
    forms = dict(_forms(name, set()))
    assert forms == dict(_forms(name, set()))  # a fixed place per name, not a random one
    assert set(forms) == {*TYPOS, "unknown"}
    assert forms["the last letter cut"] == "parse_heade"
    assert forms["unknown"] == "redaeh_esrap"
    for form in ("swapped letters", "a letter dropped", "a letter doubled"):
        wrong = forms[form]
        assert wrong != name and wrong[0] == name[0] and wrong[-1] == name[-1]
    assert sorted(forms["swapped letters"]) == sorted(name)
    assert len(forms["a letter dropped"]) == len(name) - 1
    assert len(forms["a letter doubled"]) == len(name) + 1
    assert all(p.count("{}") == 1 for p in PHRASINGS)


def test_a_typo_the_corpus_writes_is_another_name_and_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "lib.py").write_text("def load_all():\n    load_al = 1\n", encoding="utf-8")
    known = _words(tmp_path)
    assert {"load_all", "load_al"} <= known
    assert "the last letter cut" not in dict(_forms("load_all", known))


def test_a_question_gets_one_long_word_misspelt_the_same_way_every_run() -> None:
    question = "Returns the complete FlagSet that applies to this command."
    wrong = misspelt(question)
    assert wrong is not None and wrong == misspelt(question)
    changed = [(a, b) for a, b in zip(question.split(), wrong.split(), strict=True) if a != b]
    [(right, typo)] = changed
    assert len(right) >= 6 and right.islower() and sorted(right) == sorted(typo)
    assert (right[0], right[-1]) == (typo[0], typo[-1])
    assert misspelt("Is it so, or not?") is None  # no word of six letters
    assert misspelt("It should be done before.") is None  # only common words


def test_a_name_is_said_in_its_parts_when_they_are_words() -> None:
    assert in_words("get_template") == "get template"
    assert in_words("Loaders.FileSystemLoader") == "file system loader"
    assert in_words("parseArgs") == "parse args"
    assert in_words("template") == ""  # one part: the plain-word forms' to ask
    assert in_words("toInt52") == ""  # a number is no word
    assert in_words("get_the_value") == ""  # a stop word
    assert in_words("a_b_c_d_e") == ""  # five parts
