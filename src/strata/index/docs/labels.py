"""English and Russian label tables of the layered docs format: data, not code paths."""

from __future__ import annotations

import re
from typing import Final

# Section titles (casefolded) that play a role in the layered format.
SUMMARY_TITLES: Final = frozenset({"summary", "резюме", "краткое описание", "аннотация", "tl;dr"})
DETAILS_TITLES: Final = frozenset({"details", "детали", "подробности", "описание"})
INTEGRATION_TITLES: Final = frozenset({"integrations", "интеграции", "integration", "интеграция"})
# A scenario heading: "Scenario", "Scenario: Refund", "Сценарий 2", "Workflow" ...
SCENARIO_TITLE: Final = re.compile(
    r"^(?:scenario|сценарий|workflow|use case|сценарий использования)\b"
    r"\s*(?:\d+)?\s*[:.\-—]?\s*(?P<name>.*)$",
    re.IGNORECASE,
)

# Scenario labels -> D4 metadata field.
SCENARIO_LABELS: Final[dict[str, str]] = {
    "name": "workflow_name",
    "title": "workflow_name",
    "название": "workflow_name",
    "preconditions": "preconditions",
    "precondition": "preconditions",
    "предусловия": "preconditions",
    "предусловие": "preconditions",
    "trigger": "trigger",
    "триггер": "trigger",
    "main flow": "main_flow",
    "main scenario": "main_flow",
    "основной сценарий": "main_flow",
    "основной поток": "main_flow",
    "alternative flow": "alternative_flow",
    "alternative flows": "alternative_flow",
    "alternative scenario": "alternative_flow",
    "альтернативный сценарий": "alternative_flow",
    "альтернативные сценарии": "alternative_flow",
    "error handling": "error_handling",
    "errors": "error_handling",
    "обработка ошибок": "error_handling",
    "postconditions": "postconditions",
    "postcondition": "postconditions",
    "постусловие": "postconditions",
    "постусловия": "postconditions",
}
WORKFLOW_FIELDS: Final = (
    "workflow_name",
    "preconditions",
    "trigger",
    "main_flow",
    "alternative_flow",
    "error_handling",
    "postconditions",
)

# Integration item keys -> D6 metadata field; anything else lands in `details`.
INTEGRATION_KEYS: Final[dict[str, str]] = {
    "target": "target",
    "цель": "target",
    "система": "target",
    "target_type": "target_type",
    "target type": "target_type",
    "тип": "target_type",
    "тип цели": "target_type",
    "direction": "direction",
    "направление": "direction",
    "interaction": "interaction",
    "взаимодействие": "interaction",
    "тип взаимодействия": "interaction",
    "via": "via",
    "channel": "via",
    "protocol": "via",
    "канал": "via",
    "через": "via",
    "purpose": "purpose",
    "назначение": "purpose",
}
INTEGRATION_FIELDS: Final = ("target", "target_type", "direction", "interaction", "via", "purpose")

# Frontmatter keys whose values are relation edges (D5) and named entities (D3).
RELATION_KEYS: Final = ("related", "depends_on", "uses", "part_of", "see_also")
ENTITY_KEYS: Final = ("id", "module", "domain", "subdomain")

# Relation sentences: verb phrase -> predicate. Order matters (longest phrase first).
RELATION_VERBS: Final[tuple[tuple[str, str], ...]] = (
    ("is owned by", "owned_by"),
    ("is part of", "part_of"),
    ("depends on", "depends_on"),
    ("integrates with", "integrates_with"),
    ("uses", "uses"),
    ("зависит от", "depends_on"),
    ("является частью", "part_of"),
    ("входит в состав", "part_of"),
    ("принадлежит", "owned_by"),
    ("интегрируется с", "integrates_with"),
    ("использует", "uses"),
)
# Subjects that mean "the document's own subject".
PRONOUNS: Final = frozenset(
    {
        "it",
        "this",
        "this service",
        "this module",
        "this component",
        "the service",
        "он",
        "она",
        "оно",
        "сервис",
        "этот сервис",
        "модуль",
        "этот модуль",
        "компонент",
    }
)
ARTICLES: Final = ("the ", "a ", "an ")
