"""Pure string helpers shared by the write and the read side: tokens, globs, languages, names."""
