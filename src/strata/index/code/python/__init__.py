"""Python source read with `ast`: symbols, names and dependency edges."""
