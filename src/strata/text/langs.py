"""Languages by file name, test-file detection and module names: data, not code paths."""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Final

# extension (lowercase, with dot) -> language name used in records
CODE_EXTENSIONS: Final[dict[str, str]] = {
    ".py": "python",
    ".pyi": "python",
    ".pyw": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".flow": "typescript",  # Flow's declarations (`index.js.flow`): TypeScript's grammar reads them
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".hxx": "cpp",
    # inline and template implementations, modules, CUDA, Arduino sketches: C++ as well
    **dict.fromkeys((".inl", ".ipp", ".tpp", ".txx", ".tcc", ".h++", ".c++"), "cpp"),
    **dict.fromkeys((".ixx", ".cppm", ".cu", ".cuh", ".ino"), "cpp"),
    ".cs": "csharp",
    ".rb": "ruby",
    **dict.fromkeys((".rake", ".gemspec", ".ru", ".podspec", ".thor"), "ruby"),
    ".php": "php",
    ".swift": "swift",
    ".scala": "scala",
    ".sc": "scala",
    ".sh": "bash",
    ".bash": "bash",
    ".zsh": "bash",
    ".ksh": "bash",
    ".lua": "lua",
    ".r": "r",
    ".pl": "perl",
    ".pm": "perl",
    **dict.fromkeys((".t", ".psgi"), "perl"),
    ".m": "objc",
    ".mm": "objc",
    ".dart": "dart",
    ".ex": "elixir",
    ".exs": "elixir",
    ".erl": "erlang",
    ".hrl": "erlang",
    ".hs": "haskell",
    ".ml": "ocaml",
    ".clj": "clojure",
    ".cljs": "clojure",
    ".cljc": "clojure",
    ".jl": "julia",
    ".zig": "zig",
    ".sol": "solidity",
    ".nix": "nix",
    ".f90": "fortran",
    ".f95": "fortran",
    ".f03": "fortran",
    ".f08": "fortran",
    ".scm": "scheme",
    ".ss": "scheme",
    ".rkt": "racket",
    ".jsonnet": "jsonnet",
    ".libsonnet": "jsonnet",
    ".vim": "vim",
    ".wat": "wat",
    ".just": "just",
    ".sql": "sql",
    ".proto": "protobuf",
    ".graphql": "graphql",
    ".gql": "graphql",
    ".vue": "vue",
    ".svelte": "svelte",
    ".astro": "astro",
    ".css": "css",
    ".scss": "scss",
    ".less": "less",
    ".json": "json",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".toml": "toml",
    ".ini": "ini",
    ".cfg": "ini",
    ".xml": "xml",
    ".tf": "hcl",
    ".hcl": "hcl",
    ".bzl": "starlark",
    ".star": "starlark",
    ".gradle": "groovy",
    ".groovy": "groovy",
    ".cmake": "cmake",
    ".mk": "make",
    ".bat": "batch",
    ".cmd": "batch",
    ".ps1": "powershell",
    ".psm1": "powershell",
}
# Code in a language no bundled grammar reads: its definitions are found by their lines
# (strata.index.code.sketch). An extension another format also uses much (`.v`: Coq, V and
# Verilog; `.pp`: Pascal and Puppet; `.cl`: Lisp and OpenCL) is left out.
SKETCHED_EXTENSIONS: Final[dict[str, str]] = {
    ".el": "elisp",
    **dict.fromkeys((".lisp", ".lsp", ".asd"), "commonlisp"),
    ".fnl": "fennel",
    ".janet": "janet",
    ".hy": "hy",
    **dict.fromkeys((".nim", ".nims"), "nim"),
    **dict.fromkeys((".pas", ".dpr", ".lpr", ".dpk"), "pascal"),
    ".d": "d",
    **dict.fromkeys((".adb", ".ads"), "ada"),
    **dict.fromkeys((".tcl", ".tk", ".itcl"), "tcl"),
    ".vala": "vala",
    ".cr": "crystal",
    **dict.fromkeys((".fs", ".fsi", ".fsx"), "fsharp"),
    ".vb": "vbnet",
    ".coffee": "coffeescript",
    ".elm": "elm",
    ".purs": "purescript",
    ".idr": "idris",
    ".gleam": "gleam",
    **dict.fromkeys((".raku", ".rakumod", ".pm6", ".p6"), "raku"),
    ".hx": "haxe",
    ".odin": "odin",
    **dict.fromkeys((".sml", ".sig", ".fun"), "sml"),
    ".gd": "gdscript",
    ".fish": "fish",
    ".awk": "awk",
    ".nu": "nushell",
    **dict.fromkeys((".sv", ".svh"), "verilog"),
    **dict.fromkeys((".vhd", ".vhdl"), "vhdl"),
    **dict.fromkeys((".asm", ".s"), "assembly"),
    **dict.fromkeys((".cob", ".cbl", ".cpy"), "cobol"),
    **dict.fromkeys((".pyx", ".pxd", ".pxi"), "cython"),
    ".chpl": "chapel",
    ".pony": "pony",
    ".lean": "lean",
    ".mojo": "mojo",
}
CODE_FILENAMES: Final[dict[str, str]] = {
    "Makefile": "make",
    "makefile": "make",
    "GNUmakefile": "make",
    "Dockerfile": "dockerfile",
    "CMakeLists.txt": "cmake",
    "Rakefile": "ruby",
    "Gemfile": "ruby",
    "Jenkinsfile": "groovy",
    "BUILD": "starlark",
    "WORKSPACE": "starlark",
    "Vagrantfile": "ruby",
    "justfile": "just",
    "Justfile": "just",
    "BUILD.bazel": "starlark",
    **dict.fromkeys(("BUCK", "Tiltfile"), "starlark"),
    # Ruby DSLs (CocoaPods, fastlane, Homebrew bundles, Guard, Danger, Capistrano)
    **dict.fromkeys(
        ("Podfile", "Fastfile", "Appfile", "Brewfile", "Guardfile", "Dangerfile", "Capfile"),
        "ruby",
    ),
    **dict.fromkeys(("Snakefile", "SConstruct", "SConscript"), "python"),
    "Pipfile": "toml",
}
DOC_EXTENSIONS: Final[dict[str, str]] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdx": "markdown",
    ".rst": "rst",
    ".rest": "rst",
    ".txt": "text",
    ".text": "text",
    ".adoc": "text",
    ".asciidoc": "text",
    ".org": "text",
    ".pdf": "pdf",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
}
IMAGE_EXTENSIONS: Final = frozenset(
    [
        ".png",
        ".jpg",
        ".jpeg",
        ".gif",
        ".bmp",
        ".tif",
        ".tiff",
        ".webp",
        ".ico",
        ".icns",
        ".svgz",
        ".heic",
        ".psd",
        ".raw",
    ]
)
BINARY_EXTENSIONS: Final = frozenset(
    [
        ".zip",
        ".gz",
        ".tgz",
        ".bz2",
        ".xz",
        ".7z",
        ".rar",
        ".tar",
        ".jar",
        ".war",
        ".whl",
        ".egg",
        ".so",
        ".dll",
        ".dylib",
        ".exe",
        ".o",
        ".a",
        ".lib",
        ".pyc",
        ".pyo",
        ".class",
        ".bin",
        ".dat",
        ".db",
        ".sqlite",
        ".sqlite3",
        ".woff",
        ".woff2",
        ".ttf",
        ".otf",
        ".eot",
        ".mp3",
        ".mp4",
        ".wav",
        ".ogg",
        ".flac",
        ".avi",
        ".mov",
        ".mkv",
        ".webm",
        ".iso",
        ".dmg",
        ".pkl",
        ".pickle",
        ".npy",
        ".npz",
        ".parquet",
        ".lance",
        ".arrow",
        ".onnx",
        ".pt",
        ".pth",
        ".safetensors",
        ".h5",
        ".wasm",
    ]
)


def language_of(rel: str) -> str | None:
    """The language of a path by its name, or None when it is not a known text format."""
    p = PurePosixPath(rel)
    if p.name in CODE_FILENAMES:
        return CODE_FILENAMES[p.name]
    ext = p.suffix.lower()
    return CODE_EXTENSIONS.get(ext) or SKETCHED_EXTENSIONS.get(ext) or DOC_EXTENSIONS.get(ext)


# What only C++ writes at the start of a line: a class with a body or bases, a namespace,
# a template, an access label. A `.h` file holding one is C++ (tinyxml2.h, Qt's headers).
_CPP_ONLY = re.compile(
    r"^[ \t]*(?:class[ \t]+\w[^;\n]*(?:\{|:[ \t]*(?:public|private|protected)\b)"
    r"|namespace[ \t]+\w+[ \t]*\{?$|template[ \t]*<|(?:public|private|protected)[ \t]*:)",
    re.MULTILINE,
)
_SNIFF_CHARS = 65536
# What opens a Pascal source: `unit Name;`, `program Name;`, `library Name;`, or a routine.
_PASCAL = re.compile(
    r"^[ \t]*(?:(?:unit|program|library)[ \t]+[\w.]+[ \t]*;|(?:procedure|function)[ \t]+\w)",
    re.IGNORECASE | re.MULTILINE,
)


# A script's interpreter (`#!/usr/bin/env python3`, `#!/bin/sh -e`) or an editor's mode line
# (`-*- shell-script -*-`, `-*- mode: python; -*-`) names the language of a file without a
# known extension (`bin/deploy`, bash-completion's `completions/ssh`).
_SHEBANG = re.compile(r"\A#![ \t]*(?:\S*/)?(?:env[ \t]+(?:-\S+[ \t]+)*)?([A-Za-z]+)")
_MODE_LINE = re.compile(r"-\*-[ \t]*(?:mode:[ \t]*)?([\w+-]+)[ \t]*(?:;[^\n]*?)?-\*-")
_INTERPRETERS = {
    **dict.fromkeys(("sh", "bash", "dash", "ksh", "zsh", "ash"), "bash"),
    **dict.fromkeys(("python", "pypy"), "python"),
    **dict.fromkeys(("node", "nodejs", "deno", "bun"), "javascript"),
    **{name: name for name in ("ruby", "perl", "php", "lua", "julia", "elixir")},
    "Rscript": "r",
    "escript": "erlang",
    "tsx": "typescript",
}
_MODES = {
    **dict.fromkeys(("shell-script", "sh", "bash"), "bash"),
    **{name: name for name in ("python", "ruby", "perl", "lua")},
    "cperl": "perl",
    **dict.fromkeys(("js", "javascript"), "javascript"),
}


def language_of_text(rel: str, text: str) -> str | None:
    """`language_of`, with a `.h` header read as C++ when its text is C++, and a file of no
    known extension by its `#!` line or mode line."""
    lang = language_of(rel)
    if lang == "c" and rel.lower().endswith(".h") and _CPP_ONLY.search(text[:_SNIFF_CHARS]):
        return "cpp"
    if lang is None and rel.lower().endswith(".pp") and _PASCAL.search(text[:_SNIFF_CHARS]):
        return "pascal"  # Free Pascal's `.pp` (Puppet's manifests share the extension)
    if lang is None and text[:2] in ("#!", "# ", "#\t", "//", ";;", "--"):
        return _script_language(text[:300])
    return lang


def _script_language(head: str) -> str | None:
    shebang = _SHEBANG.match(head)
    if shebang:
        word = shebang.group(1)
        return _INTERPRETERS.get(re.sub(r"[\d.]+$", "", word))  # python3, python3.11
    mode = _MODE_LINE.search("\n".join(head.split("\n", 2)[:2]))
    return _MODES.get(mode.group(1).lower()) if mode else None


# Declaration stubs: signatures without the bodies or docs a question is about
# (TypeScript's `.d.ts`, `.d.mts`, `.d.cts`; Python's `.pyi`; Flow's `.js.flow`).
_STUB = re.compile(r"\.d\.[cm]?ts$|\.pyi$|\.js\.flow$")


def is_stub(rel: str) -> bool:
    """Whether `rel` is a declaration stub (`index.d.ts`, `more.pyi`)."""
    return bool(_STUB.search(rel))


def is_doc_language(lang: str) -> bool:
    """Documentation formats (chunked by sections, stored in D-layers)."""
    return lang in DOC_EXTENSIONS.values()


def module_from_path(rel: str) -> str:
    """Dotted module name from a path: `src/pkg/mod.py` -> `pkg.mod`; `pkg/__init__.py` -> `pkg`."""
    path = PurePosixPath(rel)
    parts = list(path.with_suffix("").parts)
    if parts and parts[0] in ("src", "lib") and len(parts) > 1:
        parts = parts[1:]
    package_file = {".py": "__init__", ".pyi": "__init__", ".rs": "mod", ".lua": "init"}.get(
        path.suffix, "index"
    )
    if len(parts) > 1 and parts[-1] == package_file:
        parts = parts[:-1]
    return ".".join(parts)
