"""The line scan that gives `benchmarks.where_defined` its answers, on small texts."""

from __future__ import annotations

from pathlib import Path

from benchmarks.where_defined import CORPORA, definitions


def _scan(tmp_path: Path, corpus: str, name: str, text: str) -> dict[str, tuple[str, int]]:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return definitions(tmp_path, name, CORPORA[corpus][3])


def test_c_definitions_need_a_body_not_a_prototype(tmp_path: Path) -> None:
    text = "yaml_a(int x);\nyaml_b(int x)\n{\n    return 0;\n}\n"
    assert _scan(tmp_path, "libyaml", "a.c", text) == {"yaml_b": ("a.c", 2)}


def test_cpp_definitions_open_with_the_projects_macro(tmp_path: Path) -> None:
    text = (
        "\tPUGI__FN xml_node xml_node::parent() const\n\t{\n\t}\n"
        "\tPUGI__FN_NO_INLINE xml_node::~xml_node()\n\t{\n\t}\n"
        "\tvoid xml_node::skipped();\n"
    )
    assert _scan(tmp_path, "pugixml", "p.cpp", text) == {
        "xml_node::parent": ("p.cpp", 1),
        "xml_node::~xml_node": ("p.cpp", 4),
    }


def test_r_and_clojure_definitions(tmp_path: Path) -> None:
    r = 'glue <- function(..., .sep = "") {\n}\nprint.glue <- function(x, ...) {\n}\n'
    assert set(_scan(tmp_path, "glue", "g.R", r)) == {"glue", "print.glue"}
    clj = "(defn read-array* [stream]\n  nil)\n(defn- ^String pprint-json [x] x)\n(def x 1)\n"
    assert _scan(tmp_path, "datajson", "j.clj", clj) == {
        "read-array*": ("j.clj", 1),
        "pprint-json": ("j.clj", 3),
    }


def test_bash_functions_of_files_without_an_extension(tmp_path: Path) -> None:
    text = "# ssh(1) completion  -*- shell-script -*-\n\n_ssh_queries()\n{\n    :\n}\n"
    assert _scan(tmp_path, "bashcomp", "ssh", text) == {"_ssh_queries": ("ssh", 3)}


def test_groovy_classes_and_vue_methods(tmp_path: Path) -> None:
    groovy = "@CompileStatic\nclass Shell {\n}\ninterface Command\n{\n}\n"
    assert _scan(tmp_path, "groovysh", "Shell.groovy", groovy) == {
        "Shell": ("Shell.groovy", 2),
        "Command": ("Shell.groovy", 4),
    }
    vue = "<script>\nexport default {\n  methods: {\n    select(option) {\n      if (x) {\n"
    assert _scan(tmp_path, "vueselect", "Select.vue", vue) == {"select": ("Select.vue", 4)}


def test_a_name_found_in_two_files_is_not_asked_for(tmp_path: Path) -> None:
    for name in ("A.vue", "B.vue"):
        (tmp_path / name).write_text("x = {\n  data() {\n  },\n}\n", encoding="utf-8")
    only = "x = {\n  data() {\n  },\n  only() {\n  },\n}\n"
    (tmp_path / "B.vue").write_text(only, encoding="utf-8")
    assert definitions(tmp_path, "*.vue", CORPORA["vueselect"][3]) == {"only": ("B.vue", 4)}
