"""Typo-tolerant name matching: edit distance and a bigram index (identifiers are split by
`strata.text.tokens.split_identifier`, as the lexical index splits them)."""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable

__all__ = ["NameIndex", "edit_distance", "fold", "max_typos"]


def fold(name: str) -> str:
    """The comparison key of an identifier: `Retry_Policy` -> `retrypolicy`."""
    return name.casefold().replace("_", "").replace("-", "")


def max_typos(text: str) -> int:
    """How many edits a query of this length may carry and still be the same name."""
    n = len(text)
    return 0 if n < 3 else 1 if n <= 5 else 2


def edit_distance(a: str, b: str, limit: int) -> int:
    """Damerau-Levenshtein distance (optimal string alignment), or `limit + 1` beyond `limit`.

    Bit-parallel (Hyyrö 2003): one pass over `b` with `a`'s columns packed in an int.
    """
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    if not a or not b:
        return max(len(a), len(b))
    masks: dict[str, int] = {}
    for i, ch in enumerate(a):
        masks[ch] = masks.get(ch, 0) | (1 << i)
    full, top = (1 << len(a)) - 1, 1 << (len(a) - 1)
    vp, vn, d0, prev_pm, dist = full, 0, 0, 0, len(a)
    for ch in b:
        pm = masks.get(ch, 0)
        tr = (((~d0 & full) & pm) << 1) & prev_pm
        d0 = ((((pm & vp) + vp) & full) ^ vp) | pm | vn | tr
        hp = vn | (~(d0 | vp) & full)
        hn = d0 & vp
        dist += (hp & top != 0) - (hn & top != 0)
        hp = ((hp << 1) | 1) & full
        hn = (hn << 1) & full
        vp = hn | (~(d0 | hp) & full)
        vn = hp & d0
        prev_pm = pm
    return dist if dist <= limit else limit + 1


def _grams(key: str) -> set[str]:
    padded = f"^{key}$"
    return {padded[i : i + 2] for i in range(len(padded) - 1)}


class NameIndex:
    """Folded keys with a bigram index, so a typo search looks at a few candidates, not all."""

    def __init__(self, keys: Iterable[str]) -> None:
        self.keys: list[str] = sorted(set(keys))
        self._postings: dict[str, list[int]] = {}
        for i, key in enumerate(self.keys):
            for gram in _grams(key):
                self._postings.setdefault(gram, []).append(i)

    def _shared(self, key: str) -> Counter[int]:
        counts: Counter[int] = Counter()
        for gram in _grams(key):
            counts.update(self._postings.get(gram, ()))
        return counts

    def within(self, key: str, limit: int) -> list[tuple[str, int]]:
        """Keys at most `limit` edits from `key`, with their distance, nearest first."""
        if limit <= 0:
            return []
        # One edit changes at most 3 bigrams (a transposition), so fewer shared is too far.
        need = len(_grams(key)) - 3 * limit
        found = []
        for i, shared in self._shared(key).items():
            cand = self.keys[i]
            if shared >= need and abs(len(cand) - len(key)) <= limit:
                dist = edit_distance(key, cand, limit)
                if dist <= limit:
                    found.append((cand, dist))
        return sorted(found, key=lambda kd: (kd[1], kd[0]))

    def closest(self, key: str, n: int = 3, cutoff: float = 0.5) -> list[str]:
        """The `n` keys most like `key` by difflib ratio, for a "did you mean" line."""
        shared = self._shared(key).most_common(200)
        pool = [self.keys[i] for i, _ in shared]
        return difflib.get_close_matches(key, pool, n=n, cutoff=cutoff)
