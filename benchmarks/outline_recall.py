"""How many of Perl's subs Strata's outline of a file finds, with and without reading again
what a parse error left unread (`strata.index.code.treesitter.recover`).

    python -m benchmarks.outline_recall [--dir usr/share/perl/5.36]

The subs are those the quality benchmark's line scan finds (`benchmarks/quality/perl.py`:
`sub NAME` and a `}` alone, both at the first column, outside POD and before `__END__`)
in every `.pm` and `.pl` file of Debian's `perl-modules-5.36`; a sub is found when the
outline has a definition of its name at its line. Also the time to outline them all and
the slowest file (`unicore/Name.pl`, 1.1 MB of data, 160k references). Prints one JSON
line per setting.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from benchmarks.quality.perl import PACKAGES, PERL, definitions
from strata.index.code.treesitter import recover, tags


def measure(root: Path, depth: int) -> dict[str, object]:
    """Subs scanned and found under `root` with recovery `depth` levels deep (0: off)."""
    saved, recover.MAX_DEPTH = recover.MAX_DEPTH, depth
    try:
        files = subs = found = 0
        slowest = (0.0, "")
        started = time.perf_counter()
        for path in sorted(p for p in root.rglob("*.p[lm]") if p.is_file()):
            rel = path.relative_to(root).as_posix()
            text = path.read_text(encoding="utf-8", errors="replace")
            began = time.perf_counter()
            outline = tags.outline(text, "perl")
            slowest = max(slowest, (time.perf_counter() - began, rel))
            wanted = definitions(PERL, root, rel)
            have = {(d.name, d.decl_line) for d in outline.definitions}
            files += 1
            subs += len(wanted)
            found += sum((w.name, w.start) in have for w in wanted)
        seconds = time.perf_counter() - started
    finally:
        recover.MAX_DEPTH = saved
    return {
        "recovery_depth": depth,
        "files": files,
        "subs": subs,
        "found": found,
        "recall": round(found / max(1, subs), 3),
        "seconds": round(seconds, 1),
        "slowest_file": slowest[1],
        "slowest_seconds": round(slowest[0], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dir", default="usr/share/perl/5.36", help="within the package")
    args = parser.parse_args()
    root = PACKAGES[0].fetch() / args.dir
    for depth in (0, recover.MAX_DEPTH):
        print(json.dumps(measure(root, depth)), flush=True)


if __name__ == "__main__":
    main()
