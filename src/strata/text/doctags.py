"""Doc comment tags (pure): the ones that only say prose follows, and any other."""

from __future__ import annotations

import re

__all__ = ["PROSE_TAG", "TAG"]

# A tag before the prose: NatSpec's `@dev`, `@notice`, `@title`; EDoc's `@doc`; Doxygen's
# `@brief` or `\brief`; JSDoc's `@summary` and `@description`. The prose is the sentence.
PROSE_TAG = re.compile(r"^[@\\](?:dev|notice|title|doc|brief|summary|description)\b:?\s*")
# Any other tag opens what no one asks in words: `@param x`, `@return`, `@author`, `\see`.
TAG = re.compile(r"^[@\\]\w")
