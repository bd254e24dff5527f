"""The write side: files -> records -> store (discovery, extraction, chunking, layers, indexer)."""
