"""The pieces the question patterns are made of (`strata.query.questions`,
`strata.query.graph_questions`): a name as written, an article, the kind of a definition,
the end of a name."""

from __future__ import annotations

import re

__all__ = [
    *("END", "KIND", "KINDS", "KIND_AFTER", "KIND_WORD", "NAME", "OPERATOR", "PROJECT", "THE"),
    "WORD",
]

# The project as a whole, as a question about its tests, its commands or its definitions
# says it ("how is the project tested", "how do I test it", "which enums does this
# codebase have", "list all classes here").
PROJECT = (
    r"(?:(?:the|this|our)\s+(?:project|package|library|code\s*base|codebase|code|app"
    r"|application|repo|repository)|it|this|here)"
)

# A name as written in a question: `Client.send`, "charge_card", charge_card(), pkg::f, PHP's
# `Monolog\Handler\StreamHandler`,
# R's `.onLoad`, `$http`, Lisp's `read-array*`, Elixir's `decode!`, C++'s `~Name`, Haskell's
# `foldl'`.
# An operator in parentheses (Haskell's `(<?>)`, `(<|>)`) is a name too.
OPERATOR = r"\([!#$%&*+./<=>?@\\^|~:-]{1,6}\)"
NAME = (
    rf"[`'\"]?({OPERATOR}|(?:[.~\\](?=[A-Za-z_]))?[A-Za-z_$](?:[\w.:$\\]|::~)*?(?:-+[\w$]+)*"
    r"(?:[*!?]|'+)?)"
    r"(?:\(\))?[`'\"]?"
)
WORD = r"[`'\"]?([\w][\w.-]*?)[`'\"]?"
THE = r"(?:(?:the|a|an)\s+)?"
# "where is the class Context defined", "where is the retry decorator defined", "where is
# the users table created": the kind of definition, said before or after its name.
KINDS = (
    r"(?:class|function|method|type|struct|interface|trait|enum|constant|macro|module|property|field"
    r"|decorator|variable|attribute|component|table|view|trigger|index|sequence|procedure)"
)
KIND = rf"(?:{KINDS}\s+)?"
KIND_WORD = re.compile(rf"\b{KINDS}\b", re.IGNORECASE)  # "the class Context": a name
KIND_AFTER = rf"(?:\s+{KINDS})?"
END = r"(?=[\s?!,;]|\.(?:\s|$)|$)"  # a dot ends a name only at a sentence end
