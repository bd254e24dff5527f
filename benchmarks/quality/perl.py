"""Perl sets (`perl`): the `doc-`, `nl-` and `def-<lang>` sets that `langsets` draws for the
other languages, from Perl 5.36's own modules (Debian's `perl-modules-5.36`: `Pod/`,
`Tie/` and `Math/`, whose subs carry `#` comments; 74 files, ~1,700 subs).

tree-sitter-perl cannot read much of this code (`$$`, `map {$_ => $_}`, some regexes and
here-docs turn whole files into one `ERROR` node), so the definitions do not come from a
grammar at all, let alone from Strata's tag query: a sub is a line that opens with `sub NAME`
at the first column, down to the first line that is `}` alone at the first column (the
modules' own style; a sub not closed so before the next one is left out). Its doc is the
run of `#` lines directly above it (a shebang, an Emacs or vim modeline, or CPAN's
`#-> sub ...` marker is not prose). Nothing in POD or past `__END__` is a sub.

Everything else (the fixed seed, blanking, sentence rules, sampling) is `langsets.draw`.
"""

from __future__ import annotations

import re
from pathlib import Path

from benchmarks.quality import morelangs
from benchmarks.quality.elixirbash import Spec
from benchmarks.quality.langsets import Definition
from benchmarks.quality.model import Corpus
from benchmarks.quality.morelangs import Package
from benchmarks.sdists import fetch_deb

_SUB = re.compile(r"^sub\s+([A-Za-z_]\w*)\b(?!\s*;)")
_CLOSE = re.compile(r"^\}\s*(?:#.*)?$")
_POD = re.compile(r"^=[a-zA-Z]")
_NOT_PROSE = re.compile(r"^#(?:!|->|\s*-\*-|\s*vim?:)")


PERL = Spec("perl", (".pm",))
MODULES = "usr/share/perl/5.36"

PACKAGES = (
    Package(
        PERL,
        "modules",
        lambda: fetch_deb("perl-modules-5.36", "5.36.0-7+deb12u4"),
        tuple(f"{MODULES}/{d}" for d in ("Pod", "Tie", "Math")),
    ),
)


def build(pkg: Package, per_package: int, names_per_package: int, seed: int) -> Corpus:
    """Fetch `pkg`, read its subs, and draw its sets as `langsets.draw` does."""
    return morelangs.build(pkg, per_package, names_per_package, seed, walk=definitions)


def definitions(spec: Spec, root: Path, rel: str) -> list[Definition]:
    """Every sub of one file opened and closed at the first column, with its `#` doc."""
    lines = (root / rel).read_text(encoding="utf-8", errors="replace").split("\n")
    out: list[Definition] = []
    open_at: tuple[int, str] | None = None
    pod = False
    for number, line in enumerate(lines, 1):
        if line.startswith(("__END__", "__DATA__")):
            break
        if _POD.match(line):  # POD from a command paragraph (`=head1`) down to `=cut`
            pod = not line.startswith("=cut")
            continue
        if pod:
            continue
        opened = _SUB.match(line)
        if opened is not None and "}" in line.split("#", 1)[0]:  # `sub f { 1 }`: one line
            out.append(_definition(rel, lines, opened.group(1), number, number))
            open_at = None
        elif opened is not None:
            open_at = (number, opened.group(1))  # an unclosed sub before it is left out
        elif open_at is not None and _CLOSE.match(line):
            out.append(_definition(rel, lines, open_at[1], open_at[0], number))
            open_at = None
    return out


def _definition(rel: str, lines: list[str], name: str, first: int, last: int) -> Definition:
    start = first
    while start > 1 and lines[start - 2].startswith("#"):
        start -= 1
    while start < first and _NOT_PROSE.match(lines[start - 1]):
        start += 1
    if start == first:
        return Definition(rel, name, first, last, None, "")
    prose = "\n".join(re.sub(r"^#+\s?", "", lines[i - 1]).strip() for i in range(start, first))
    return Definition(rel, name, first, last, (start, first - 1), prose.strip())
