"""The kinds of question a whole-question rule reads (pure): a command-line flag, marked
lines (TODOs, deprecations, skipped tests), the project's dependencies or version, where
an error is caught or a name assigned, a type's members, where a name is documented or an
example of its use, two names compared. `strata.query.router` asks them after the
environment rule and before the repository, file and module ones."""

from __future__ import annotations

from collections.abc import Callable, Collection

from strata.query.assigned import assigned_name
from strata.query.caught import caught_name
from strata.query.changes import changes_asked
from strata.query.cli_flags import asked_flags, asks_for_flags
from strata.query.compare import compared
from strata.query.defaults import default_asked
from strata.query.dev_tasks import task_asked
from strata.query.documented import asked_usage
from strata.query.marked import asks_for_marks
from strata.query.member_questions import members_asked
from strata.query.project_facts import asks_about_project
from strata.query.questions import Classification
from strata.text.tokens import is_identifier_like

__all__ = ["TYPE_KINDS", "kind_asked"]

# What a package's or module's name may stand for besides its file: a type, or a module
# the language declares (Perl's `package Pod::Text`, Ruby's `module Rack`).
TYPE_KINDS = frozenset(
    {"class", "module", "package", "namespace", "struct", "enum", "interface", "trait"}
    | {"type", "object", "record", "protocol", "union"}
)
Defines = Callable[[str], Collection[str]] | None


def kind_asked(head: str, defines: Defines) -> Classification | None:
    """The classification of a question one of these rules reads, or None. `defines`: the
    kinds of the index's symbols of a name (None: not known, and every name is taken)."""
    if lines := _lines_asked(head):
        return lines
    if (name := members_asked(head)) and (defines is None or TYPE_KINDS & {*defines(name)}):
        return Classification("members", (name,), reason=f"members: what {name!r} defines")
    kind, name = asked_usage(head)
    if kind and _known(name, defines):
        why = "where it is documented" if kind == "documented" else "an example of its use"
        return Classification("usage", (kind, name), reason=f"usage: {why}, {name!r}")
    if (pair := compared(head)) and all(_known(n, defines) for n in pair):
        return Classification("compare", pair, reason=f"compare: {pair[0]!r} and {pair[1]!r}")
    return None


def _known(name: str, defines: Defines) -> bool:
    """A name written as code, or one the index defines ("example of a plugin" names a
    topic unless a `plugin` is defined)."""
    return is_identifier_like(name) or defines is None or bool(defines(name))


def _lines_asked(head: str) -> Classification | None:
    """A question answered by the lines that do something (`strata.query.line_steps`): a
    command-line flag, TODO comments, deprecations or skipped tests, the project's
    dependencies or version, where an error is caught, where a name is assigned."""
    if flags := asked_flags(head):
        return Classification("flag", reason=f"flag: asks about {' '.join(flags)}")
    if asks_for_flags(head):
        return Classification("flag", reason="flag: asks which command-line flags there are")
    if kind := asks_for_marks(head):
        return Classification("marked", (kind,), reason=f"marked: asks for the {kind} lines")
    if kind := asks_about_project(head):
        return Classification("project", (kind,), reason=f"project: asks for its {kind}")
    if kind := task_asked(head):
        return Classification("tasks", (kind,), reason=f"tasks: how to run the {kind} commands")
    if asked := changes_asked(head):
        kind, what = asked
        why = {"release": f"release {what}", "latest": "the latest release"}
        reason = f"changes: {why.get(kind, f'when {what!r} changed')}"
        return Classification("changes", asked, reason=reason)
    if name := caught_name(head):
        return Classification("caught", (name,), reason=f"caught: where {name!r} is caught")
    if thing := default_asked(head):
        return Classification("default", (thing,), reason=f"default: the default of {thing!r}")
    if name := assigned_name(head):
        return Classification("assigned", (name,), reason=f"assigned: where {name!r} is set")
    return None
