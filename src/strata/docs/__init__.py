"""Documentation layers D0-D6: sections, catalog, facts, entities, workflows, relations, integrations."""
