"""Strata's benchmarks: speed and retrieval quality on pinned public code."""
