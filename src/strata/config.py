"""The one frozen configuration: defaults < user file < project file < environment < flags.

Every key is declared once in `KEYS` (type, default, help); `load_config` layers the
sources and records where each effective value came from (`strata config` prints it).
Environment variables are `STRATA_<SECTION>_<KEY>`, e.g. `STRATA_EMBED_PROVIDER=none`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from strata.errors import ConfigError


@dataclass(frozen=True, slots=True)
class Key:
    """One configuration key: its type, default and a one-line help."""

    type: type
    default: Any
    help: str


KEYS: dict[str, Key] = {
    "index.max_file_bytes": Key(int, 10 * 1024 * 1024, "files larger than this are skipped"),
    "index.exclude": Key(list, [], "extra gitignore-style patterns to leave out"),
    "index.include": Key(
        list, [], "gitignore-style patterns bringing back dot-files, denied or ignored paths"
    ),
    "index.respect_gitignore": Key(bool, True, "honour .gitignore files at every level"),
    "index.follow_symlinks": Key(bool, True, "follow symlinks that stay inside the root"),
    "index.workers": Key(int, 0, "processes for extraction and chunking (0 = one per core)"),
    "index.commit_rows": Key(int, 4000, "rows written per atomic store commit"),
    "chunk.max_lines": Key(int, 80, "largest chunk, in lines"),
    "chunk.max_chars": Key(int, 3000, "largest chunk, in characters"),
    "chunk.window_lines": Key(int, 40, "lines per window for text without structure"),
    "chunk.overlap_lines": Key(int, 5, "lines shared by consecutive windows"),
    "embed.provider": Key(str, "local", "local | ollama | openai | none"),
    "embed.model": Key(str, "", "model name (empty = the provider's default)"),
    "embed.base_url": Key(str, "", "server URL for ollama/openai (empty = the provider's default)"),
    "embed.api_key_env": Key(str, "OPENAI_API_KEY", "environment variable holding the API key"),
    "embed.batch_size": Key(int, 64, "texts per embedding call"),
    "embed.timeout": Key(
        float, 60.0, "seconds one embedding request may take; with its retries a call ends in 2x"
    ),
    "embed.retries": Key(int, 3, "retries (with backoff) of a failed embedding call"),
    "embed.precision": Key(str, "auto", "local model precision: auto | fp32 | bf16"),
    "store.uri": Key(str, "", "store URI (empty = lancedb inside the index directory)"),
    "store.branch": Key(
        str,
        "",
        "the branch a run indexes and reads (empty = the checkout's branch once the index "
        "tracks branches: docs/scale.md)",
    ),
    "search.k": Key(int, 10, "results returned by default"),
    "search.mode": Key(str, "hybrid", "hybrid | lexical | semantic"),
    "search.rrf_k": Key(
        int,
        5,
        "reciprocal rank fusion constant; a question's is twice it (measured: docs/benchmarks.md)",
    ),
    "search.candidates": Key(
        int,
        50,
        "candidates fetched from each retriever before fusion (measured: docs/benchmarks.md)",
    ),
    "search.include_tests": Key(
        bool, False, "rank test files like other files (False = rank them lower)"
    ),
    "search.fair_kinds": Key(
        bool,
        True,
        "in hybrid search, rank code and docs each in its own list before fusion, so the "
        "best of each kind competes at the top (measured: docs/benchmarks.md)",
    ),
    "search.kind_floor": Key(
        bool,
        False,
        "in hybrid search over code and docs, read each retriever 3x deeper for the kind "
        "the other crowds out of its first candidates, up to half the pool (off by default: "
        "docs questions Recall@10 +.035, MRR@10 -.005; docs/benchmarks.md)",
    ),
    "search.path_boost": Key(
        float,
        0.0,
        "lift chunks whose file or folder name holds a sentence query's words, in rank-1 "
        "units (0 = off; measured on Java and TypeScript +.03 MRR, JavaScript -.01); a topic "
        "or a question about the code gets at least 1.0",
    ),
    "search.feedback": Key(
        float,
        0.0,
        "weight of a second BM25 list for sentence queries in hybrid search: the query's "
        "words plus the code names its first hits share (0 = off; measured: "
        "docs/benchmarks.md)",
    ),
    "search.adapter": Key(
        float,
        0.7,
        "how far a query's vector moves through the index's query adapter, fitted at "
        "each index run on the project's documented code and its doc sections, before it "
        "is compared with code and docs (a question's is not moved, one that reads as a "
        "doc comment's summary at most 0.5) "
        "(0 = off, 1 = all the way; measured: docs/benchmarks.md)",
    ),
    "doctor.keep_backups": Key(int, 3, "backups `doctor --repair` keeps (older ones removed)"),
    # `strata ask`: the local LLM that answers from the retrieved hits.
    "llm.provider": Key(str, "ollama", "ollama | openai | none"),
    "llm.base_url": Key(str, "", "server URL (empty = the provider's default)"),
    "llm.model": Key(str, "", "model name (empty = the provider's default)"),
    "llm.api_key_env": Key(str, "OPENAI_API_KEY", "environment variable holding the API key"),
    "llm.timeout": Key(float, 60.0, "seconds the LLM server may stay silent before giving up"),
    "llm.max_context_tokens": Key(int, 3000, "token budget of the retrieved context in a prompt"),
    "llm.temperature": Key(float, 0.1, "sampling temperature of the answer"),
}

CHOICES: dict[str, tuple[str, ...]] = {
    "embed.provider": ("local", "ollama", "openai", "none"),
    "embed.precision": ("auto", "fp32", "bf16"),
    "search.mode": ("hybrid", "lexical", "semantic"),
    "llm.provider": ("ollama", "openai", "none"),
}


@dataclass(frozen=True, slots=True)
class IndexConfig:
    max_file_bytes: int
    exclude: tuple[str, ...]
    include: tuple[str, ...]
    respect_gitignore: bool
    follow_symlinks: bool
    workers: int
    commit_rows: int


@dataclass(frozen=True, slots=True)
class ChunkConfig:
    max_lines: int
    max_chars: int
    window_lines: int
    overlap_lines: int


@dataclass(frozen=True, slots=True)
class EmbedConfig:
    provider: str
    model: str
    base_url: str
    api_key_env: str
    batch_size: int
    timeout: float
    retries: int
    precision: str


@dataclass(frozen=True, slots=True)
class StoreConfig:
    uri: str
    branch: str


@dataclass(frozen=True, slots=True)
class SearchConfig:
    k: int
    mode: str
    rrf_k: int
    candidates: int
    include_tests: bool
    fair_kinds: bool = True
    kind_floor: bool = False
    path_boost: float = 0.0
    feedback: float = 0.0
    adapter: float = 0.7


@dataclass(frozen=True, slots=True)
class DoctorConfig:
    keep_backups: int


@dataclass(frozen=True, slots=True)
class LlmConfig:
    provider: str
    base_url: str
    model: str
    api_key_env: str
    timeout: float
    max_context_tokens: int
    temperature: float


@dataclass(frozen=True, slots=True)
class Config:
    """The effective configuration; `sources` says where each dotted key came from."""

    index: IndexConfig
    chunk: ChunkConfig
    embed: EmbedConfig
    store: StoreConfig
    search: SearchConfig
    doctor: DoctorConfig
    llm: LlmConfig
    sources: Mapping[str, str] = field(default_factory=dict, compare=False)

    def value(self, dotted: str) -> Any:
        """The effective value of a dotted key such as `embed.model`."""
        section, name = dotted.split(".", 1)
        return getattr(getattr(self, section), name)

    def with_values(self, values: Mapping[str, Any], source: str = "flag") -> Config:
        """A copy with some keys overridden (used by flags and tests)."""
        flat = {k: self.value(k) for k in KEYS}
        srcs = dict(self.sources)
        for k, v in values.items():
            flat[k] = _coerce(k, v, source)
            srcs[k] = source
        return _build(flat, srcs)


def user_config_path() -> Path:
    """`$XDG_CONFIG_HOME/strata/config.yaml` (default `~/.config/strata/config.yaml`)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "strata" / "config.yaml"


def config_files(project_dir: Path | None = None) -> list[Path]:
    """The files `load_config` reads, lowest first: the user's, then the index's own."""
    own = [project_dir / "config.yaml"] if project_dir is not None else []
    return [user_config_path(), *own]


def load_config(
    project_dir: Path | None = None,
    flags: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
) -> Config:
    """Build the effective config from every layer, lowest first.

    Args:
        project_dir: the index directory (`<root>/.strata`) whose `config.yaml` applies.
        flags: dotted keys set on the command line (None values are ignored).
        env: the environment to read `STRATA_*` from (default `os.environ`).
    """
    flat: dict[str, Any] = {k: spec.default for k, spec in KEYS.items()}
    sources = dict.fromkeys(KEYS, "default")
    layers = [(str(path), _read_yaml(path)) for path in config_files(project_dir)]
    layers.append(("env", _from_env(os.environ if env is None else env)))
    layers.append(("flag", {k: v for k, v in (flags or {}).items() if v is not None}))
    for source, values in layers:
        for key, raw in values.items():
            if key not in KEYS:
                raise ConfigError(f"unknown config key {key!r} in {source}", hint=_known())
            flat[key] = _coerce(key, raw, source)
            sources[key] = source
    return _build(flat, sources)


def _build(flat: Mapping[str, Any], sources: Mapping[str, str]) -> Config:
    def section(name: str) -> dict[str, Any]:
        prefix = name + "."
        return {
            k[len(prefix) :]: (tuple(v) if isinstance(v, list) else v)
            for k, v in flat.items()
            if k.startswith(prefix)
        }

    return Config(
        index=IndexConfig(**section("index")),
        chunk=ChunkConfig(**section("chunk")),
        embed=EmbedConfig(**section("embed")),
        store=StoreConfig(**section("store")),
        search=SearchConfig(**section("search")),
        doctor=DoctorConfig(**section("doctor")),
        llm=LlmConfig(**section("llm")),
        sources=dict(sources),
    )


def _read_yaml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    import yaml  # only when there is a file: every worker process imports this module

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path} must hold a mapping of sections")
    flat: dict[str, Any] = {}
    for section, values in data.items():
        if not isinstance(values, dict):
            raise ConfigError(f"{path}: section {section!r} must be a mapping")
        for name, value in values.items():
            flat[f"{section}.{name}"] = value
    return flat


# STRATA_* variables that are not config keys: read by the CLI and the launcher.
NOT_KEYS = frozenset({"STRATA_INDEX_DIR", "STRATA_LOG", "STRATA_NO_SERVER", "STRATA_SERVE_TOKEN"})


def _from_env(env: Mapping[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in env.items():
        if not name.startswith("STRATA_") or name in NOT_KEYS:
            continue
        section, _, key = name[len("STRATA_") :].lower().partition("_")
        dotted = f"{section}.{key}"
        if dotted not in KEYS:
            raise ConfigError(f"unknown config variable {name}", hint=_known())
        out[dotted] = value
    return out


def _coerce(key: str, raw: Any, source: str) -> Any:
    spec = KEYS[key]
    try:
        value: Any
        if spec.type is bool and isinstance(raw, str):
            if raw.lower() not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                raise ValueError(raw)
            value = raw.lower() in ("1", "true", "yes", "on")
        elif spec.type is list:
            if isinstance(raw, str):
                value = [p.strip() for p in raw.split(",") if p.strip()]
            elif isinstance(raw, list | tuple):
                value = [str(p) for p in raw]
            else:
                raise ValueError(raw)
        elif spec.type is bool and not isinstance(raw, bool):
            raise ValueError(raw)
        else:
            value = spec.type(raw)
    except (TypeError, ValueError) as exc:
        raise ConfigError(
            f"{key} = {raw!r} (from {source}) is not a valid {spec.type.__name__}"
        ) from exc
    if key in CHOICES and value not in CHOICES[key]:
        raise ConfigError(f"{key} = {value!r} (from {source}); choose one of {CHOICES[key]}")
    if spec.type in (int, float) and value < 0:
        raise ConfigError(f"{key} = {value!r} (from {source}) must not be negative")
    return value


def _known() -> str:
    return "known keys: " + ", ".join(KEYS)
