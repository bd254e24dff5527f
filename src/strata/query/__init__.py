"""The read side: questions, routing, hybrid search, ranking, fusion and the layer lookups."""
