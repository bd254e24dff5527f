"""What a type defines ("what methods does Environment have", "list the methods of the
Template class"): the type at its header, then each member at its own, in the file's order;
of two types of one name, the one that defines more first. What a file or module defines
("what functions are defined in app/util.py", "list the classes in app.environment"): its
top-level definitions of that kind, in its order."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata import Engine
from strata.query.member_questions import (
    defined_in_asked,
    imports_asked,
    kind_listed,
    members_asked,
)
from strata.query.router import IndexFacts, route
from tests.sources import indexed_tree

SOURCES = {
    "app/environment.py": """
        class Environment:
            \"\"\"The settings templates share.\"\"\"

            def get_template(self, name):
                return Template(name)

            def from_string(self, text):
                return Template(text)

            def list_templates(self):
                return []


        class Template:
            \"\"\"A compiled template.\"\"\"

            def render(self, **context):
                return ""

            def stream(self, **context):
                return iter(())
    """,
    "app/nodes.py": """
        class Template:
            \"\"\"The root node of a parsed template.\"\"\"

            fields = ("body",)
    """,
    "app/loader.py": """
        import os

        from app.environment import Environment
        from app.util import split_name


        def load(path):
            return Environment(), split_name(os.path.basename(path))
    """,
    "app/util.py": """
        DEFAULT_NAME = "index.html"
        SUFFIXES = (".html", ".txt")


        def split_name(name):
            return name.rsplit(".", 1)


        class Loader:
            def load(self, name):
                return split_name(name)


        def join_name(parts):
            return ".".join(parts)
    """,
    "web/cart.ts": """
        export class Cart {
          add(item: string): void {}
          remove(item: string): void {}
        }
    """,
}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return indexed_tree(tmp_path_factory.mktemp("members"), SOURCES)


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("what methods does Environment have", "Environment"),
        ("what are the public methods of Router", "Router"),  # every method, listed
        ("which static methods does Path have", "Path"),
        ("list the methods of the Template class", "Template"),
        ("methods of Cart", "Cart"),
        ("what are the fields of Config", "Config"),
        ("what's in class Node", "Node"),
        ("what does the Template class contain", "Template"),
        ("what does the class Node define", "Node"),
        ("what does Node define", ""),  # no kind said: what it does
        ("какие методы есть у класса Cart", "Cart"),
        ("what methods are deprecated", ""),
        ("how do the methods of a class get bound", ""),
    ],
)
def test_a_question_about_what_a_type_defines(query: str, name: str) -> None:
    assert members_asked(query) == name


def test_only_a_type_the_index_defines_is_listed() -> None:
    def kinds(name: str) -> set[str]:
        return {"Environment": {"class"}, "render": {"method"}}.get(name, set())

    facts = IndexFacts(defines=kinds)
    assert route("what methods does Environment have", facts).intent == "members"
    assert route("what methods does render have", facts).intent != "members"


def test_the_type_then_its_methods_in_order(app: Engine) -> None:
    result = app.search("what methods does Environment have", k=5, mode="lexical")
    assert result.plan["route"]["intent"] == "members"
    qnames = [h.record.metadata.get("qname", "") for h in result.hits[:4]]
    assert [q.rsplit(".", 2)[-2:] for q in qnames] == [
        ["environment", "Environment"],
        ["Environment", "get_template"],
        ["Environment", "from_string"],
        ["Environment", "list_templates"],
    ]


def test_of_two_types_the_one_that_defines_more_first(app: Engine) -> None:
    hits = app.search("list the methods of the Template class", k=6, mode="lexical").hits
    assert hits[0].record.path == "app/environment.py"
    assert [h.record.title for h in hits[1:3]] == ["Template.render", "Template.stream"]
    assert "app/nodes.py" in [h.record.path for h in hits]  # the other one after


def test_a_typescript_class(app: Engine) -> None:
    titles = [h.record.title for h in app.search("methods of Cart", k=3, mode="lexical").hits]
    assert titles == ["Cart", "Cart.add", "Cart.remove"]


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("what functions are defined in app/util.py", ("functions", "app/util.py")),
        ("list the classes in app.environment", ("classes", "app.environment")),
        ("what does app/util.py define", ("", "app/util.py")),
        ("functions in util.py", ("functions", "util.py")),
        ("what functions are there in the util module", ("functions", "util")),
        ("какие функции есть в util.py", ("функции", "util.py")),
        ("what functions call split_name", ("", "")),
    ],
)
def test_a_question_about_what_a_file_defines(query: str, asked: tuple[str, str]) -> None:
    assert defined_in_asked(query) == asked


def test_a_files_functions_in_its_order(app: Engine) -> None:
    result = app.search("what functions are defined in app/util.py", k=4, mode="lexical")
    assert result.plan["route"]["intent"] == "members"
    # top-level functions only: not the class, not its method, not the constants
    assert [h.record.title for h in result.hits[:2]] == ["split_name", "join_name"]
    assert all(h.record.path == "app/util.py" for h in result.hits)


def test_a_modules_classes_and_everything_a_file_defines(app: Engine) -> None:
    hits = app.search("list the classes in app.environment", k=2, mode="lexical").hits
    assert [h.record.title for h in hits] == ["Environment", "Template"]
    every = app.search("what does app/util.py define", k=4, mode="lexical").hits
    # the constants share one chunk, shown once; then each definition at its header
    assert [h.record.title for h in every[1:]] == ["split_name", "Loader", "join_name"]


@pytest.mark.parametrize(
    ("query", "noun", "word"),
    [
        ("list all classes", "classes", ""),
        ("what interfaces are defined", "interfaces", ""),
        ("which enums does this project have", "enums", ""),
        ("show me all the structs", "structs", ""),
        ("all classes in the project", "classes", ""),
        ("which middleware classes are there", "classes", "middleware"),
        ("list the exception classes", "classes", "exception"),
        ("which public classes are there", "classes", ""),  # no word of their names
        ("list all classes in utils.py", "", ""),  # a file's: defined_in_asked
        ("how are classes registered", "", ""),
    ],
)
def test_a_question_about_what_the_whole_project_defines(query: str, noun: str, word: str) -> None:
    assert kind_listed(query) == (noun, word)


def test_the_projects_classes_nearest_the_root_first(app: Engine) -> None:
    result = app.search("list all classes", k=5, mode="lexical")
    assert result.plan["route"]["intent"] == "members"
    # in path and line order, each at its header; functions and members left out
    found = [(h.record.path, h.record.title) for h in result.hits]
    assert found == [
        ("app/environment.py", "Environment"),
        ("app/environment.py", "Template"),
        ("app/nodes.py", "Template"),
        ("app/util.py", "Loader"),
        ("web/cart.ts", "Cart"),
    ]


def test_the_projects_classes_public_first_stubs_and_build_output_left_out(tmp_path: Path) -> None:
    files = {
        "pkg/__init__.pyi": "class Client: ...\nclass _Hidden: ...\n",
        "pkg/_impl.py": "class _Hidden:\n    pass\n\n\nclass Client:\n    pass\n",
        "web/cart.ts": "export class Cart {}\nexport interface Item {\n  id: string;\n}\n",
        "web/cart.js": "export class Cart {}\n",  # its build output
    }
    hits = indexed_tree(tmp_path, files).search("list all classes", k=3, mode="lexical").hits
    assert [(h.record.path, h.record.title) for h in hits] == [
        ("pkg/_impl.py", "Client"),
        ("web/cart.ts", "Cart"),  # not its interface, not its `.js`
        ("pkg/_impl.py", "_Hidden"),
    ]


def test_the_projects_classes_of_a_word_in_their_names_or_folders(tmp_path: Path) -> None:
    files = {  # starlette's middleware: the word in a class's name or in its folder
        "web/middleware/cors.py": "class CORSMiddleware:\n    pass\n",
        "web/middleware/gzip.py": "class GZipResponder:\n    pass\n",
        "web/routing.py": "class Router:\n    pass\n\n\nclass MiddlewareStack:\n    pass\n",
        "web/responses.py": "class Response:\n    pass\n",
    }
    eng = indexed_tree(tmp_path, files)
    result = eng.search("which middleware classes are there", k=5, mode="lexical")
    assert result.plan["route"]["reasons"] == ["members: the project's middleware classes"]
    listed = [h.record.title for h in result.hits if "members" in h.parts]
    # a middleware (the name's last word) before a stack of them, then the folder's others
    assert listed == ["CORSMiddleware", "MiddlewareStack", "GZipResponder"]


def test_a_name_that_is_no_file_is_not_listed(app: Engine) -> None:
    assert app.search("list the classes in nowhere.py", k=2).plan["route"]["intent"] != "members"


@pytest.mark.parametrize(
    ("query", "path"),
    [
        ("what does app/loader.py import", "app/loader.py"),
        ("which modules does app/loader.py depend on", "app/loader.py"),
        ("list the imports in loader.py", "loader.py"),
        ("what does the loader module import", "loader"),
        ("who imports app/loader.py", ""),  # the other way round
        ("imports of app/loader.py", ""),
        ("what does CodeGenerator.visit_Import depend on", ""),  # a function's callees
    ],
)
def test_a_question_about_what_a_file_imports(query: str, path: str) -> None:
    assert imports_asked(query) == path


def test_what_a_file_imports_is_its_imports_then_the_files_they_name(app: Engine) -> None:
    result = app.search("what does app/loader.py import", k=3, mode="lexical")
    assert result.plan["route"]["intent"] == "members"
    # its imports' lines, then the head of each indexed file it imports from, in order
    assert [h.record.path for h in result.hits] == [
        "app/loader.py",
        "app/environment.py",
        "app/util.py",
    ]


def test_a_type_and_a_word_after_it_ask_for_that_member() -> None:
    def kinds(name: str) -> set[str]:
        found = {"ZodError": {"class"}, "ZodError.flatten": {"method"}, "Console.print": {"method"}}
        return found.get(name, set())

    facts = IndexFacts(defines=kinds)
    plan = route("ZodError flatten", facts)
    assert (plan.intent, plan.steps[0].args["name"]) == ("symbol", "ZodError.flatten")
    plan = route("Console print", facts)  # two plain words
    assert (plan.intent, plan.steps[0].args["name"]) == ("symbol", "Console.print")
    assert route("error handling", facts).intent != "symbol"  # no such member: a topic
    plan = route("ZodError format", facts)  # no such member: the type stands
    assert (plan.intent, plan.steps[0].args["name"]) == ("symbol", "ZodError")
    for said in (
        "ZodError flatten method",
        "the flatten method of ZodError",
        "the `flatten()` method of the ZodError class?",
        "ZodError's flatten method",
    ):
        plan = route(said, facts)
        assert (plan.intent, plan.steps[0].args["name"]) == ("symbol", "ZodError.flatten"), said
    assert route("the format method of ZodError", facts).steps[0].args.get("name") != (
        "ZodError.format"
    )


def test_a_type_and_its_method_written_apart_find_the_method(app: Engine) -> None:
    hits = app.search("Environment get_template", k=3, mode="lexical").hits
    assert hits[0].record.metadata.get("qname", "").endswith("Environment.get_template")
