"""The warm vector scan: the top k of the passages' unit vectors by cosine, exactly.

A warm query reads every vector. In float32 that is 60 MB at 39k passages, about 3 ms on
two cores, the largest part of a warm search after the query's embedding. An int8 copy of
the rows (`Int8Rows`) is a quarter of that, and onnxruntime's integer product (VNNI where
the CPU has it) reads it in a quarter of a millisecond. Its scores are within a known
bound of the float32 ones, so it tells which rows could be in the exact top k; only those
(a few hundred) are scored in float32. The hits are the flat product's, not an
approximation of them. Without onnxruntime and onnx, or for a small matrix, the float32
product.
"""

from __future__ import annotations

import functools
import logging
import math
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["INT8_ROWS", "SPLIT_ROWS", "Int8Rows", "top"]

log = logging.getLogger(__name__)

# Rows from which a vector product is split between two threads (`_product`).
SPLIT_ROWS = 8192
# Rows from which an int8 first pass is kept (below, the float32 product takes < 0.5 ms).
INT8_ROWS = 8192
# Added to every bound: the float32 roundings of both products.
_SLACK = 1e-5


def top(
    matrix: np.ndarray, int8: Int8Rows | None, query: np.ndarray, limit: int, mask: Any
) -> list[tuple[int, float]]:
    """Up to `limit` (position, cosine) pairs of the rows `mask` allows (None: every row),
    best first; `query` is a unit float32 vector."""
    if int8 is not None:
        at = int8.candidates(query, limit, mask)
        with _one_blas_thread():
            scores = matrix[at] @ query
    else:
        at = None
        scores = _product(matrix, query)
        if mask is not None:
            scores[~mask] = -np.inf
    n = min(limit, len(scores) if mask is None or at is not None else int(np.count_nonzero(mask)))
    if n <= 0:
        return []
    best = np.argpartition(scores, -n)[-n:] if n < len(scores) else np.arange(len(scores))
    best = best[np.argsort(-scores[best], kind="stable")]
    rows = best if at is None else at[best]
    pairs = zip(rows.tolist(), scores[best].tolist(), strict=True)
    return [(r, s) for r, s in pairs if math.isfinite(s)]


@dataclass(frozen=True, slots=True, eq=False)
class Int8Rows:
    """The rows as int8 (`row ≈ scale * int8 row`), with what bounds every row's error.

    For a unit query `q = q' + e` (its int8 form and the rest) and a row `r = r' + f`:
    `q.r - q'.r' = q'.f + e.r' + e.f`, so `|q.r - q'.r'| <= |q'| |f| + |e| (|r'| + |f|)`
    (Cauchy-Schwarz); `error` is the largest `|f|` of the rows, `span` the largest
    `|r'| + |f|`. The first pass runs whole in onnxruntime (the product, the rows' scales,
    the filter, the best `k`): no Python between, so it does not wait on the interpreter
    lock while the request's other thread runs Python.
    """

    session: Any  # onnxruntime: query -> the `k` best (int8 score, position), best first
    error: float
    span: float
    rows: int
    unfiltered: np.ndarray  # the filter input that filters nothing (zeros)
    held: tuple[Any, ...]  # the OrtValues the session reads, kept alive with it

    @classmethod
    def build(cls, matrix: np.ndarray) -> Int8Rows | None:
        """The int8 copy of `matrix` (unit or zero rows), or None without onnxruntime."""
        try:
            import onnxruntime as ort  # type: ignore[import-untyped]
        except ImportError:
            return None
        scale = (np.abs(matrix).max(axis=1) / 127.0).astype(np.float32)
        rows = np.rint(matrix / np.where(scale > 0, scale, 1.0)[:, None]).astype(np.int8)
        rounded = rows.astype(np.float32) * scale[:, None]
        error = np.linalg.norm(matrix - rounded, axis=1)
        span = np.linalg.norm(rounded, axis=1) + error
        # The rows and their scales are the session's initializers (packed once by
        # onnxruntime), given as OrtValues: the model itself holds stand-ins.
        held = (
            ort.OrtValue.ortvalue_from_numpy(np.ascontiguousarray(rows.T)),
            ort.OrtValue.ortvalue_from_numpy(scale),
        )
        options = ort.SessionOptions()
        options.intra_op_num_threads = min(2, os.cpu_count() or 1)
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3  # the stand-ins' shapes are not the rows'
        options.add_initializer("rows", held[0])
        options.add_initializer("scale", held[1])
        try:
            model = _first_pass(matrix.shape[1])
            session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # no `onnx` to write the graph, or onnxruntime's own errors
            log.info("no int8 vector scan (%s); scanning in float32", exc)
            return None
        zeros = np.zeros(len(matrix), dtype=np.float32)
        return cls(session, float(error.max()), float(span.max()), len(matrix), zeros, held)

    def candidates(self, query: np.ndarray, limit: int, mask: Any) -> np.ndarray:
        """The positions of every allowed row whose exact score could be among the top
        `limit` (all allowed rows when there are no more than `limit`)."""
        allowed = self.rows if mask is None else int(np.count_nonzero(mask))
        step = float(np.abs(query).max()) / 127.0
        if allowed <= limit or step == 0.0:
            return np.arange(self.rows) if mask is None else np.flatnonzero(mask)
        ints = np.rint(query / step)
        rounded = ints * step
        bound = float(np.linalg.norm(rounded)) * self.error
        bound += float(np.linalg.norm(query - rounded)) * self.span + _SLACK
        feed = {
            "query": (ints + 128).astype(np.uint8)[None, :],
            "filter": self.unfiltered if mask is None else _filter(mask),
        }
        k = min(self.rows, max(4 * limit, 256))
        while True:  # a row scoring within twice the bound of the limit-th may be above it
            feed["k"] = np.array([k], dtype=np.int64)
            values, at = self.session.run(None, feed)
            approx = values.reshape(-1) * step
            kept = approx >= approx[limit - 1] - 2 * bound
            if not kept[-1] or k == self.rows:
                found: np.ndarray = at.reshape(-1)[kept]
                return found
            k = min(self.rows, 4 * k)


def _filter(mask: np.ndarray) -> np.ndarray:
    """0 for the rows `mask` allows, -inf for the others (float32)."""
    out = np.zeros(len(mask), dtype=np.float32)
    out[~mask] = -np.inf
    return out


def _first_pass(dim: int) -> bytes:
    """The first pass's graph: `query` (uint8, zero point 128) times the int8 `rows`, each
    times its row's `scale`, plus `filter` (0 or -inf per row), the best `k`."""
    from onnx import TensorProto, helper, numpy_helper

    stand_ins = [
        numpy_helper.from_array(np.zeros((dim, 1), dtype=np.int8), "rows"),
        numpy_helper.from_array(np.zeros(1, dtype=np.float32), "scale"),
        numpy_helper.from_array(np.array(128, dtype=np.uint8), "zero"),
    ]
    nodes = [
        helper.make_node("MatMulInteger", ["query", "rows", "zero"], ["products"]),
        helper.make_node("Cast", ["products"], ["floats"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["floats", "scale"], ["scores"]),
        helper.make_node("Add", ["scores", "filter"], ["allowed"]),
        helper.make_node("TopK", ["allowed", "k"], ["values", "positions"], axis=-1),
    ]
    graph = helper.make_graph(
        nodes,
        "int8_first_pass",
        [
            helper.make_tensor_value_info("query", TensorProto.UINT8, [1, dim]),
            helper.make_tensor_value_info("filter", TensorProto.FLOAT, None),
            helper.make_tensor_value_info("k", TensorProto.INT64, [1]),
        ],
        [
            helper.make_tensor_value_info("values", TensorProto.FLOAT, None),
            helper.make_tensor_value_info("positions", TensorProto.INT64, None),
        ],
        initializer=stand_ins,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    return bytes(model.SerializeToString())


def _product(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """`matrix @ query`, each half of a large matrix on its own thread with one BLAS thread:
    the product is memory-bound, and two cores read the matrix in ~half the time without
    OpenBLAS's own threads, which spin for milliseconds after it (`_one_blas_thread`)."""
    out = np.empty(len(matrix), dtype=np.float32)
    with _one_blas_thread():
        if len(matrix) < SPLIT_ROWS or (os.cpu_count() or 1) < 2:
            np.matmul(matrix, query, out=out)
            return out
        half = len(matrix) // 2
        other = _halves().submit(np.matmul, matrix[half:], query, out=out[half:])
        np.matmul(matrix[:half], query, out=out[:half])
        other.result()
    return out


@functools.cache
def _halves() -> ThreadPoolExecutor:
    """The threads that take the second half of a product (two queries' at once)."""
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="strata-product")


@functools.cache
def _blas() -> Any:
    from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

    return ThreadpoolController()


def _one_blas_thread() -> Any:
    """One BLAS thread for a product: a query's matrix-vector product is memory-bound, and
    OpenBLAS's idle threads spin for milliseconds after it, starving the store's threads
    on a small machine (measured: 14 ms of CPU burnt per warm hybrid query on 2 cores)."""
    return _blas().limit(limits=1, user_api="blas")
