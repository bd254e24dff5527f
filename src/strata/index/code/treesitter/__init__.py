"""Tree-sitter: grammars, tag queries (`queries/*.scm`), symbol outlines and chunks."""
