"""A second package for twelve languages (`seconds`): the `doc-`, `nl-` and `def-<lang>` sets
drawn, by the same rules, from another project than the one each language started with.

One project per language measures that project as much as the language: a ranking change
fitted, unawares, to rack's comments or Lua's C moves `nl-ruby` or `nl-c` and nothing held
out. These packages were chosen before they were measured, each a well-known library of its
language with doc comments, from the registries the machine reaches (Debian, npm): Go's
viper, Rust's itertools, Java's Capacitor for Android, Ruby's addressable, Solidity's
Uniswap v3 core, Lua's LDoc and C's zlib; then C++'s TinyXML-2, Haskell's
optparse-applicative, PHP's league/commonmark, Kotlin's Expo modules core and C#'s NUnit
framework. Their questions join the language's sets
(the report's per-repository rows keep each project apart).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.quality import extralangs, langsets, morelangs
from benchmarks.quality.model import Corpus
from benchmarks.sdists import fetch_deb, fetch_deb_source, fetch_npm

_ZLIB = "zlib-1.2.13.dfsg"
_TINYXML2 = "tinyxml2-9.0.0"
# zlib's library sources at the top of its tree (not `contrib/`, `examples/` or `test/`).
_ZLIB_FILES = (
    *("adler32.c", "compress.c", "crc32.c", "deflate.c", "gzclose.c", "gzlib.c", "gzread.c"),
    *("gzwrite.c", "infback.c", "inffast.c", "inflate.c", "inftrees.c", "trees.c", "uncompr.c"),
    *("zutil.c", "deflate.h", "inflate.h", "zlib.h", "zutil.h", "gzguts.h"),
)


@dataclass(frozen=True, slots=True)
class Second:
    """A package and the `build` of the family whose rules draw its sets."""

    build: Callable[[Any, int, int, int], Corpus]
    package: Any

    def fetch(self) -> Path:
        """The package's unpacked sources."""
        path: Path = self.package.fetch()
        return path


PACKAGES = (
    Second(
        langsets.build,
        langsets.Package(
            langsets.GO,
            "viper",
            lambda: fetch_deb("golang-github-spf13-viper-dev", "1.10.1-1"),
            ("usr/share/gocode/src/github.com/spf13/viper",),
        ),
    ),
    Second(
        langsets.build,
        langsets.Package(
            langsets.RUST,
            "itertools",
            lambda: fetch_deb("librust-itertools-dev", "0.10.3-1"),
            ("usr/share/cargo/registry/itertools-0.10.3/src",),
        ),
    ),
    Second(
        langsets.build,
        langsets.Package(
            langsets.JAVA,
            "capacitor-android",
            lambda: fetch_npm("@capacitor/android", "5.7.0"),
            ("capacitor/src/main/java",),
        ),
    ),
    Second(
        extralangs.build,
        morelangs.Package(
            extralangs.RUBY,
            "addressable",
            lambda: fetch_deb("ruby-addressable", "2.8.1-1"),
            ("usr/share/rubygems-integration/all/gems/addressable-2.8.1/lib",),
        ),
    ),
    Second(
        morelangs.build,
        morelangs.Package(
            morelangs.SOLIDITY,
            "uniswap-v3-core",
            lambda: fetch_npm("@uniswap/v3-core", "1.0.1"),
            ("contracts",),
        ),
    ),
    Second(
        morelangs.build,
        morelangs.Package(
            morelangs.LUA,
            "ldoc",
            lambda: fetch_deb("lua-ldoc", "1.4.6-2"),
            ("usr/share/lua/5.1/ldoc",),
        ),
    ),
    Second(
        morelangs.build,
        morelangs.Package(
            morelangs.C,
            "zlib",
            lambda: fetch_deb_source("zlib", "1:1.2.13.dfsg-1"),
            tuple(f"{_ZLIB}/{name}" for name in _ZLIB_FILES),
        ),
    ),
    Second(
        morelangs.build,
        morelangs.Package(
            morelangs.CPP,
            "tinyxml2",
            lambda: fetch_deb_source("tinyxml2", "9.0.0+dfsg-3.1"),
            (f"{_TINYXML2}/tinyxml2.h", f"{_TINYXML2}/tinyxml2.cpp"),
        ),
    ),
    Second(
        morelangs.build,
        morelangs.Package(
            morelangs.HASKELL,
            "optparse-applicative",
            lambda: fetch_deb_source("haskell-optparse-applicative", "0.16.1.0-1"),
            ("optparse-applicative-0.16.1.0/src",),
        ),
    ),
    Second(
        extralangs.build,
        morelangs.Package(
            extralangs.PHP,
            "commonmark",
            lambda: fetch_deb("php-league-commonmark", "2.3.9-1+deb12u1"),
            ("usr/share/php/League/CommonMark",),
        ),
    ),
    Second(
        extralangs.build,
        morelangs.Package(
            extralangs.KOTLIN,
            "expo-modules-core",
            lambda: fetch_npm("expo-modules-core", "1.11.13"),
            ("android/src/main/java",),
        ),
    ),
    Second(
        extralangs.build,
        morelangs.Package(
            extralangs.CSHARP,
            "nunit",
            lambda: fetch_deb_source("nunit", "2.6.4+dfsg-1.1"),
            ("nunit-2.6.4/src/NUnitFramework/framework",),
        ),
    ),
)


def build(second: Second, per_package: int, names_per_package: int, seed: int) -> Corpus:
    """Draw a second package's sets by its family's rules."""
    return second.build(second.package, per_package, names_per_package, seed)
