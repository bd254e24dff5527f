"""Code layers C1-C4: symbols, dependency edges, entry points and semantic roles."""
