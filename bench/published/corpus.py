"""The published-docs corpus: which packages and docs, by a stated rule, fetched on demand from PyPI sdists.

Rule (``select``): walk the package list of the ``env`` entry (``pypi.tsv``) in order of its popularity column
(``rank_among_15000_most_downloaded``), skipping every library issue 23 names (other measurements use them),
the wild corpus's own, and packages known to be compiled or too large to unpack cheaply (``SKIPPED``). Download
each sdist at the listed version; keep it when it is pure Python (no C, C++, Cython or Rust source beside its
package) and its README shows Python (a ``python``/``pycon`` fence, a ``>>>`` session or an RST code block).
The docs of a package are its README and at most two usage pages of its ``docs/`` (names like usage, quickstart,
tutorial, examples, getting started) that show Python too, all taken as published: whole files, unedited.

``packages.json`` here pins each sdist (name, version, archive, sha256) and the doc paths inside it; the
archives themselves live in the cache of ``bench.truth.wild.sdists`` (outside the repository).
"""

from __future__ import annotations

import argparse
import json
import re
import tarfile
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path

from bench.truth.wild.sdists import Sdist, cache_dir, sha256_of, unpacked

HERE = Path(__file__).resolve().parent
LIST = HERE / "packages.json"
# The held-out list continues the same rule past the main list's last package; it is judged in its own files
# (README.md, "Held-out published docs"), so fixes made looking at the main list are measured on docs not seen.
LISTS = {"main": LIST, "holdout": HERE / "holdout.json"}
HOLDOUT_RULE = (
    "Held out: the rule of packages.json, continued past the last package it took (gcsfs, rank 288) in the same "
    "popularity order, skipping as well every package packages.json or bench/truth/wild lists, until at least 15 "
    "packages and 20 docs; chosen before any of its findings was looked at. Candidates whose sdist pip could not "
    "download or prepare within 150 s, or larger than 20 MB, were skipped as too large to unpack cheaply.")
_PYTHON = re.compile(r"^```\s*(?:python|py|pycon|python3)\b|^\s*>>> |^\.\. (?:code-block|code|sourcecode)::\s*"
                     r"(?:python|pycon)|::\s*$", re.MULTILINE)
_COMPILED = (".c", ".cc", ".cpp", ".pyx", ".rs", ".go", ".cu")
_USAGE = re.compile(r"usage|quickstart|quick_start|quick-start|tutorial|examples?|getting[-_ ]?started|intro",
                    re.IGNORECASE)


@dataclass(frozen=True)
class Entry:
    name: str
    version: str
    archive: str
    sha256: str
    folder: str
    docs: list[str]
    rank: int

    @property
    def sdist(self) -> Sdist:
        return Sdist(self.name, self.version, self.archive, self.sha256, self.folder)


def listed(path: Path = LIST) -> list[Entry]:
    return [Entry(**e) for e in json.loads(path.read_text(encoding="utf-8"))["packages"]]


def root_of(entry: Entry, cache: Path | None = None) -> Path:
    """The unpacked sdist (downloaded and hash-checked on first use)."""
    return unpacked(entry.sdist, cache or cache_dir())


def _members(archive: Path) -> list[str]:
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as bundle:
            return bundle.namelist()
    with tarfile.open(archive) as bundle:
        return bundle.getnames()


def pick_docs(root: Path) -> list[str]:
    readmes = sorted(p for p in root.glob("README*") if p.suffix.lower() in (".md", ".rst", "", ".txt"))
    pages = sorted(p for p in (root / "docs").rglob("*") if p.suffix in (".md", ".rst") and _USAGE.search(p.stem)
                   and "_build" not in p.parts) if (root / "docs").is_dir() else []
    shown = [p for p in [*readmes[:1], *pages] if _PYTHON.search(p.read_text(encoding="utf-8", errors="replace"))]
    readme = [p for p in shown if p in readmes]
    return [p.relative_to(root).as_posix() for p in readme + [p for p in shown if p not in readmes][:2]]


def select(take: Path, sdists: Path, cache: Path, limit: int, min_docs: int = 0) -> list[Entry]:
    """Entries for the downloaded candidates of ``take`` (rank, name, version lines), in rank order."""
    found: list[Entry] = []
    for line in take.read_text(encoding="utf-8").splitlines():
        rank, name, version = line.split("\t")[:3]
        archive = next((p for p in sdists.iterdir() if _norm(p.name).startswith(_norm(f"{name}-{version}."))), None)
        if archive is None or any(m.endswith(_COMPILED) and "/test" not in m for m in _members(archive)):
            continue
        folder = _members(archive)[0].split("/")[0]
        entry = Entry(name, version, archive.name, sha256_of(archive), folder, [], int(rank))
        (cache / archive.name).write_bytes(archive.read_bytes()) if not (cache / archive.name).exists() else None
        docs = pick_docs(root_of(entry, cache))
        if docs and docs[0].startswith("README"):
            found.append(Entry(**{**asdict(entry), "docs": docs}))
        if len(found) >= limit and sum(len(e.docs) for e in found) >= min_docs:
            break
    return found


def _norm(text: str) -> str:
    return text.lower().replace("-", "_").replace(".", "_")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="write packages.json from downloaded candidate sdists")
    parser.add_argument("take", help="candidate lines: rank, name, version (tab-separated), in rank order")
    parser.add_argument("sdists", help="the folder pip downloaded them into")
    parser.add_argument("--limit", type=int, default=70)
    parser.add_argument("--min-docs", type=int, default=0, help="go on past --limit packages until this many docs")
    parser.add_argument("--list", choices=sorted(LISTS), default="main", help="which list to write")
    args = parser.parse_args(argv)
    entries = select(Path(args.take), Path(args.sdists), cache_dir(), args.limit, args.min_docs)
    rule = HOLDOUT_RULE if args.list == "holdout" else __doc__.split("\n\n")[1]
    LISTS[args.list].write_text(json.dumps({"rule": rule, "packages": [asdict(e) for e in entries]},
                                           indent=1) + "\n", encoding="utf-8")
    print(f"{len(entries)} packages, {sum(len(e.docs) for e in entries)} docs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
