"""How close `strata analyze`'s sampled chunk estimate comes to chunking every file, and what
each costs, on real sdists from PyPI (fetched once into benchmarks/.cache).

.venv/bin/python -m benchmarks.analyze_sample --sample 100
"""

from __future__ import annotations

import argparse
import json
import logging
import time

from benchmarks.sdists import fetch_sdist
from strata.engine import analyze as analysis

log = logging.getLogger("benchmarks.analyze_sample")
SDISTS = (("fastapi", "0.165.0"), ("click", "8.1.3"), ("flask", "3.1.3"))


def main() -> None:
    """Analyse each sdist twice: every file chunked, then an even sample of `--sample`."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sample", type=int, default=100)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    rows = []
    for name, version in SDISTS:
        root = fetch_sdist(name, version)
        start = time.perf_counter()
        full = analysis.analyze(root)
        full_s = time.perf_counter() - start
        analysis.SAMPLE_ALL_UP_TO, analysis.SAMPLE_SIZE = 0, args.sample
        start = time.perf_counter()
        part = analysis.analyze(root)
        part_s = time.perf_counter() - start
        analysis.SAMPLE_ALL_UP_TO, analysis.SAMPLE_SIZE = 2000, 500
        err = (part.expected_chunks - full.expected_chunks) / max(1, full.expected_chunks)
        rows.append(
            {
                "sdist": f"{name}-{version}",
                "files": full.files,
                "chunks_all": full.expected_chunks,
                "all_s": round(full_s, 2),
                "sampled_files": part.chunked_files,
                "chunks_sampled": part.expected_chunks,
                "sampled_s": round(part_s, 2),
                "error_pct": round(100 * err, 1),
                "suggestions": [(s.key, s.value) for s in full.suggestions],
            }
        )
        log.info("%s", json.dumps(rows[-1]))


if __name__ == "__main__":
    main()
