"""Questions about where a variable, field or attribute is written ("where is autoescape
set", "who modifies self.cache", "where is _last_checked assigned") and the lines that
assign it (pure; `strata.query.line_steps` searches for them).
"""

from __future__ import annotations

import re

from strata.query.lookup.qualifiers import last_part
from strata.query.phrases import END, NAME, THE
from strata.query.question_filters import rx

__all__ = ["ASSIGN_WORDS", "assigned_name", "assigning"]

_WRITTEN = (
    r"(?:set|assigned|reassigned|modified|written|updated|mutated|changed|initiali[sz]ed"
    r"|incremented|decremented|overwritten)"
)
_HOLDER = r"(?:(?:attribute|field|property|variable|member|var|setting|flag)\s+)?"
# The verb ends the question, or a place follows it: "where is the stream set defined"
# asks for the definition of a `stream set`, "where is logging set up" about a topic.
_ENDS = r"(?=\s*(?:[?.!]|$|\s(?:by|in|from|to|when|during|at|on|inside|within|after|before)\b))"
_ASKS = rx(
    # "where is the globals attribute modified"; "set up" is a topic's verb, not a write
    rf"\bwhere\s+(?:is|are)\s+{THE}{_HOLDER}{NAME}\s+{_HOLDER}(?:being\s+)?{_WRITTEN}{_ENDS}",
    rf"\b(?:who|what)\s+(?:sets|assigns|modifies|writes|updates|mutates|changes|initiali[sz]es)"
    rf"\s+{THE}{_HOLDER}{NAME}{END}",
    rf"\bwhere\s+(?:do|does|did)\s+(?:we|i|you|they|it|the\s+code)\s+"
    rf"(?:set|assign|modify|write|update|mutate|change|initiali[sz]e)\s+{THE}{_HOLDER}{NAME}{END}",
    rf"\b(?:which|what)\s+(?:functions?|methods?|code|places)\s+(?:sets?|assigns?|modif(?:y|ies)"
    rf"|writes?|updates?|mutates?|changes?)\s+{THE}{_HOLDER}{NAME}{END}",
    rf"\bгде\s+(?:присваивается|изменяется|задаётся|задается|устанавливается)\s+{NAME}{END}",
)
# the words a lexical search for the assigning lines uses besides the name's own
ASSIGN_WORDS = "self this"
# An operator that writes (`=`, `+=`, `:=`, `||=`), not one that compares (`==`, `<=`, `=>`).
_WRITES = r"[ \t]*(?:[-+*/%&|^]|<<|>>|\?\?|\|\||&&|\*\*|//)?:?=(?![=>~])"


def assigned_name(query: str) -> str:
    """The variable, field or attribute a question asks where it is written ("" none)."""
    said = query.casefold()
    if not any(
        v in said for v in ("set", "assign", "modif", "writ", "updat", "mutat", "chang")
    ) and (
        not any(v in said for v in ("initiali", "increment", "decrement", "присваива", "изменя"))
        and not any(v in said for v in ("задаётся", "задается", "устанавлива"))
    ):
        return ""
    for pattern in _ASKS:
        if m := pattern.search(query):
            return m.group(1).strip("`'\"").removesuffix("()")
    return ""


def assigning(name: str) -> re.Pattern[str]:
    """The lines that write `name` (its last part, through any receiver: `self.x =`,
    `this.x +=`, `@x =`, `$this->x =`, `x :=`, `x: int =`), a statement's target first in
    its line; a keyword argument (`x=1` in a call) does not count."""
    tail = re.escape(last_part(name).lstrip("@$"))
    receiver = r"(?:[\w$@]+(?:\.|->|::)|@|\$)*"
    annotated = r"(?:[ \t]*:[ \t]*[\w\[\]., |]+?)?"
    return re.compile(
        rf"^[ \t]*(?:(?:let|var|const|val|my|our|local|static|final|public|private|protected)"
        rf"[ \t]+)*{receiver}{tail}{annotated}{_WRITES}(?![^\n]*,[ \t]*$)",
        re.MULTILINE,
    )
