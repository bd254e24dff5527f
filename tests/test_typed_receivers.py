"""A call on a field or a parameter whose type the code writes reaches that type's method
(Java, C#, Kotlin, Scala, Swift, TypeScript): within a file, and across files through the
interface a field is declared with."""

from __future__ import annotations

import pytest

from strata.index.code.crossfile import resolve_across_files
from strata.index.code.model import Edge
from strata.index.code.treesitter.symbols import extract
from strata.index.code.typed import declared_type, local_types, parameters, return_type


@pytest.mark.parametrize(
    ("signature", "name", "lang", "expected"),
    [
        ("private final Store store;", "store", "java", "Store"),
        ("private final Map<String, Store> byName = new HashMap<>();", "byName", "java", "Map"),
        ("private int count;", "count", "java", ""),
        ("private readonly IStore? _store;", "_store", "csharp", "IStore"),
        ("public Currency Unit", "Unit", "csharp", "Currency"),
        ("private val store: Store = Mem()", "store", "kotlin", "Store"),
        ("private val cache = Mem()", "cache", "kotlin", "Mem"),
        ("private store?: Store;", "store", "typescript", "Store"),
        ("private cache = new Mem()", "cache", "typescript", "Mem"),
        ("let store: Store!", "store", "swift", "Store"),
        ("private var notes: [String: Note] = [:]", "notes", "swift", ""),
        ("val store: Store = new Mem()", "store", "scala", "Store"),
        ("private retries: number", "retries", "typescript", ""),
    ],
)
def test_a_field_holds_the_type_its_declaration_writes(
    signature: str, name: str, lang: str, expected: str
) -> None:
    assert declared_type(signature, name, lang) == expected


def test_a_callable_s_parameters_hold_their_written_types() -> None:
    assert parameters("void run(Store s, int n, List<Mem> all)", "run", "java") == {
        "s": "Store",
        "all": "List",
    }
    assert parameters("func run(with m: Mem, _ s: Store?)", "run", "swift") == {
        "m": "Mem",
        "s": "Store",
    }
    assert parameters("fun run(m: Mem, n: Int = 1)", "run", "kotlin") == {"m": "Mem", "n": "Int"}
    assert parameters("run()", "run", "typescript") == {}


JAVA = """\
package p;
interface Store { void save(String x); }
class Mem implements Store { public void save(String x) {} }
class Service {
    private final Store store;
    private Mem mem;
    void run(Mem other) {
        store.save("a");
        this.store.save("b");
        mem.save("c");
        other.save("d");
    }
}
"""

KOTLIN = """\
package p

class Mem {
    fun save(x: String) {
    }
}

class Other {
    fun save(x: String) {
    }
}

class Service(private val kept: Other) {
    private val cache = Mem()

    fun run() {
        cache.save("a")
        kept.save("b")
    }
}
"""


def _calls(text: str, lang: str, path: str) -> list[tuple[str, str, str]]:
    _, edges = extract(text, lang, path)
    return [
        (e.dst_ref, e.resolution, ["", *(e.dst_qname or "").split(".")][-2])
        for e in edges
        if e.edge_type == "calls" and "." in e.dst_ref
    ]


def test_a_call_on_a_typed_field_or_parameter_reaches_that_type_s_method() -> None:
    assert _calls(JAVA, "java", "p/Service.java") == [
        ("store.save", "resolved", "Store"),  # the interface the field is declared with
        ("this.store.save", "resolved", "Store"),
        ("mem.save", "resolved", "Mem"),
        ("other.save", "resolved", "Mem"),  # a parameter, over no field of that name
    ]
    assert _calls(KOTLIN, "kotlin", "p/Service.kt") == [
        ("cache.save", "resolved", "Mem"),  # the type the field is made of
        ("kept.save", "resolved", "Other"),  # a property of the class's own parameters
    ]


def _across(files: dict[str, str], lang: str = "java") -> list[Edge]:
    """The edges of `files` (path -> text) in `lang`, resolved across them."""
    symbols, edges = [], []
    for path, text in files.items():
        s, e = extract(text, lang, path)
        symbols += s
        edges += e
    return resolve_across_files(edges, symbols)


def test_a_call_through_an_interface_of_another_file_reaches_its_method() -> None:
    files = {
        "p/Store.java": "package p;\npublic interface Store {\n    void save(String x);\n}\n",
        "p/Mem.java": "package p;\npublic class Mem implements Store {\n"
        "    public void save(String x) {}\n}\n",
        "p/Service.java": "package p;\npublic class Service {\n    private final Store store;\n"
        '    void run() {\n        store.save("a");\n    }\n}\n',
    }
    (call,) = [e for e in _across(files) if e.dst_ref == "store.save"]
    assert (call.resolution, call.receiver, call.dst_qname) == (
        "resolved",
        "Store",
        "p.Store.Store.save",
    )


def test_a_call_on_a_typed_field_reaches_the_method_its_type_inherits() -> None:
    files = {
        "p/Base.java": "package p;\npublic class Base {\n    public void save(String x) {}\n}\n",
        "p/Mem.java": "package p;\npublic class Mem extends Base {\n    void other() {}\n}\n",
        "p/Service.java": "package p;\npublic class Service {\n    private Mem mem;\n"
        '    void run() {\n        mem.save("a");\n    }\n}\n',
    }
    (call,) = [e for e in _across(files) if e.dst_ref == "mem.save"]
    assert (call.resolution, call.dst_qname) == ("resolved", "p.Base.Base.save")


CSHARP = """\
namespace P {
static class Enumerable {
    public static int Count<T>(
        this IEnumerable<T> source) { return 0; }
}
class Stack { public void Pop() {} }
class User {
    private IEnumerable<int> items;
    private List<int> stack;
    int Run() { stack.Pop(); return items.Count(); }
}
}
"""


def test_a_call_on_a_type_without_the_member_may_mean_an_extension_function() -> None:
    assert _calls(CSHARP, "csharp", "p/User.cs") == [
        ("stack.Pop", "unresolved", ""),  # a List's, not the Stack's of this file
        ("items.Count", "resolved", "Enumerable"),  # `this IEnumerable<T> source`
    ]


def test_a_call_on_a_typed_field_of_an_overloaded_method_names_that_method() -> None:
    files = {
        "p/Writer.java": "package p;\npublic class Writer {\n    public void write(int x) {}\n"
        "    public void write(String x) {}\n}\n",
        "p/Service.java": "package p;\npublic class Service {\n    private Writer out;\n"
        "    void run() {\n        out.write(1);\n    }\n}\n",
    }
    (call,) = [e for e in _across(files) if e.dst_ref == "out.write"]
    assert (call.resolution, call.dst_qname, len(call.candidates)) == (
        "ambiguous",
        "p.Writer.Writer.write",
        2,
    )


def test_a_local_variable_holds_the_type_it_is_declared_with_or_made_of() -> None:
    java = (
        "    final Store s = pick();\n    Mem m;\n    var w = new Writer(out);\n"
        "    List<Store> all = new ArrayList<>();\n    int n = 3;\n    return s;\n"
        "    for (final Store each : all) { each.save(); }\n"
    )
    held = {"s": "Store", "m": "Mem", "w": "Writer", "all": "List", "each": "Store"}
    assert local_types(java, "java") == held
    assert local_types("foreach (JToken t in tokens)", "csharp") == {"t": "JToken"}
    kotlin = (
        "    val m: Mem = make()\n    val c = Cache()\n    val f = Foo.create()\n"
        "    val k = MAX_VALUE\n    const t = new Timer()\n    var x = A()\n    x = 1\n"
        "    var x = B()\n"
    )
    # made by a call of another type's function, or bound to two types: not known
    assert local_types(kotlin, "kotlin") == {"m": "Mem", "c": "Cache", "t": "Timer"}
    local = '        Store local = mem;\n        local.save("c");'
    text = JAVA.replace('        mem.save("c");', local)
    assert ("local.save", "resolved", "Store") in _calls(text, "java", "p/Service.java")


SCALA_BASES = (
    "trait Pointer[T] {\n  def debug(): Unit = {}\n}\n\n"
    "final class Vec[+A](n: Int) extends AbstractSeq[A] with Pointer[A] {\n"
    "  def grow(): Unit = {\n    val s = new Vec(n + 1)\n    s.debug()\n  }\n}\n\n"
    "class Other {\n  def debug(): Unit = {}\n}\n"
)
TS_PROPERTIES = (
    "class Store {\n  save(x: string): void {}\n}\n\n"
    "class Other {\n  save(x: string): void {}\n}\n\n"
    "class Service {\n  constructor(private readonly store: Store, other: Other) {}\n\n"
    "  run(): void {\n    this.store.save('a');\n  }\n}\n"
)


@pytest.mark.parametrize(
    ("text", "lang", "path", "call"),
    [
        # `with Pointer[A]`: a base after `extends`, read as one (the trait, not Other's)
        (SCALA_BASES, "scala", "v/Vec.scala", ("s.debug", "resolved", "Pointer")),
        # a constructor's parameter property is a field of its class
        (TS_PROPERTIES, "typescript", "src/s.ts", ("this.store.save", "resolved", "Store")),
    ],
    ids=["a-base-of-the-file", "a-parameter-property"],
)
def test_a_call_on_a_value_reaches_the_type_it_holds(
    text: str, lang: str, path: str, call: tuple[str, str, str]
) -> None:
    assert _calls(text, lang, path) == [call]


def test_a_call_on_a_value_reaches_a_csharp_extension_method_of_another_file() -> None:
    ext = "namespace P {\nstatic class Seq {\n    static int Total(this IEnumerable<int> xs) {\n"
    user = "namespace P {\nclass User {\n    private IEnumerable<int> items;\n"
    files = {
        "p/Seq.cs": ext + "        return 0;\n    }\n}\n}\n",
        "p/User.cs": user + "    int Run() { return items.Total(); }\n}\n}\n",
    }
    (call,) = [e for e in _across(files, "csharp") if e.dst_ref == "items.Total"]
    assert (call.resolution, call.dst_qname) == ("resolved", "p.Seq.P.Seq.Total")


def test_a_local_made_by_a_call_holds_the_type_the_callable_returns() -> None:
    kotlin = (
        "package p\n\nclass Mem {\n    fun save(x: String) {\n    }\n}\n\n"
        "class Other {\n    fun save(x: String) {\n    }\n}\n\n"
        "class Service {\n    fun make(): Mem {\n        return Mem()\n    }\n\n"
        '    fun run() {\n        val m = make()\n        m.save("a")\n'
        '        val j = launch()\n        j.save("b")\n    }\n}\n'
    )
    assert _calls(kotlin, "kotlin", "p/Service.kt") == [
        ("m.save", "resolved", "Mem"),  # `fun make(): Mem`
        ("j.save", "ambiguous", ""),  # `launch` is not the file's: as if unbound
    ]
    assert return_type("func make(x: Int) -> Store", "make", "swift") == "Store"
    assert return_type("public List<Store> all()", "all", "java") == "List"
