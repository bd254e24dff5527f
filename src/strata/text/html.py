"""HTML to Markdown-like text with the stdlib parser: headings as `#` lines, blocks as lines."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Final

# Content that is never text a reader sees.
DROPPED: Final = frozenset({"script", "style", "head", "noscript", "template", "svg", "math"})
BLOCKS: Final = frozenset(
    {"address", "article", "aside", "blockquote", "body", "br", "caption", "dd", "details",
     "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "header",
     "hr", "html", "li", "main", "nav", "ol", "p", "section", "summary", "table", "tbody", "td",
     "tfoot", "th", "thead", "tr", "ul"}
)  # fmt: skip
HEADINGS: Final = {f"h{n}": n for n in range(1, 7)}
_SPACE = re.compile(r"\s+")


def html_to_text(html: str) -> str:
    """The visible text of an HTML page, one block per paragraph, chunkable as Markdown.

    Headings become `#` lines, list items `- ` lines, `<pre>` a fenced block; scripts,
    styles and the `<head>` are dropped. Never raises on malformed markup.
    """
    parser = _TextParser()
    parser.feed(html)
    parser.close()
    return parser.text()


class _TextParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.inline: list[str] = []
        self.dropped: list[str] = []
        self.prefix = ""
        self.pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body" and "head" in self.dropped:  # a page that never closes <head>
            self.dropped.clear()
        if tag in DROPPED:
            self.dropped.append(tag)
        elif self.dropped:
            return
        elif tag in HEADINGS:
            self.flush()
            self.prefix = "#" * HEADINGS[tag] + " "
        elif tag == "li":
            self.flush()
            self.prefix = "- "
        elif tag == "pre":
            self.flush()
            self.pre += 1
        elif tag in BLOCKS:
            self.flush()

    def handle_endtag(self, tag: str) -> None:
        if tag in DROPPED:
            if tag in self.dropped:
                del self.dropped[len(self.dropped) - 1 - self.dropped[::-1].index(tag) :]
        elif self.dropped:
            return
        elif tag == "pre" and self.pre:
            self.pre -= 1
            self.flush_pre()
        elif tag in HEADINGS or tag in BLOCKS or tag == "li":
            self.flush()

    def handle_data(self, data: str) -> None:
        if not self.dropped:
            self.inline.append(data)

    def flush(self) -> None:
        if self.pre:
            return
        text = _SPACE.sub(" ", "".join(self.inline)).strip()
        self.inline.clear()
        if text:
            self.blocks.append(self.prefix + text)
        self.prefix = ""

    def flush_pre(self) -> None:
        text = "".join(self.inline).strip("\n")
        self.inline.clear()
        if text.strip():
            self.blocks.append(f"```\n{text}\n```")

    def text(self) -> str:
        if self.pre:  # a <pre> never closed
            self.pre = 0
            self.flush_pre()
        self.flush()
        return "\n\n".join(self.blocks) + ("\n" if self.blocks else "")
