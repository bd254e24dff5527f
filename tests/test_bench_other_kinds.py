"""The benchmarks of files named as code names them, of errors raised, of environment
variables read and of command-line flags: how each names a file, a module, a packaged name,
and which lines raise an error, read a variable or define a flag."""

from __future__ import annotations

import ast
from pathlib import Path

from benchmarks.quality.assignforms import assigned
from benchmarks.quality.catchforms import caught
from benchmarks.quality.changeforms import added, headings, releases
from benchmarks.quality.defaultforms import defaults
from benchmarks.quality.defineforms import imported, top_level
from benchmarks.quality.envforms import reads
from benchmarks.quality.flagforms import definitions
from benchmarks.quality.markforms import marked
from benchmarks.quality.memberforms import classes
from benchmarks.quality.model import Target
from benchmarks.quality.modforms import (
    _head_end,
    _qualified,
    module_parts,
    named_dirs,
    named_files,
)
from benchmarks.quality.projectforms import stated
from benchmarks.quality.raiseforms import raised
from benchmarks.quality.taskforms import answers
from benchmarks.quality.typeforms import uses
from benchmarks.quality.usageforms import usages

PATHS = [
    "src/jinja2/sandbox.py",
    "src/jinja2/__init__.py",
    "lib/router/index.js",
    "lib/request.js",
    "a/util.py",
    "b/util.py",
    "common/src/Builders.common.kt",
    "lua/5.1/pl/init.lua",
]


def test_a_file_is_named_by_the_shortest_end_of_its_path_and_of_its_module() -> None:
    assert module_parts("src/jinja2/__init__.py") == ("src", "jinja2")
    assert module_parts("common/src/Builders.common.kt") == ("common", "src", "Builders")
    named = {p: (as_path, module) for p, as_path, module in named_files(PATHS, 100)}
    assert named["src/jinja2/sandbox.py"] == ("jinja2/sandbox.py", "jinja2.sandbox")
    assert named["lib/router/index.js"] == ("router/index.js", "lib/router")
    assert named["a/util.py"] == ("a/util.py", "a.util")
    assert named["common/src/Builders.common.kt"] == ("src/Builders.common.kt", "src.Builders")
    assert "lua/5.1/pl/init.lua" not in named  # `5.1.pl` is no module name
    assert named_files(PATHS, 3) == named_files(PATHS, 3)  # the same sample every run


def test_a_files_head_is_its_leading_comment_and_thirty_lines(tmp_path: Path) -> None:
    f = tmp_path / "x.c"
    f.write_text("/*\n** header\n*/\n\n#include <x.h>\n" + "int a;\n" * 100, encoding="utf-8")
    assert _head_end(f) == 4 + 30
    short = tmp_path / "y.py"
    short.write_text("x = 1\n", encoding="utf-8")
    assert _head_end(short) == 2


def test_a_packaged_name_is_qualified_by_the_package_its_file_declares() -> None:
    go = ["// NoArgs returns an error", "func NoArgs(cmd *Command) error {"]
    assert _qualified("NoArgs", go, "cobra", 0) == "cobra.NoArgs"
    method = ["func (c *Command) Execute() error {"]
    assert _qualified("Execute", method, "cobra", 0) == "cobra.Command.Execute"
    java = ["/** A cart. */", "public class Cart {"]
    assert _qualified("Cart", java, "org.example", 0) == "org.example.Cart"
    nested = ["  class Inner {"]  # a nested type's name is its outer type's too
    assert _qualified("Inner", nested, "org.example", 0) == ""
    php = ["class StreamHandler extends AbstractHandler"]
    assert _qualified("StreamHandler", php, "Monolog\\Handler", 0) == (
        "Monolog\\Handler\\StreamHandler"
    )


def test_the_lines_that_raise_an_error_the_package_defines(tmp_path: Path) -> None:
    (tmp_path / "errors.py").write_text("class PayError(Exception):\n    pass\n")
    (tmp_path / "pay.py").write_text(
        "def pay(x):\n    if x:\n        raise PayError('no')\n    raise ValueError('x')\n"
    )
    (tmp_path / "Reader.cs").write_text(
        "class ReaderException {}\nclass R { void F() { throw ReaderException.Create(1); } }\n"
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_pay.py").write_text("raise PayError('in a test')\n")
    found = raised(tmp_path)
    assert {n: [(t.path, t.start) for t in ts] for n, ts in found.items()} == {
        "PayError": [("pay.py", 3)],  # not ValueError: the package does not define it
        "ReaderException": [("Reader.cs", 2)],
    }


def test_the_lines_that_read_the_environment_outside_the_tests(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(
        'import os\nTOKEN = os.environ.get("APP_TOKEN")\nos.getenv(k)\n'
    )
    (tmp_path / "server.js").write_text("const m = process.env.NODE_ENV;\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_app.py").write_text('os.environ["IN_TEST"] = "1"\n')
    found = reads(tmp_path)
    assert {n: [(t.path, t.start) for t in ts] for n, ts in found.items()} == {
        "APP_TOKEN": [("app.py", 2)],
        "": [("app.py", 3)],  # a read of no literal name: a reading line still
        "NODE_ENV": [("server.js", 1)],
    }


def test_a_package_directory_is_named_alone_and_never_beside_a_file_of_its_name() -> None:
    paths = [
        "gocode/src/github.com/spf13/cobra/doc/md_docs.go",
        "gocode/src/github.com/spf13/cobra/doc/man_docs.go",
        "perl/Pod/Text.pm",
        "perl/Pod/Text/Color.pm",
        "perl/Pod/Text/Overstrike.pm",
        "lonely/one.go",
    ]
    named = dict(named_dirs(paths, 10))
    assert named == {"gocode/src/github.com/spf13/cobra/doc": "cobra/doc"}  # not `Pod::Text`
    assert named_dirs(paths, 10) == named_dirs(paths, 10)


def test_a_flag_is_defined_by_a_parsers_call_or_option_object(tmp_path: Path) -> None:
    (tmp_path / "tool").mkdir()
    (tmp_path / "tool/cli.py").write_text(
        "import argparse, click, optparse\n"
        "p = argparse.ArgumentParser()\n"
        "p.add_argument(\n"
        "    '-o', '--output',\n"
        "    help='where --output goes, not -x',\n"
        ")\n"
        "branch = optparse.make_option('', '--branch', action='store_true')\n"
        "@click.option('--check/--no-check', default=False)\n"
        "def main(check): pass\n",
        encoding="utf-8",
    )
    (tmp_path / "run.js").write_text(
        "module.exports = yargs => yargs.options({\n"
        "  'allow-uncaught': {\n"
        "    description: 'Allow uncaught errors to propagate',\n"
        "  },\n"
        "});\n"
        "const opts = [{\n"
        "  option: 'fix',\n"
        "  type: 'Boolean',\n"
        "}];\n",
        encoding="utf-8",
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests/test_cli.py").write_text("p.add_argument('--in-a-test')\n", encoding="utf-8")
    found = definitions(tmp_path)
    assert found["-o"] == found["--output"] == [Target("tool/cli.py", 3, 6)]
    assert found["--branch"] == [Target("tool/cli.py", 7, 7)]
    assert found["--check"] == found["--no-check"] == [Target("tool/cli.py", 8, 8)]
    assert found["--allow-uncaught"] == [Target("run.js", 2, 5)]
    assert found["--fix"] == [Target("run.js", 6, 10)]
    assert "--in-a-test" not in found and "-x" not in found


def test_a_types_uses_are_the_lines_naming_it_outside_its_definition(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src/types.ts").write_text(
        "export interface Clock {\n  now(): Clock;\n}\n", encoding="utf-8"
    )
    (tmp_path / "src/run.ts").write_text(
        "import { Clock } from './types';\n"
        "export function run(clock: Clock): number { return 1; }\n"
        "const ClockLike = 2;  // another name\n",
        encoding="utf-8",
    )
    (tmp_path / "src/run.test.ts").write_text("const c: Clock = make();\n", encoding="utf-8")
    definition = [Target("src/types.ts", 1, 3)]
    assert uses(tmp_path, "Clock", definition) == [Target("src/run.ts", 2, 2)]


def test_the_marked_lines_are_todo_comments_and_deprecations(tmp_path: Path) -> None:
    (tmp_path / "lib.py").write_text(
        "# TODO: split this\nlabel = \"TODO list\"\nwarnings.warn('old', DeprecationWarning)\n",
        encoding="utf-8",
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests/test_lib.py").write_text(
        "# FIXME: flaky\n@pytest.mark.skip(reason='down')\ndef test(): pass\n", encoding="utf-8"
    )
    (tmp_path / "skip.py").write_text("def run():\n    pytest.skip('x')\n", encoding="utf-8")
    assert marked(tmp_path) == {
        "todo": [Target("lib.py", 1, 1)],
        "deprecated": [Target("lib.py", 3, 3)],
        "skipped": [Target("tests/test_lib.py", 2, 2)],
    }


def test_a_projects_dependencies_and_version_lines(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nversion = "1.2.3"\ndependencies = [\n  "httpx",\n]\n', encoding="utf-8"
    )
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/about.py").write_text("version_info = (1, 2, 3)\n", encoding="utf-8")
    (tmp_path / "CHANGELOG.md").write_text("## version 1.2.3\n", encoding="utf-8")
    (tmp_path / ".gitignore").write_text("pkg/_built.py\n", encoding="utf-8")
    (tmp_path / "pkg/_built.py").write_text('version = "1.2.3"\n', encoding="utf-8")
    assert stated(tmp_path, "1.2.3") == {
        "dependencies": [Target("pyproject.toml", 3, 3)],
        "version": [Target("pkg/about.py", 1, 1), Target("pyproject.toml", 2, 2)],
    }


def test_the_lines_that_catch_an_error_by_name(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(
        "try:\n    f()\nexcept (KeyError, errors.TemplateNotFound) as e:\n    pass\n"
        "except Exception:\n    pass\nexcept:\n    pass\n",
        encoding="utf-8",
    )
    (tmp_path / "B.java").write_text(
        "} catch (IOException | SecurityException e) {\n", encoding="utf-8"
    )
    (tmp_path / "c.rb").write_text("rescue Errno::ENOENT, Timeout::Error => e\n", encoding="utf-8")
    (tmp_path / "d.kt").write_text("} catch (e: CancellationException) {\n", encoding="utf-8")
    assert caught(tmp_path) == {
        "KeyError": [Target("a.py", 3, 3)],
        "TemplateNotFound": [Target("a.py", 3, 3)],
        "Exception": [Target("a.py", 5, 5)],
        "IOException": [Target("B.java", 1, 1)],
        "SecurityException": [Target("B.java", 1, 1)],
        "ENOENT": [Target("c.rb", 1, 1)],
        "Error": [Target("c.rb", 1, 1)],
        "CancellationException": [Target("d.kt", 1, 1)],
    }


def test_an_attribute_is_written_by_any_statement_that_assigns_its_name(tmp_path: Path) -> None:
    (tmp_path / "lib.py").write_text(
        "class A:\n    def __init__(self):\n        self.cache = {}\n        self.x = 1\n"
        "def reset(a):\n    a.cache = {}\n    if a.cache == {}:\n        pass\n",
        encoding="utf-8",
    )
    (tmp_path / "test_lib.py").write_text("def test():\n    self.cache = 2\n", encoding="utf-8")
    assert assigned(tmp_path) == {"cache": [Target("lib.py", 3, 3), Target("lib.py", 6, 6)]}


def test_a_class_is_its_class_line_and_the_methods_it_defines(tmp_path: Path) -> None:
    (tmp_path / "lib.py").write_text(
        "class A:\n    x = 1\n\n    def f(self):\n        pass\n\n"
        "    async def g(self):\n        pass\n\n    class Inner:\n        def h(self):\n"
        "            pass\n\n\nclass B:\n    pass\n",
        encoding="utf-8",
    )
    (tmp_path / "other.py").write_text("class B:\n    pass\n", encoding="utf-8")
    found = classes(tmp_path)
    assert found["A"] == (Target("lib.py", 1, 1), [Target("lib.py", 4, 5), Target("lib.py", 7, 8)])
    assert found["Inner"] == (Target("lib.py", 10, 10), [Target("lib.py", 11, 12)])
    assert "B" not in found  # defined twice: which one is asked is not clear


def test_a_names_document_lines_and_its_calls_in_documents_and_tests(tmp_path: Path) -> None:
    (tmp_path / "lib.py").write_text("def configure(x):\n    return x\n", encoding="utf-8")
    (tmp_path / "lib.js").write_text(
        "function setup() {\n  while (x) {\n  }\n}\n", encoding="utf-8"
    )
    (tmp_path / "README.md").write_text(
        "Call `configure` first:\n\n    configure(1)\n\nThen setup().\n", encoding="utf-8"
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests/test_lib.py").write_text("def test():\n    configure(2)\n", encoding="utf-8")
    documented, example = usages(tmp_path)
    assert documented == {
        "configure": [Target("README.md", 1, 1), Target("README.md", 3, 3)],
        "setup": [Target("README.md", 5, 5)],
    }
    assert example == {
        "configure": [Target("README.md", 3, 3), Target("tests/test_lib.py", 2, 2)],
        "setup": [Target("README.md", 5, 5)],
    }


def test_a_changelogs_releases_are_its_headings_that_open_with_a_number(tmp_path: Path) -> None:
    (tmp_path / "CHANGES.rst").write_text(
        "Changelog\n=========\n\nVersion 2.0\n-----------\n\n- Added ``proxy``.\n\n"
        "Python 3.12 support\n~~~~~~~~~~~~~~~~~~~\n\n- Wheels.\n\n"
        "Version 1.9\n-----------\n\n- Fixed ``proxy``.\n\n"
        "Version 1.8\n-----------\n\n- Nothing.\n",
        encoding="utf-8",
    )
    lines = (tmp_path / "CHANGES.rst").read_text().split("\n")
    assert [(n, level) for n, level, _ in headings(lines)] == [
        (1, 10),
        (4, 11),
        (9, 12),
        (14, 11),
        (19, 11),
    ]
    found = releases(tmp_path)
    # a release's section runs over its subsections; "Python 3.12" names no release
    assert found == {
        "2.0": [Target("CHANGES.rst", 4, 13)],
        "1.9": [Target("CHANGES.rst", 14, 18)],
        "1.8": [Target("CHANGES.rst", 19, 22)],
    }
    assert added(tmp_path, found) == {"proxy": [Target("CHANGES.rst", 7, 7)]}


def test_a_default_is_a_constant_named_for_it_a_parameter_or_a_field(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "client.py").write_text(
        "DEFAULT_MAX_REDIRECTS = 20\nDEFAULT_CONFIG = {}\n\n\n"
        "def get(url, timeout=5.0, *, config=DEFAULT_CONFIG, _private=1, max_redirects=None):\n"
        "    pass\n\n\n"
        "class Settings:\n    color_output: bool = False\n    timeout = 3\n",
        encoding="utf-8",
    )
    constants, params = defaults(tmp_path)
    assert constants == {
        "max redirects": [Target("pkg/client.py", 1, 1)],
        "config": [Target("pkg/client.py", 2, 2)],
    }
    # a literal somewhere makes a name asked (`config` is given only a name); a constant
    # named for a parameter states its default too
    assert params == {
        "timeout": [Target("pkg/client.py", 5, 5), Target("pkg/client.py", 11, 11)],
        "max_redirects": [Target("pkg/client.py", 5, 5), Target("pkg/client.py", 1, 1)],
        "color_output": [Target("pkg/client.py", 10, 10)],
    }


def test_a_files_top_level_functions_and_classes(tmp_path: Path) -> None:
    path = tmp_path / "util.py"
    path.write_text(
        "import os\n\n\n@cache\ndef a():\n    def inner():\n        pass\n\n\n"
        "class B:\n    def m(self):\n        pass\n\n\n"
        "if TYPE_CHECKING:\n    class C:\n        pass\n",
        encoding="utf-8",
    )
    # a class under `if TYPE_CHECKING:` is the module's too; a nested function is not
    assert top_level(ast.parse(path.read_text()), "util.py") == (
        [Target("util.py", 4, 7)],
        [Target("util.py", 10, 12), Target("util.py", 16, 17)],
    )


def test_how_to_run_a_command_is_its_definition_or_a_guides_section(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text(
        '{\n  "scripts": {\n    "test": "mocha",\n    "docs": "jsdoc"\n  },\n'
        '  "devDependencies": {\n    "test-x": "1"\n  }\n}\n',
        encoding="utf-8",
    )
    (tmp_path / "CONTRIBUTING.md").write_text(
        "# Contributing\n\n## Running the tests\n\nRun `npm test`.\n\n## Style\n\nLint.\n",
        encoding="utf-8",
    )
    found = answers(tmp_path)
    assert found["how do I run the tests"] == [
        Target("package.json", 3, 3),
        Target("CONTRIBUTING.md", 3, 6),
    ]
    assert found["how do I build the docs"] == [Target("package.json", 4, 4)]
    assert found["what npm scripts are there"] == [
        Target("package.json", 3, 3),
        Target("package.json", 4, 4),
    ]
    assert "what make targets are there" not in found


def test_what_a_module_imports_is_its_import_lines_then_the_files_it_names(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "pkg" / "util.py").write_text("X = 1\n", encoding="utf-8")
    text = "import os\n\nfrom pkg.util import X\nfrom . import util\n"
    (tmp_path / "pkg" / "app.py").write_text(text, encoding="utf-8")
    assert imported(ast.parse(text), "pkg/app.py", tmp_path) == [
        Target("pkg/app.py", 1, 1),
        Target("pkg/app.py", 3, 3),
        Target("pkg/app.py", 4, 4),
        Target("pkg/util.py", 1, 1),
        Target("pkg/__init__.py", 1, 1),
    ]
