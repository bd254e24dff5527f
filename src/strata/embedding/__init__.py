"""Embedders: the Protocol every backend meets and the registry that picks one by name.

Backends: `local` (all-MiniLM-L6-v2 shipped inside a PyPI wheel, loaded offline; the
default), `ollama` (`/api/embed`), `openai` (any OpenAI-compatible `/v1/embeddings`)
and `none` (lexical only: no vectors at all, never fake ones).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from strata.config import Config, EmbedConfig
from strata.errors import ConfigError, EmbedderError, EmbedderMismatchError
from strata.types import Vector

log = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_MODELS",
    "DEFAULT_URLS",
    "LOCAL_MODELS",
    "RETRY_HINT",
    "Embedder",
    "configured_name",
    "first_dim",
    "known_dim",
    "make_embedder",
    "make_query_embedder",
    "models_dir",
    "normalise",
    "recorded_embedder",
]

LOCAL_MODELS: dict[str, str] = {
    "all-MiniLM-L6-v2": "sentence-transformers (torch), fp32 or bf16 autocast; the default",
    "minilm-int8": "the same model as int8 ONNX on onnxruntime (no torch at run time)",
    "minilm-static": "model2vec static model distilled from all-MiniLM-L6-v2 (fast, coarse)",
}
"""Local model names and what each one is; all load offline from installed files."""

DEFAULT_MODELS: dict[str, str] = {
    "local": "all-MiniLM-L6-v2",
    "ollama": "nomic-embed-text",
    "openai": "text-embedding-3-small",
    "none": "",
}

DEFAULT_URLS: dict[str, str] = {
    "ollama": "http://127.0.0.1:11434",
    "openai": "https://api.openai.com/v1",
}


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length float32 vectors of a fixed dimension."""

    @property
    def name(self) -> str:
        """Stable model identity recorded in the index (e.g. `local:all-MiniLM-L6-v2`)."""
        ...

    @property
    def dim(self) -> int:
        """Vector dimension; 0 for the `none` embedder."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for passages, shape (len(texts), dim), float32, L2-normalised."""
        ...

    def embed_query(self, text: str) -> Vector:
        """The vector of one search query, shape (dim,)."""
        ...


def make_embedder(cfg: EmbedConfig) -> Embedder:
    """Build the embedder that `cfg` names; heavy libraries load only here, lazily.

    Args:
        cfg: the `embed` section (provider, model, base_url, api_key_env, batch_size,
            timeout, retries, precision).

    Raises:
        ConfigError: unknown provider or local model name.
        EmbedderError: the backend's library or model files are missing.
    """
    model = cfg.model or DEFAULT_MODELS.get(cfg.provider, "")
    if cfg.provider == "none":
        from strata.embedding.none import NoEmbedder

        return NoEmbedder()
    if cfg.provider == "local":
        return _make_local(model, cfg)
    if cfg.provider in ("ollama", "openai"):
        from strata.embedding.http import make_http_embedder

        base_url = cfg.base_url or DEFAULT_URLS[cfg.provider]
        return make_http_embedder(cfg.provider, model, base_url, cfg)
    raise ConfigError(
        f"unknown embed.provider {cfg.provider!r}",
        hint="choose one of local, ollama, openai, none",
    )


def configured_name(cfg: EmbedConfig) -> str:
    """The name the configured embedder reports (`local:all-MiniLM-L6-v2`, `ollama:m`,
    `none`), known without loading a model or asking a server."""
    if cfg.provider == "none":
        return "none"
    return f"{cfg.provider}:{cfg.model or DEFAULT_MODELS.get(cfg.provider, '')}"


def recorded_embedder(cfg: Config, recorded: object) -> Config:
    """`cfg` with the embedder an index recorded (`configured_name`'s form) where neither
    `embed.provider` nor `embed.model` was chosen (both at their defaults)."""
    chosen = {cfg.sources.get(k, "default") for k in ("embed.provider", "embed.model")}
    if not isinstance(recorded, str) or not recorded or chosen != {"default"}:
        return cfg
    provider, _, model = recorded.partition(":")
    return cfg.with_values({"embed.provider": provider, "embed.model": model}, source="index")


RETRY_HINT = "start the embedding server (or fix embed.base_url), then run `strata index` again"


def first_dim(dim_of: Callable[[], int]) -> tuple[int, str | None]:
    """(width, None) from `dim_of`, or (0, why) when the embedder cannot be reached: a first
    index is then written lexically and gets its vectors once the embedder answers."""
    try:
        return dim_of(), None
    except EmbedderMismatchError:
        raise
    except EmbedderError as exc:
        log.warning("the embedder did not answer (%s): indexing lexically for now", exc.message)
        return 0, exc.message


# Local models whose width the packaged files state (the int8 twin has the same width).
_PACKAGED_WIDTH = ("all-MiniLM-L6-v2", "minilm-int8")


def known_dim(cfg: EmbedConfig) -> int | None:
    """The configured embedder's vector width when it is known without loading a model or
    asking a server (None: only the loaded embedder can tell). A first index run needs the
    width to create its table; loading torch for it would hold search back for seconds."""
    model = cfg.model or DEFAULT_MODELS.get(cfg.provider, "")
    if cfg.provider == "none":
        return 0
    if cfg.provider != "local" or model not in _PACKAGED_WIDTH:
        return None
    import json

    from strata.embedding.local import packaged_model_dir

    try:
        pooling = packaged_model_dir() / "1_Pooling" / "config.json"
        width = json.loads(pooling.read_text(encoding="utf-8"))["word_embedding_dimension"]
    except (EmbedderError, OSError, ValueError, KeyError, TypeError):
        return None
    return int(width) if isinstance(width, int) and width > 0 else None


# Same weights through a lighter route, for one query at a time: int8 ONNX loads in a
# fraction of a second and needs no torch (vectors agree with fp32 at cosine >= 0.998:
# its products in 8-bit blocks, `onnx_graph`).
QUERY_TWINS = {"all-MiniLM-L6-v2": "minilm-int8"}


def has_query_twin(cfg: EmbedConfig) -> bool:
    """True when the configured model has a lighter twin for queries (`QUERY_TWINS`)."""
    return cfg.provider == "local" and (cfg.model or DEFAULT_MODELS["local"]) in QUERY_TWINS


def make_query_embedder(cfg: EmbedConfig) -> tuple[Embedder, str]:
    """The embedder a search should use for its query, and the document embedder's name.

    For a local model with a lighter twin the twin is returned (when it is installed), so a
    one-off `strata search` does not pay for loading torch; otherwise the embedder itself.
    """
    model = cfg.model or DEFAULT_MODELS.get(cfg.provider, "")
    if has_query_twin(cfg):
        try:
            return _make_local(QUERY_TWINS[model], cfg, queries=True), f"local:{model}"
        except EmbedderError:
            log.debug("no light twin for %s; loading the model itself", model)
    emb = make_embedder(cfg)
    return emb, emb.name


def _make_local(model: str, cfg: EmbedConfig, *, queries: bool = False) -> Embedder:
    if model == "all-MiniLM-L6-v2":
        from strata.embedding.local import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder.load(model, cfg.precision, cfg.batch_size)
    if model == "minilm-int8":
        from strata.embedding.onnx import OnnxEmbedder

        return OnnxEmbedder.load(cfg.batch_size, queries=queries)
    if model == "minilm-static":
        from strata.embedding.static import StaticEmbedder

        return StaticEmbedder.load()
    raise ConfigError(
        f"unknown local embedding model {model!r}",
        hint="choose one of " + ", ".join(LOCAL_MODELS),
    )


def models_dir() -> Path:
    """Where models made on this machine live (`$XDG_CACHE_HOME/strata/models/`)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "strata" / "models"


def normalise(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length, as float32; all-zero rows stay zero."""
    out = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(out, axis=-1, keepdims=True)
    unit: np.ndarray = np.divide(out, norms, out=np.zeros_like(out), where=norms > 0)
    return unit
