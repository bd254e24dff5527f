"""Doc comments left in place (`withdocs`): the `doc-<lang>` questions of every language
package, asked of an unblanked copy of its sources (`withdoc-<lang>`).

The `doc-` sets blank the comment a question is drawn from, so they measure finding code
by what it does. In a real repository the comment is there, and finding its words is easy;
what is measured here is whether the hit is the documented code itself: the target is the
definition's span without its comment, so a comment chunked apart from the code it
documents (a JSDoc block with a blank line under it, as express writes them) is a miss,
and so is a hit on another definition that mentions the same words.

Same packages, seed, sampling and sentence rules as the `doc-` sets (`langsets.draw`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from benchmarks.quality.model import Corpus, copy_files, corpus_dir


def unblanked(blanked: Corpus, src: Path) -> Corpus:
    """The `doc-` questions of a language package's corpus (`blanked`, drawn by its
    family's `build` from the sources at `src`), asked of a copy of the same files with
    every comment in place."""
    rels = sorted(p.relative_to(blanked.root).as_posix() for p in blanked.root.rglob("*"))
    root = corpus_dir(f"withdocs-{blanked.name}")
    copy_files(src, [r for r in rels if (blanked.root / r).is_file()], root)
    queries = tuple(
        replace(q, id="with" + q.id, set="with" + q.set, repo=f"withdocs-{q.repo}")
        for q in blanked.queries
        if q.set.startswith("doc-")
    )
    return Corpus(f"withdocs-{blanked.name}", root, queries)
