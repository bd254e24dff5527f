"""The `perl` benchmark's own reading of subs and their docs (not Strata's queries)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.quality.perl import PERL, definitions


def test_subs_at_the_first_column_with_the_comment_lines_above(tmp_path: Path) -> None:
    (tmp_path / "Text.pm").write_text(
        "#!/usr/bin/perl\n"
        "package Pod::Text;\n"
        "\n"
        "#-> sub Pod::Text::new\n"
        "# Initialize the object. Options are\n"
        "# set here.\n"
        "sub new {\n"
        "    my $class = shift;\n"
        "    return bless {}, $class;\n"
        "}\n"
        "\n"
        "sub one { 1 }\n"
        "sub later;\n"
        "\n"
        "sub broken {\n"
        "    my $self = shift;\n"
        "sub after {\n"
        "    return 2;\n"
        "}\n"
        "\n"
        "=head1 EXAMPLE\n"
        "\n"
        "sub in_pod {\n"
        "}\n"
        "\n"
        "=cut\n"
        "\n"
        "sub last_one {\n"
        "}\n"
        "__END__\n"
        "sub autoloaded {\n"
        "}\n",
        encoding="utf-8",
    )
    defs = {
        d.name: (d.start, d.end, d.comment, d.doc) for d in definitions(PERL, tmp_path, "Text.pm")
    }
    assert defs["new"] == (7, 10, (5, 6), "Initialize the object. Options are\nset here.")
    assert defs["one"] == (12, 12, None, "")
    assert defs["after"] == (17, 19, None, "")
    assert defs["last_one"] == (28, 29, None, "")
    # a declaration, a sub never closed at the first column, POD and what follows __END__
    assert not {"later", "broken", "in_pod", "autoloaded"} & set(defs)
