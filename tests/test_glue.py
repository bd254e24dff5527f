"""What counts as glue between definitions (strata.query.glue)."""

from __future__ import annotations

import pytest

from strata.index.records import make_record
from strata.query.glue import is_glue
from strata.types import Record


def _code(content: str, *, title: str = "", layer: str = "C0_SOURCE_CHUNKS") -> Record:
    return make_record(
        id="a",
        path="lib/a.js",
        layer=layer,
        title=title,
        content=content,
        lang="javascript",
        file_hash="h",
        kind="module",
    )


@pytest.mark.parametrize(
    "content",
    [
        "export default AxiosURLSearchParams;",
        "const prototype = AxiosURLSearchParams.prototype;",  # an alias names no new value
        "'use strict';\n\nimport CanceledError from './CanceledError.js';",
        "use crate::ast;\nuse crate::hir;",
        "/*\n** basic stack manipulation\n*/",
        "static void dumpFunction(DumpState *D, const Proto *f);",
        "export default {\n  assertOptions,\n  validators\n};",
    ],
)
def test_short_untitled_code_that_names_nothing_is_glue(content: str) -> None:
    assert is_glue(_code(content))


@pytest.mark.parametrize(
    "content",
    [
        "var minNamePadding = 11",
        'LOG_KWARG_NAMES = ("exc_info", "stack_info", "stacklevel")',
        "_SENTINEL = object()",
        "Styles = Union[_Styles, Type[_Styles]]",
        "type byName []*cobra.Command",
        "#define ClosureHeader \\\n\tCommonHeader; lu_byte nupvalues",
        "pub(crate) const MAX: usize = 8;",
    ],
)
def test_a_short_definition_is_not_glue(content: str) -> None:
    assert not is_glue(_code(content))


@pytest.mark.parametrize(
    "content",
    [
        "'use strict';\n\n"
        + "import utils from './../utils.js';\n" * 8
        + "import {\n  AxiosError,\n  isCancel as cancelled\n} from './cancel.js';",
        'package cobra\n\nimport (\n\t"fmt"\n\t"os"\n\tflag "github.com/spf13/pflag"\n)\n' * 3,
        "// the standard library\n" + "use std::fmt;\nuse crate::ast::{self, Ast};\n" * 5,
        '#include <stdio.h>\n#include "lua.h"\n' * 6,
        "from __future__ import annotations\n\nimport os\nfrom typing import Any\n" * 4,
        "local utils = require 'pl.utils'\nlocal List = require('pl.List')\n" * 4,
        # a CommonJS build's preamble (TypeScript's output)
        '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\n'
        "exports.NoopPlugin = void 0;\n",
        '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\n'
        'exports.A = exports.B = void 0;\nconst x_js_1 = require("./x.js");\n',
    ],
)
def test_an_import_block_of_any_length_is_glue(content: str) -> None:
    assert len(content) > 100 and is_glue(_code(content))


@pytest.mark.parametrize(
    "content",
    [
        "import os\n\nDEFAULT_TIMEOUT = 30\n" + "# a long explanation of the timeout\n" * 3,
        '#include <stdio.h>\n#define LUA_CORE\n#include "lua.h"\n' * 3,
        "import os\n\nif os.name == 'nt':\n    SEP = '\\\\'\n" * 3,
        '"use strict";\nexports.NoopPlugin = void 0;\nexports.TIMEOUT = 30;\n' * 3,
    ],
)
def test_imports_with_anything_else_are_not_glue(content: str) -> None:
    assert not is_glue(_code(content))


def test_titled_long_or_document_chunks_are_not_glue() -> None:
    assert not is_glue(_code("export default Parser;", title="Parser"))
    assert not is_glue(_code("function parse(text) {\n  return text.split(',');\n}\n" * 3))
    assert not is_glue(_code("See the parser.", layer="D0_DOC_CHUNKS"))
