"""D4: scenarios (`Details -> Scenario`, `## Сценарий`) with English or Russian labels."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from strata.index.docs.document import Document
from strata.index.docs.inline import LABEL_LINE, anchor, short_hash, value_of
from strata.index.docs.labels import SCENARIO_LABELS, SCENARIO_TITLE, WORKFLOW_FIELDS
from strata.index.docs.sections import Section, descendants

_RENDER = {
    "preconditions": "Preconditions",
    "trigger": "Trigger",
    "main_flow": "Main flow",
    "alternative_flow": "Alternative flow",
    "error_handling": "Error handling",
    "postconditions": "Postconditions",
}


@dataclass(frozen=True, slots=True)
class Workflow:
    """One scenario: its fields (a string, or a list when written as a list; "" when missing)."""

    workflow_id: str
    name: str
    fields: Mapping[str, str | list[str]]
    section_path: tuple[str, ...]
    start_line: int
    end_line: int

    def render(self) -> str:
        """The scenario as readable text (the record's content)."""
        out = [f"Scenario: {self.name}" if self.name else "Scenario"]
        for key, label in _RENDER.items():
            value = self.fields.get(key, "")
            if isinstance(value, list):
                out.append(f"{label}:")
                out.extend(f"{i}. {step}" for i, step in enumerate(value, 1))
            elif value:
                out.append(f"{label}: {value}")
        return "\n".join(out)


def _label_field(label: str) -> str | None:
    return SCENARIO_LABELS.get(label.strip().rstrip(":").strip().casefold())


def is_scenario(section: Section) -> bool:
    """Whether a section heading opens a scenario."""
    return section.level > 0 and bool(SCENARIO_TITLE.match(section.title.strip()))


def extract_workflows(doc: Document) -> list[Workflow]:
    """Every scenario of a document, in document order; missing labels give empty values."""
    workflows: list[Workflow] = []
    seen: dict[tuple[str, ...], int] = {}
    for index, sec in enumerate(doc.sections):
        if not is_scenario(sec):
            continue
        parts = [sec]
        for sub in descendants(doc.sections, index):
            if is_scenario(sub):
                break
            parts.append(sub)
        fields = _fields(doc, parts)
        title_name = m.group("name") if (m := SCENARIO_TITLE.match(sec.title.strip())) else ""
        name_value = fields.get("workflow_name", "")
        name = name_value if isinstance(name_value, str) and name_value else title_name.strip()
        fields["workflow_name"] = name
        n = seen[sec.path] = seen.get(sec.path, 0) + 1
        wid = short_hash(doc.document_id, " > ".join(sec.path), name, str(n))
        workflows.append(Workflow(wid, name, fields, sec.path, sec.start_line, parts[-1].end_line))
    return workflows


def _fields(doc: Document, parts: list[Section]) -> dict[str, Any]:
    """Label values of a scenario: `**Label**: value` lines and label sub-headings."""
    collected: dict[str, list[str]] = {}
    current: str | None = None
    for part_no, part in enumerate(parts):
        if part_no:
            current = _label_field(part.title)
            if current:
                collected.setdefault(current, [])
        for block in part.body:
            if block.kind == "heading":
                continue
            for line in doc.lines[block.start - 1 : block.end]:
                m = LABEL_LINE.match(line)
                field = _label_field(m.group("label")) if m else None
                if m and field:
                    current = field
                    collected.setdefault(field, []).append(m.group("value"))
                elif current:
                    collected[current].append(line)
            if current:
                collected[current].append("")
    return {f: value_of(collected.get(f, [])) for f in WORKFLOW_FIELDS}


def workflow_metadata(doc: Document, wf: Workflow) -> dict[str, Any]:
    """The D4 metadata of one workflow (keys of shared/spec/layers.md)."""
    meta: dict[str, Any] = {"workflow_id": wf.workflow_id, "document_id": doc.document_id}
    meta.update({f: wf.fields.get(f, "") for f in WORKFLOW_FIELDS})
    meta["source_path"] = doc.rel
    return meta


def workflow_anchor(wf: Workflow) -> str:
    """Where the workflow was found."""
    return anchor(wf.section_path, wf.start_line)
