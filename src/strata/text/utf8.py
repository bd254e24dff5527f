"""Text that came from the operating system: file names, a command line, the environment.

Python decodes bytes that are not UTF-8 into lone surrogates (`surrogateescape`), so such a
`str` is not real text: it cannot be written to an index, a JSON body or a terminal as is.
"""

from __future__ import annotations

import os


def is_utf8(text: str) -> bool:
    """Whether `text` is real text (it holds no surrogate escapes)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def printable(text: str) -> str:
    """`text` with the bytes that are not UTF-8 shown as `\\xNN` (for messages)."""
    return os.fsencode(text).decode("utf-8", errors="backslashreplace")
