"""What a file's rows depend on besides its bytes: the chunk settings and the write-side code.

An index records this fingerprint per repository. When it differs (another `chunk.*`
setting, a Strata whose extraction or chunking changed), the next `strata index` reads every
file again instead of trusting their stats, so the rows are what this Strata would write.
Chunks whose text did not change keep their vectors through the embedding cache.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from pathlib import Path

from strata.config import ChunkConfig

# The packages whose code turns a file's bytes into rows (the store and the read side do not).
_WRITE_SIDE = ("index", "text")


def fingerprint(chunk: ChunkConfig) -> str:
    """A short digest of the chunk settings and the write-side sources."""
    settings = json.dumps(dataclasses.asdict(chunk), sort_keys=True)
    return hashlib.blake2b(f"{_sources()}{settings}".encode(), digest_size=8).hexdigest()


@functools.cache
def _sources() -> str:
    pkg = Path(__file__).resolve().parent.parent
    digest = hashlib.blake2b(digest_size=16)
    for sub in _WRITE_SIDE:
        for path in sorted((pkg / sub).rglob("*")):
            if path.suffix in (".py", ".scm") and "__pycache__" not in path.parts:
                digest.update(path.relative_to(pkg).as_posix().encode())
                digest.update(path.read_bytes())
    for name in ("types.py",):
        digest.update((pkg / name).read_bytes())
    return digest.hexdigest()
