"""Store URIs as they may be shown: a password in one is never printed or logged."""

from __future__ import annotations

import re

__all__ = ["redact"]

_USERINFO = re.compile(r"(://[^/@:?#]*:)[^@/?#]*@")
_PASSWORD = re.compile(r"(password\s*=\s*)('[^']*'|[^&\s]*)", re.IGNORECASE)


def redact(uri: str) -> str:
    """`uri` with any password (`user:secret@`, `password=secret`) replaced by `***`."""
    return _PASSWORD.sub(r"\1***", _USERINFO.sub(r"\1***@", uri))
