"""Strata's retrieval-quality benchmark: pinned corpora, queries with checked spans, metrics."""
