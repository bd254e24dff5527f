"""A statement that reads as a doc comment's summary (pure): it opens with a verb, in the
imperative or the third person ("Parse a config file", "Returns the value for the key",
"Applies the patch"), as the summaries of most languages' doc comments do. Such a
statement says what some code does; the hybrid search weighs its lists for that
(`ranking.DESCRIPTION_WEIGHTS`) and moves its vector at most half way through the query
adapter (`ranking.adapter_weight`)."""

from __future__ import annotations

__all__ = ["reads_as_summary"]

# The verbs doc comments open with, in their base form (English, not any one project's).
_VERB_LIST = """
    accept acquire add allocate allow append apply assign attach bind build calculate call
    cancel check clear close collect combine compare compile compute configure construct
    convert copy count create declare decode define delete deserialize destroy detach determine
    disable dispatch dispose emit enable encode ensure escape evaluate execute expand extract
    fetch filter find flatten flush format free gather generate get group handle initialise
    initialize insert install interpret invoke iterate join load lock log look lookup make
    map mark match merge move normalise normalize notify open parse pop print process
    provide push raise read receive reduce register reject release remove render replace
    represent reset resolve retrieve return run sanitize save schedule search send serialize
    set show sort split start stop store strip take test throw toggle transform traverse trim
    unbind unescape unlock update use validate visit wait walk wrap write yield
"""
VERBS = frozenset(_VERB_LIST.split())
_MIN_WORDS = 3


def reads_as_summary(sentence: str) -> bool:
    """True when `sentence` (three words or more) opens with one of `VERBS`, as it is or in
    the third person (`returns`, `matches`, `applies`)."""
    words = sentence.split()
    if len(words) < _MIN_WORDS or not words[0].isalpha():
        return False
    word = words[0].lower()
    third = (word[:-3] + "y",) if word.endswith("ies") else (word[:-1], word[:-2])
    return word in VERBS or (word.endswith("s") and any(base in VERBS for base in third))
