"""Command-line flags asked about ("what does the --dry-run option do", "where is the -o
flag handled", `--max-depth` alone, "which command line options does it accept"): the
passages that define the flag first, each long one shown from the defining line, then the
documents that write it, then the code that reads its value."""

from __future__ import annotations

import pytest

from strata import Engine
from strata.query.cli_flags import (
    Written,
    asked_flags,
    asks_for_flags,
    how_written,
    long_names,
)
from strata.query.router import route
from tests.sources import indexed_tree

# A parser long enough (30+ lines) that its hit is shown from a window of its lines.
_OTHER_OPTIONS = "\n".join(
    f"""    parser.add_argument("--knob-{n}", type=int, default={n}, help="knob {n}")"""
    for n in range(30)
)
SOURCES = {
    "tool/cli.py": f"""
import argparse


def make_parser():
    parser = argparse.ArgumentParser(prog="tool")
{_OTHER_OPTIONS}
    parser.add_argument(
        "-n", "--dry-run",
        action="store_true",
        help="show what would change and change nothing",
    )
    parser.add_argument("-o", "--output", help="write the report to this file")
    return parser
""",
    "tool/run.py": """
        from tool.cli import make_parser


        def main(argv=None):
            args = make_parser().parse_args(argv)
            if args.dry_run:
                print("dry run: nothing written")
                return 0
            return write(args.output)


        def write(path):
            return 0
    """,
    "tool/planner.py": """
        def dry_run_plan(steps):
            \"\"\"A plan for a dry run: the steps, none of them run.\"\"\"
            return [s for s in steps if s]
    """,
    "README.md": """
        # tool

        ## Usage

        Run `tool --dry-run` first: it prints what would change.
    """,
    "web/serve.js": """
        const { program } = require('commander');

        program
          .option('-p, --port <number>', 'port to listen on', '8080')
          .option('--no-color', 'plain output');

        function start() {
          const opts = program.opts();
          return listen(opts.port);
        }
    """,
}


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return indexed_tree(tmp_path_factory.mktemp("flags"), SOURCES)


@pytest.mark.parametrize(
    ("query", "flags"),
    [
        ("what does the --dry-run option do", ("--dry-run",)),
        ("--max-depth", ("--max-depth",)),
        ("how do --verbose and --quiet interact", ("--verbose", "--quiet")),
        ("where is the -o flag handled", ("-o",)),
        ("что делает ключ -v", ("-v",)),
        ("where is the -o handled", ()),  # a dash and a letter alone: not called a flag
        ("what does -v do", ("-v",)),  # asked about as a flag is
        ("what is -1 used for", ()),
        ("fix the off-by-one in i-- loops", ()),
        ("what does dry_run_plan do", ()),
        ("--reindent flag", ("--reindent",)),
        # a sentence that mentions a flag describes something else (a doc comment's words)
        ("You can enable --harmony option in two ways:", ()),
        ("If first arg is -d, complete on directory names only.", ()),
    ],
)
def test_the_flags_a_question_asks_about(query: str, flags: tuple[str, ...]) -> None:
    assert asked_flags(query) == flags
    assert (route(query).intent == "flag") is bool(flags)


@pytest.mark.parametrize(
    ("query", "asks"),
    [
        ("which command line options does this tool accept", True),
        ("list the CLI flags", True),
        ("which options does the CLI accept", True),
        ("what flags does the command line take", True),
        ("what are the options of the command line", True),
        ("какие опции командной строки есть", True),
        ("which options does make_parser take", False),  # a function's parameters
        ("what flags does re.compile accept", False),
        ("Allow unknown options on the command line.", False),
        ("Explain command line argument parsing from a usage string", False),
    ],
)
def test_a_question_about_every_flag(query: str, asks: bool) -> None:
    assert asks_for_flags(query) is asks
    assert (route(query).intent == "flag") is asks


@pytest.mark.parametrize(
    ("flag", "text", "how"),
    [
        ("--dry-run", """parser.add_argument("-n", "--dry-run")""", Written.DASHED),
        ("--line-length", """@click.option("-l", "--line-length", type=int)""", Written.DASHED),
        ("--port", """.option('-p, --port <number>', 'port')""", Written.DASHED),
        ("--build", """@click.option("--build/--no-build")""", Written.DASHED),
        ("--no-color", """.option('--color', 'coloured output')""", Written.DASHED),
        ("--verbose", "    --verbose|-v)\n        VERBOSE=1 ;;", Written.DASHED),
        ("-o", """parser.add_argument('-o', '--outfile')""", Written.DASHED),
        ("--allow-uncaught", """  'allow-uncaught': {""", Written.NAMED),
        ("--fix", """    option: "fix",""", Written.NAMED),
        (
            "--verbose",
            """cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "")""",
            Written.NAMED,
        ),
        ("--output", """GetOptions('output|o=s' => \\$output)""", Written.NAMED),
        ("--dry-run", "    if args.dry_run:", Written.READ),
        ("--dry-run", "  if (options.dryRun) {", Written.READ),
    ],
)
def test_how_a_parser_writes_a_flag(flag: str, text: str, how: Written) -> None:
    found = how_written(flag, text, document=False)
    assert found is not None
    assert found[0] is how


def test_a_flag_is_not_a_word_or_another_flag() -> None:
    assert how_written("--dry-run", "def dry_run_plan(steps):", document=False) is None
    assert how_written("--port", """.option('--port-range <r>')""", document=False) is None
    assert how_written("--port", "self.port = port", document=False) is None
    assert how_written("--dry-run", "Run `tool --dry-run` first.", document=True) == (
        Written.DOCUMENTED,
        0,
    )


def test_the_definition_comes_first_shown_at_its_line(tool: Engine) -> None:
    result = tool.search("what does the --dry-run option do", k=5, mode="lexical")
    assert result.plan["route"]["intent"] == "flag"
    first = result.hits[0].record
    assert first.path == "tool/cli.py"
    start, end = first.metadata["focus_start"], first.metadata["focus_end"]
    lines = (tool.root / "tool/cli.py").read_text(encoding="utf-8").split("\n")
    assert any('"--dry-run"' in line for line in lines[start - 1 : end])
    paths = [h.record.path for h in result.hits]
    # then the document that writes it, then the code reading its value, then the rest
    assert paths.index("README.md") < paths.index("tool/run.py") < paths.index("tool/planner.py")


@pytest.mark.parametrize(
    ("query", "path"),
    [
        ("--port", "web/serve.js"),
        ("where is the --no-color flag defined", "web/serve.js"),
        ("where is the -o flag handled", "tool/cli.py"),
        ("which command line options does this tool accept", "tool/cli.py"),
    ],
)
def test_each_form_finds_the_definition(tool: Engine, query: str, path: str) -> None:
    assert tool.search(query, k=3, mode="lexical")[0].record.path == path


def test_a_short_flag_is_read_by_its_long_name() -> None:
    defining = ["parser.add_argument('-o', '--output')\nparser.add_argument('-q', '--quiet')"]
    assert long_names(("-o",), defining) == ("--output",)
    assert long_names(("-p",), [".option('-p, --port <number>', 'port')"]) == ("--port",)
    assert long_names(("--port",), defining) == ()


def test_where_a_short_flag_is_handled_reads_its_value(tool: Engine) -> None:
    paths = [
        h.record.path for h in tool.search("where is the -o flag handled", k=5, mode="lexical")
    ]
    assert paths[:2] == ["tool/cli.py", "tool/run.py"]  # `args.output` in `main`


def test_a_flag_nothing_writes_says_so_and_searches(tool: Engine) -> None:
    result = tool.search("what does the --frobnicate option do", k=3, mode="lexical")
    assert "no passage writes --frobnicate: plain search instead" in result.notes
