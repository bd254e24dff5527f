"""Embedder speed benchmark: load time, chunks/s, batch-size sweep, peak RSS, bf16 vs fp32.

Run `python -m benchmarks.embedders` (add `--distill` to build `minilm-static` first).
Each measurement runs in its own subprocess so that peak RSS belongs to one model.
The corpus is ~1,000 real code chunks: 40-line windows of the installed `rich` and
`click` sources. Retrieval quality is another harness's job; it builds each embedder
with `build_embedder(name)`.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from strata.config import load_config
from strata.embedding import LOCAL_MODELS, Embedder, make_embedder

log = logging.getLogger(__name__)

RESULTS = Path(__file__).resolve().parent / "results" / "embedders.json"
WINDOW = 40
SWEEP = (8, 16, 32, 64, 128)
SWEEP_CHUNKS = 256
DISTILL_SPEC = "model2vec[distill]>=0.6,<0.11"
SAMPLES = ["def parse(text): return json.loads(text)", "Render a table in the terminal", ""]


def build_embedder(name: str, precision: str = "auto", batch_size: int = 64) -> Embedder:
    """A local embedder by model name (see `LOCAL_MODELS`), as `strata` would build it."""
    base = load_config(env={}).embed
    cfg = dataclasses.replace(
        base, provider="local", model=name, precision=precision, batch_size=batch_size
    )
    return make_embedder(cfg)


def code_chunks(limit: int = 1000) -> list[str]:
    """Up to `limit` non-blank 40-line windows of the installed rich and click sources."""
    import click
    import rich

    chunks: list[str] = []
    for package in (rich, click):
        for path in sorted(Path(str(package.__file__)).parent.rglob("*.py")):
            lines = path.read_text(encoding="utf-8").splitlines()
            for start in range(0, len(lines), WINDOW):
                text = "\n".join(lines[start : start + WINDOW])
                if text.strip():
                    chunks.append(text)
    return chunks[:limit]


def measure(model: str, precision: str, batch_size: int, n_chunks: int) -> dict[str, Any]:
    """Load one embedder and time it on `n_chunks` chunks (meant for a fresh process)."""
    texts = code_chunks(n_chunks)
    start = time.perf_counter()
    embedder = build_embedder(model, precision, batch_size)
    embedder.embed_documents(SAMPLES[:1])  # first call pays one-time setup
    load_s = time.perf_counter() - start
    start = time.perf_counter()
    vectors = embedder.embed_documents(texts)
    elapsed = time.perf_counter() - start
    return {
        "model": model,
        "precision": getattr(embedder, "precision", "-"),
        "batch_size": batch_size,
        "dim": embedder.dim,
        "chunks": len(vectors),
        "load_s": round(load_s, 2),
        "chunks_per_s": round(len(vectors) / elapsed, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


def measure_in_subprocess(model: str, precision: str, batch: int, n: int) -> dict[str, Any]:
    """`measure` in a child interpreter, so load time and RSS start from nothing."""
    cmd = [sys.executable, "-m", "benchmarks.embedders", "--measure", model, precision]
    proc = subprocess.run([*cmd, str(batch), str(n)], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        return {"model": model, "precision": precision, "batch_size": batch, "error": _tail(proc)}
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def distill_static(dest: Path, pca_dims: int = 256) -> None:
    """Distil `minilm-static` from the packaged MiniLM with model2vec, in a throwaway venv.

    model2vec[distill] pins transformers<5.4, which the project's venv must not get, so
    it goes into a temporary venv that sees the project's packages (torch, the model
    wheel) through a `.pth` file but shadows them with its own transformers. It also
    saves model2vec's own vectors for `SAMPLES`, so `check_static` can compare.
    """
    from strata.embedding.local import packaged_model_dir

    with tempfile.TemporaryDirectory(prefix="strata-distill-") as tmp:
        venv = Path(tmp) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        site = next((venv / "lib").glob("python3*/site-packages"))
        parent_site = Path(next(p for p in sys.path if p.endswith("site-packages")))
        (site / "strata-parent.pth").write_text(f"{parent_site}\n", encoding="utf-8")
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
        subprocess.run([*pip, DISTILL_SPEC], check=True)
        script = _DISTILL_SCRIPT.format(
            src=str(packaged_model_dir()), dest=str(dest), dims=pca_dims, samples=SAMPLES
        )
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
        subprocess.run([str(venv / "bin" / "python"), "-c", script], check=True, env=env)


_DISTILL_SCRIPT = """
import numpy as np
from model2vec.distill import distill
model = distill(model_name={src!r}, pca_dims={dims})
model.save_pretrained({dest!r})
np.save({dest!r} + "/reference.npy", model.encode({samples!r}))
"""


def check_static(path: Path) -> float:
    """Least cosine between Strata's static vectors and model2vec's own for `SAMPLES`."""
    import numpy as np

    from strata.embedding.static import StaticEmbedder

    ref = np.nan_to_num(np.load(path / "reference.npy"))
    ours = StaticEmbedder.load(path).embed_documents(SAMPLES)
    ref = ref / np.clip(np.linalg.norm(ref, axis=1, keepdims=True), 1e-12, None)
    keep = np.linalg.norm(ours, axis=1) > 0
    return float((ours[keep] * ref[keep]).sum(axis=1).min())


def run_all(n_chunks: int) -> list[dict[str, Any]]:
    """Every measurement of the report, each in its own subprocess."""
    plan: list[tuple[str, str, int, int]] = [
        ("all-MiniLM-L6-v2", "fp32", 64, n_chunks),
        ("all-MiniLM-L6-v2", "bf16", 64, n_chunks),
        ("minilm-int8", "auto", 64, n_chunks),
        ("minilm-static", "auto", 64, n_chunks),
    ]
    plan += [("all-MiniLM-L6-v2", "auto", b, SWEEP_CHUNKS) for b in SWEEP]
    rows = []
    for model, precision, batch, n in plan:
        log.info("measuring %s %s batch=%d on %d chunks", model, precision, batch, n)
        rows.append(measure_in_subprocess(model, precision, batch, n))
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    """The results as one Markdown table."""
    cols = ["model", "precision", "batch_size", "chunks", "load_s", "chunks_per_s", "peak_rss_mb"]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in rows:
        if "error" in row:
            lines.append(f"| {row['model']} | {row['precision']} | error: {row['error']} |")
            continue
        lines.append("| " + " | ".join(str(row[c]) for c in cols) + " |")
    return "\n".join(lines)


def _tail(proc: subprocess.CompletedProcess[str]) -> str:
    lines = (proc.stderr or proc.stdout).strip().splitlines()
    return lines[-1] if lines else f"exit {proc.returncode}"


def main(argv: list[str] | None = None) -> int:
    """Command line: the full report, `--distill`, or one `--measure` (internal)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measure", nargs=4, metavar=("MODEL", "PRECISION", "BATCH", "N"))
    parser.add_argument("--distill", action="store_true", help="build minilm-static first")
    parser.add_argument("--chunks", type=int, default=1000)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    if args.measure:
        model, precision, batch, n = args.measure
        sys.stdout.write(json.dumps(measure(model, precision, int(batch), int(n))) + "\n")
        return 0
    from strata.embedding.static import static_model_dir

    if args.distill:
        distill_static(static_model_dir())
        log.info("static vs model2vec: least cosine %.5f", check_static(static_model_dir()))
    rows = run_all(args.chunks)
    table = markdown(rows)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"models": LOCAL_MODELS, "rows": rows}, indent=2) + "\n")
    sys.stdout.write(table + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
