"""Where a type is used ("what uses SchedulerLike", "where is the OperatorFunction type
used"): a type is written in signatures, fields and casts, not called, so when the call
graph has no caller the passages that name it come first, its own definition left out
and a file that only imports it after those that use it."""

from __future__ import annotations

import pytest

from strata import Engine
from strata.query.router import route
from tests.sources import indexed_tree

SOURCES = {
    "src/types.ts": """
        export interface SchedulerLike {
          now(): number;
          schedule(work: () => void, delay?: number): void;
        }

        export type OperatorFunction<T, R> = (source: T) => R;
    """,
    "src/barrel.ts": """
        import { SchedulerLike, OperatorFunction } from './types';

        export const VERSION = '7.8.1';
    """,
    "src/from.ts": """
        import { SchedulerLike } from './types';

        export function from<T>(input: T[], scheduler?: SchedulerLike): T[] {
          return scheduler ? input.slice() : input;
        }
    """,
    "src/map.ts": """
        import { OperatorFunction } from './types';

        export function map<T, R>(project: (value: T) => R): OperatorFunction<T, R> {
          return (source: T) => project(source);
        }
    """,
    "src/result.ts": """
        export class Result {
          constructor(readonly ok: boolean) {}
        }
    """,
    "src/check.ts": """
        import { Result } from './result';

        export function passed(outcome: Result): boolean {
          return outcome.ok;
        }
    """,
    "app/node.py": """
        class Node:
            \"\"\"A tree node.\"\"\"

            def copy(self):
                return Node()


        def build_tree():
            return Node()
    """,
    "app/clock.py": """
        class Clock:
            \"\"\"A source of the time: a Clock is passed in, never built here.\"\"\"

            def now(self) -> float:
                return 0.0


        def elapsed(clock: Clock, since: float) -> float:
            return clock.now() - since
    """,
}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return indexed_tree(tmp_path_factory.mktemp("types"), SOURCES)


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("where is the OperatorFunction type used", "OperatorFunction"),
        ("where is the class Context used", "Context"),
        ("what uses SchedulerLike", "SchedulerLike"),
        ("references to SchedulerLike", "SchedulerLike"),
        ("find all references to get_template", "get_template"),
    ],
)
def test_where_a_type_is_used_asks_for_its_uses(query: str, name: str) -> None:
    found = route(query)
    assert (found.intent, found.names) == ("callers", (name,))


def test_where_the_cache_is_used_is_a_topic() -> None:
    assert route("where is the cache used").intent == "free_text"


@pytest.mark.parametrize(
    ("query", "use", "importer"),
    [
        ("what uses SchedulerLike", "src/from.ts", "src/barrel.ts"),
        ("where is the OperatorFunction type used", "src/map.ts", "src/barrel.ts"),
        ("who uses Result", "src/check.ts", None),  # a plain word's shape, a type of the index
    ],
)
def test_the_passages_that_use_a_type_come_before_its_definition(
    app: Engine, query: str, use: str, importer: str | None
) -> None:
    result = app.search(query, k=6, mode="lexical")
    name = result.plan["route"]["names"][0]
    assert f"falling back to the passages that name {name!r} (not called), then text" in (
        result.notes
    )
    paths = [h.record.path for h in result.hits]
    assert paths[0] == use
    if importer is not None:
        assert paths.index(use) < paths.index(importer)  # an import alone is no use
        defining = [i for i, path in enumerate(paths) if path == "src/types.ts"]
        assert all(i > paths.index(importer) for i in defining)  # the definition is no use


def test_a_python_class_used_in_an_annotation(app: Engine) -> None:
    first = app.search("where is Clock used", k=3, mode="lexical").hits[0].record
    assert (first.path, first.title) == ("app/clock.py", "elapsed")


def test_uses_from_outside_a_type_come_before_its_own(app: Engine) -> None:
    result = app.search("who uses Node", k=3, mode="lexical")
    assert result.plan["route"]["intent"] == "callers"
    titles = [h.record.title for h in result.hits[:2]]
    assert titles == ["build_tree", "Node.copy"]  # `Node.copy` builds one inside the class
