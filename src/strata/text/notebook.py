"""A Jupyter notebook as the script it holds: its cells in jupytext's "percent" format.

A notebook is JSON: its code sits in string lists among outputs, images and metadata, and
read as text it is chunked as JSON lines. Turned into `# %%` cells (Markdown cells as
comments, outputs dropped) it is code in the kernel's language, chunked and searched as
such; line numbers are those of this text, as for a PDF's or an HTML page's.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["notebook_to_text"]

# Kernel languages whose comments start with `#`, and Strata's name for each.
_LANGUAGES = {"python": "python", "r": "r", "julia": "julia", "ruby": "ruby", "bash": "bash"}


def notebook_to_text(text: str) -> tuple[str, str] | None:
    """The notebook's cells as a percent-format script, and its language (None when `text`
    is not a notebook: another JSON file with the extension, or a broken one)."""
    try:
        nb = json.loads(text)
    except ValueError:
        return None
    cells = _cells(nb)
    if cells is None:
        return None
    lang = _language(nb)
    out: list[str] = []
    for cell in cells:
        if not isinstance(cell, dict):
            continue
        source = _source(cell.get("source", cell.get("input", "")))
        kind = cell.get("cell_type")
        if kind == "markdown":
            out.append("# %% [markdown]")
            out += [f"# {line}".rstrip() for line in source.split("\n")]
        elif kind == "code":
            out.append("# %%")
            out += source.split("\n")
        else:
            continue
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n", _LANGUAGES.get(lang, "text")


def _cells(nb: Any) -> list[Any] | None:
    """nbformat 4's `cells`, or nbformat 3's cells of every worksheet."""
    if not isinstance(nb, dict):
        return None
    if isinstance(nb.get("cells"), list):
        return list(nb["cells"])
    sheets = nb.get("worksheets")
    if isinstance(sheets, list):
        return [c for s in sheets if isinstance(s, dict) for c in s.get("cells", [])]
    return None


def _language(nb: dict[str, Any]) -> str:
    meta = nb.get("metadata")
    info = (meta.get("language_info") or meta.get("kernelspec")) if isinstance(meta, dict) else None
    name = (info.get("name") or info.get("language")) if isinstance(info, dict) else None
    if isinstance(name, str) and name.lower().startswith("python"):
        return "python"
    return name.lower() if isinstance(name, str) else "python"


def _source(value: Any) -> str:
    """A cell's source: a string, or a list of lines (each with its own newline)."""
    if isinstance(value, list):
        value = "".join(v for v in value if isinstance(v, str))
    return value.rstrip("\n") if isinstance(value, str) else ""
