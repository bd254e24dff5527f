"""The language set groups of the quality benchmark, each a `build` and its packages: Go,
Rust, Java and JavaScript (`langs`); Lua, Solidity, Zig, C, C++ and Haskell (`newlangs`);
Ruby, PHP, C#, Kotlin, Scala and Swift (`extralangs`); Elixir and Bash (`elixirbash`); Perl
(`perl`); a second project for Go, Rust, Java, Ruby, Solidity, Lua, C, C++, Haskell, PHP,
Kotlin and C# (`seconds`). Each
package gives the `doc-`, `nl-` and `def-<lang>` sets (`langsets.draw`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.quality import elixirbash, extralangs, langsets, morelangs, perl, seconds
from benchmarks.quality.model import Corpus

Build = Callable[[Any, int, int, int], Corpus]  # (package, doc comments, names, seed)

LANGUAGE_FAMILIES: dict[str, tuple[Build, Sequence[Any]]] = {
    "langs": (langsets.build, langsets.PACKAGES),
    "newlangs": (morelangs.build, morelangs.PACKAGES),
    "extralangs": (extralangs.build, extralangs.PACKAGES),
    "elixirbash": (elixirbash.build, elixirbash.PACKAGES),
    "perl": (perl.build, perl.PACKAGES),
    "seconds": (seconds.build, seconds.PACKAGES),
}
