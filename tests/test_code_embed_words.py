"""A code chunk's embedded text starts with its unit in plain words (real chunkers)."""

from __future__ import annotations

from strata.config import ChunkConfig
from strata.index.chunking import chunk
from strata.index.records import chunk_records
from strata.layers import C0_SOURCE_CHUNKS, D0_DOC_CHUNKS
from strata.types import Extracted, Record, content_hash

CFG = ChunkConfig(max_lines=80, max_chars=3000, window_lines=40, overlap_lines=5)

JAVA = """package org.apache.cordova;

public class CordovaActivity extends AppCompatActivity {
    /**
     * Called when the activity is first created.
     */
    @Override
    public void onCreate(Bundle savedInstanceState) {
        loadConfig();
        super.onCreate(savedInstanceState);
    }
}
"""

JS = """'use strict';

/**
 * Determine if a value is a FormData
 */
function isFormData(thing) {
  return thing instanceof FormData;
}
"""

PY = '''def parse_header(raw):
    """Split a header line."""
    return raw.split(":", 1)
'''


def _records(rel: str, text: str, lang: str, kind: str = "code") -> list[Record]:
    doc = Extracted(rel=rel, text=text, lang=lang, kind=kind, file_hash="h")
    return chunk_records(doc, chunk(doc, CFG))


def _by_title(records: list[Record], title: str) -> Record:
    return next(r for r in records if r.title == title)


def test_java_method_reads_as_words_with_its_class_and_file() -> None:
    records = _records("framework/src/org/apache/cordova/CordovaActivity.java", JAVA, "java")
    method = _by_title(records, "CordovaActivity.onCreate")
    first, *rest = method.embed_text.split("\n")
    assert first == "method on create of cordova activity in cordova activity"
    # path, qualified name and the lines follow, as before
    assert rest[:2] == ["framework/src/org/apache/cordova/CordovaActivity.java", method.title]
    assert "\n".join(rest[2:]) == method.content
    assert method.layer == C0_SOURCE_CHUNKS


def test_js_function_and_python_function() -> None:
    js = _by_title(_records("lib/utils.js", JS, "javascript"), "isFormData")
    assert js.embed_text.split("\n")[0] == "function is form data in utils"
    py = _by_title(_records("pkg/http_headers.py", PY, "python"), "parse_header")
    assert py.embed_text.split("\n")[0] == "function parse header in http headers"


def test_a_class_header_reads_its_kind_and_keeps_its_outline_last() -> None:
    records = _records("framework/src/org/apache/cordova/CordovaActivity.java", JAVA, "java")
    header = _by_title(records, "CordovaActivity")
    lines = header.embed_text.split("\n")
    assert lines[0] == "class cordova activity in cordova activity"
    assert lines[-1] == "@Override public void onCreate(Bundle savedInstanceState)"
    assert header.content_hash == content_hash(header.embed_text)  # the cache key follows


def test_a_document_chunk_gets_no_code_words() -> None:
    text = "# Usage\n\nRun the tool with a path.\n"
    [rec] = _records("README.md", text, "markdown", kind="markdown")
    assert rec.layer == D0_DOC_CHUNKS
    assert rec.embed_text.startswith("README.md\n")
