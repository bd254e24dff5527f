"""Symbol queries ("where is X defined") drawn with a fixed seed from the AST.

Only public names defined exactly once in their package are drawn, so the answer is
unambiguous. Each symbol is asked in two forms: the bare name (`symbol`) and the
question "where is X defined" (`symbol-nl`). The target is the whole definition,
decorators included.
"""

from __future__ import annotations

import random
from collections import Counter

from benchmarks.quality.model import Corpus, Query, Target
from benchmarks.quality.pydefs import Definition, definitions, python_files

FORMS = {"symbol": "{name}", "symbol-nl": "where is {name} defined"}


def build(corpus: Corpus, per_package: int, seed: int) -> tuple[Query, ...]:
    """Symbol queries about an already-built Python corpus (both forms per symbol)."""
    defs = [d for rel in python_files(corpus.root) for d in definitions(corpus.root, rel)]
    rng = random.Random(f"{seed}:symbols:{corpus.name}")
    pool = eligible(defs)
    chosen = sorted(rng.sample(pool, min(per_package, len(pool))), key=lambda d: (d.path, d.start))
    return tuple(
        Query(
            id=f"{form}:{corpus.name}:{d.path}:{d.qualname}",
            set=form,
            repo=corpus.name,
            text=template.format(name=d.name),
            targets=(Target(d.path, d.start, d.end),),
        )
        for d in chosen
        for form, template in FORMS.items()
    )


def eligible(defs: list[Definition]) -> list[Definition]:
    """Public definitions whose bare name occurs once in the package, in file order."""
    counts = Counter(d.name for d in defs)
    keep = [
        d for d in defs if counts[d.name] == 1 and not d.name.startswith("_") and len(d.name) >= 3
    ]
    return sorted(keep, key=lambda d: (d.path, d.start))
