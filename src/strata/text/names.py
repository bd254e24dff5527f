"""Names as documents write them: the plain text of inline Markdown and a comparison key.

Both sides use these: the docs layers key entities by `normalise_name` when they index, and
the lookups and the executor key a question's names the same way when they read.
"""

from __future__ import annotations

import re

MD_LINK = re.compile(r"(?<!!)\[(?P<text>[^\]]*)\]\((?P<target><[^>]*>|[^)\s]+)(?:\s+\"[^\"]*\")?\)")
_IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\([^)]*\)")
_SPACES = re.compile(r"\s+")
_NAME_SEPARATORS = re.compile(r"[\s_\-./]+")


def plain(text: str) -> str:
    """Inline Markdown reduced to words: links to their text, emphasis and code marks dropped."""
    text = _IMAGE.sub(lambda m: m.group("alt"), text)
    text = MD_LINK.sub(lambda m: m.group("text"), text)
    text = text.replace("**", "").replace("__", "").replace("`", "")
    return _SPACES.sub(" ", text).strip()


def normalise_name(name: str) -> str:
    """The comparison key of a name: `Ledger Service`, `ledger_service` -> `ledger-service`."""
    return _NAME_SEPARATORS.sub("-", plain(name).casefold()).strip("-")
