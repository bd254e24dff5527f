"""doc_kind from real file names, frontmatter and content."""

from __future__ import annotations

import pytest

from strata.index.docs import classify


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("README.md", "readme"),
        ("docs/README.rst", "readme"),
        ("CHANGELOG.rst", "changelog"),
        ("HISTORY.md", "changelog"),
        ("NEWS.txt", "changelog"),
        ("docs/adr/0001-use-postgres.md", "adr"),
        ("docs/decisions/0002-kafka.md", "adr"),
        ("runbooks/restart.md", "runbook"),
        ("ops/failover.md", "runbook"),
        ("docs/api/reference.md", "api"),
        ("docs/tutorial/quickstart.md", "guide"),
        ("CONTRIBUTING.md", "guide"),
        ("docs/user-guide/configuration.md", "guide"),
        ("specs/payments.md", "spec"),
        ("docs/payments-spec.md", "spec"),
        ("LICENSE.md", "other"),
        ("docs/index.md", "other"),
    ],
)
def test_kind_from_path(path: str, kind: str) -> None:
    assert classify(path) == kind


def test_kind_from_frontmatter_and_content() -> None:
    assert classify("notes/restart.md", "", {"type": "runbook"}) == "runbook"
    adr = "# Use Kafka\n## Status\nAccepted\n## Context\nx\n## Decision\ny\n"
    assert classify("notes/kafka.md", adr) == "adr"
    assert classify("notes/x.md", "# Releases\n## 1.2.0\n- a\n## 1.1.0\n- b\n") == "changelog"
    versions = "Version History\n===\n\n10.7.0\n------\n\n* a\n\n10.6.0\n------\n\n* b\n"
    assert classify("docs/versions.rst", versions) == "changelog"  # more-itertools'
    assert classify("a.md", "# A\n## Version 2.0\nx\n## Version 1.0\ny\n") == "changelog"
    # a version in prose, or one release heading alone, is no changelog
    assert classify("a.rst", "Install\n=======\n\n1.2 or later\nworks.\n") == "other"
    assert classify("a.rst", "Intro\n=====\n\n2.0\n---\n\nnew\n") == "other"
    spec = "# Spec\n## 1.1 Scope\nx\n## 1.2 Terms\ny\n"  # numbered sections
    assert classify("a.md", spec) == "other"
    express = "4.21.2 / 2024-11-06\n==========\n\n* a\n\n4.21.1 / 2024-10-08\n==========\n"
    assert classify("notes.md", express) == "changelog"
    assert classify("notes/pay.md", "# Pay\n## Сценарий\n**Название**: x\n") == "spec"
    assert classify("notes/misc.md", "# Misc\nsome words\n") == "other"
