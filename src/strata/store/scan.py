"""The warm vector scan: the top k of the passages' unit vectors by cosine, exactly.

A warm query reads every vector. In float32 that is 60 MB at 39k passages, about 3 ms on
two cores, the largest part of a warm search after the query's embedding. An int8 copy of
the rows (`Int8Rows`) is a quarter of that, and onnxruntime's integer product (VNNI where
the CPU has it) reads it in a quarter of a millisecond. Its scores are within a known
bound of the float32 ones, so it tells which rows could be in the exact top k; only those
(a few hundred) are scored in float32. The hits are the flat product's, not an
approximation of them. Without onnxruntime, or for a small matrix, the float32 product.
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
    """The rows as int8 (`row ≈ scale * int8 row`), with what bounds each row's error.

    For a unit query `q = q' + e` (its int8 form and the rest) and a row `r = r' + f`:
    `q.r - q'.r' = q'.f + e.r' + e.f`, so `|q.r - q'.r'| <= |q'| |f| + |e| (|r'| + |f|)`
    (Cauchy-Schwarz): `error` is `|f|` and `span` is `|r'| + |f|` of each row.
    """

    session: Any  # onnxruntime: MatMulInteger of the query's uint8 form and the rows
    scale: np.ndarray  # float32 per row
    error: np.ndarray
    span: np.ndarray
    held: Any  # the int8 rows (transposed) the session reads, kept alive with it

    @classmethod
    def build(cls, matrix: np.ndarray) -> Int8Rows | None:
        """The int8 copy of `matrix` (unit or zero rows), or None without onnxruntime."""
        try:
            import onnxruntime as ort  # type: ignore[import-untyped]
            from onnx import TensorProto, helper, numpy_helper
        except ImportError:
            return None
        dim = matrix.shape[1]
        scale = (np.abs(matrix).max(axis=1) / 127.0).astype(np.float32)
        rows = np.rint(matrix / np.where(scale > 0, scale, 1.0)[:, None]).astype(np.int8)
        rounded = rows.astype(np.float32) * scale[:, None]
        error = np.linalg.norm(matrix - rounded, axis=1).astype(np.float32)
        span = (np.linalg.norm(rounded, axis=1) + error).astype(np.float32)
        held = ort.OrtValue.ortvalue_from_numpy(np.ascontiguousarray(rows.T))
        # The rows are the session's initializer (packed once by onnxruntime), given as an
        # OrtValue: the model itself holds a 1-column stand-in.
        stand_in = numpy_helper.from_array(np.zeros((dim, 1), dtype=np.int8), "rows")
        zero = numpy_helper.from_array(np.array(128, dtype=np.uint8), "zero")
        graph = helper.make_graph(
            [helper.make_node("MatMulInteger", ["query", "rows", "zero"], ["scores"])],
            "int8_scan",
            [helper.make_tensor_value_info("query", TensorProto.UINT8, [1, dim])],
            [helper.make_tensor_value_info("scores", TensorProto.INT32, None)],
            initializer=[stand_in, zero],
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        options = ort.SessionOptions()
        options.intra_op_num_threads = min(2, os.cpu_count() or 1)
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3  # the stand-in's shape is not the rows'
        options.add_initializer("rows", held)
        try:
            session = ort.InferenceSession(
                model.SerializeToString(), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises its own untyped errors
            log.info("no int8 vector scan (%s); scanning in float32", exc)
            return None
        return cls(session, scale, error, span, held)

    def candidates(self, query: np.ndarray, limit: int, mask: Any) -> np.ndarray:
        """The positions of every allowed row whose exact score could be among the top
        `limit` (all allowed rows when there are no more than `limit`)."""
        step = float(np.abs(query).max()) / 127.0
        if step == 0.0:
            return np.flatnonzero(mask) if mask is not None else np.arange(len(self.scale))
        ints = np.rint(query / step)
        rounded = ints * step
        feed = (ints + 128).astype(np.uint8)[None, :]
        (product,) = self.session.run(None, {"query": feed})
        approx = product.reshape(-1).astype(np.float32) * (self.scale * np.float32(step))
        bound = float(np.linalg.norm(rounded)) * self.error
        bound += float(np.linalg.norm(query - rounded)) * self.span
        bound += _SLACK
        if mask is not None:
            approx[~mask] = -np.inf
        allowed = len(approx) if mask is None else int(np.count_nonzero(mask))
        if allowed <= limit:
            return np.flatnonzero(np.isfinite(approx))
        low = approx - bound
        floor = np.partition(low, len(low) - limit)[len(low) - limit]
        return np.flatnonzero(approx + bound >= floor)


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
