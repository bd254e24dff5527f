"""Go's implicit interfaces against Go's own type checker: which types of a package
implement which of its interfaces.

    python -m benchmarks.go_interfaces [--json FILE]

The oracle is `go/types` (`types.Implements`, for `T` or `*T`) over each package's non-test
files, type-checked from source with errors tolerated (an import the machine does not have
leaves its types invalid, not the package's own method sets): every named non-interface
type of the package against every interface of it with at least one method. Strata's
answer is the `inherits` edges `strata.index.code.gointerfaces` draws over the same files
(tree-sitter symbols, no types). Packages: Debian's Go sources the quality benchmark uses
(cobra) and two more (pflag, logrus), one directory each. Needs the `go` command (Debian's
`golang-go`); without it the benchmark says so and stops.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.sdists import fetch_deb
from strata.index.code.gointerfaces import implementations
from strata.index.code.treesitter import symbols

PACKAGES = (
    ("cobra", "golang-github-spf13-cobra-dev", "1.6.1-1", "github.com/spf13/cobra"),
    (
        "pflag",
        "golang-github-spf13-pflag-dev",
        "1.0.6~git20210604-d5e0c0615ace-1",
        "github.com/spf13/pflag",
    ),
    ("logrus", "golang-github-sirupsen-logrus-dev", "1.9.0-1", "github.com/sirupsen/logrus"),
)
ORACLE = r"""
package main

import (
	"encoding/json"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	dir := os.Args[1]
	fset := token.NewFileSet()
	var files []*ast.File
	paths, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err == nil {
			files = append(files, f)
		}
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil), Error: func(error) {}}
	pkg, _ := conf.Check("pkg", fset, files, nil)
	scope := pkg.Scope()
	var ifaces, named []*types.TypeName
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if it, ok := tn.Type().Underlying().(*types.Interface); ok {
			if it.NumMethods() > 0 && it.IsMethodSet() {
				ifaces = append(ifaces, tn)
			}
		} else {
			named = append(named, tn)
		}
	}
	pairs := [][2]string{}
	for _, t := range named {
		for _, i := range ifaces {
			it := i.Type().Underlying().(*types.Interface)
			if types.Implements(t.Type(), it) || types.Implements(types.NewPointer(t.Type()), it) {
				pairs = append(pairs, [2]string{t.Name(), i.Name()})
			}
		}
	}
	json.NewEncoder(os.Stdout).Encode(pairs)
}
"""


def oracle(src: Path, work: Path) -> set[tuple[str, str]]:
    """`go/types`' (type, interface) pairs of the package in `src`."""
    main = work / "oracle.go"
    main.write_text(ORACLE, encoding="utf-8")
    env = {"GOPATH": str(work / "gopath"), "GOCACHE": str(work / "cache"), "GOFLAGS": "-mod=mod"}
    env |= {"HOME": str(work), "PATH": "/usr/bin:/bin:/usr/local/bin", "GO111MODULE": "off"}
    out = subprocess.run(
        ["go", "run", str(main), str(src)], capture_output=True, text=True, env=env, check=True
    )
    return {(t, i) for t, i in json.loads(out.stdout)}


def strata_pairs(src: Path) -> set[tuple[str, str]]:
    """The (type, interface) pairs of the `inherits` edges Strata draws over the same files."""
    syms, edges = [], []
    for path in sorted(src.glob("*.go")):
        if path.name.endswith("_test.go"):
            continue
        found, refs = symbols.extract(path.read_text(encoding="utf-8"), "go", path.name)
        syms += found
        edges += refs
    return {
        (e.src_qname.rsplit(".", 1)[-1], (e.dst_qname or e.dst_ref).rsplit(".", 1)[-1])
        for e in implementations(syms, edges)
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write the rows here too")
    args = parser.parse_args()
    if shutil.which("go") is None:
        sys.exit("go_interfaces: needs the `go` command (apt-get install golang-go)")
    rows = []
    with tempfile.TemporaryDirectory(prefix="go-oracle-") as tmp:
        for name, deb, version, importpath in PACKAGES:
            src = fetch_deb(deb, version) / "usr/share/gocode/src" / importpath
            truth, found = oracle(src, Path(tmp)), strata_pairs(src)
            hit = len(truth & found)
            rows.append(
                {
                    "package": f"{name} {version}",
                    "oracle_pairs": len(truth),
                    "strata_pairs": len(found),
                    "precision": round(hit / len(found), 3) if found else 1.0,
                    "recall": round(hit / len(truth), 3) if truth else 1.0,
                    "missed": sorted(truth - found)[:10],
                    "extra": sorted(found - truth)[:10],
                }
            )
    print("| package | go/types pairs | Strata pairs | precision | recall |")
    print("|---|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['package']} | {r['oracle_pairs']} | {r['strata_pairs']} "
            f"| {r['precision']:.3f} | {r['recall']:.3f} |"
        )
    for r in rows:
        if r["missed"] or r["extra"]:
            print(f"{r['package']}: missed {r['missed']}, extra {r['extra']}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
