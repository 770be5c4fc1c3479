"""Grow the published corpus to 150 packages by the same popularity rule, and fix its held-out quarter (issue 28).

    python -m bench.published.grow            # downloads candidates in rank order, writes grown.json
    python -m bench.published.grow --continue-from 466 --count 30 --set held_out2   # a fresh held-out set
    python -m bench.published.grow --continue-from 542 --count 30 --set held_out3   # and a third

The rule (written into ``grown.json``'s ``rule`` before any package of the continuation was run or judged):
``packages.json`` (70) and ``holdout.json`` (18) stay; the continuation walks ``pypi.tsv`` in order of its
popularity column past ``holdout.json``'s last package (slack-sdk, rank 328), skipping every package issue 23 or
issue 28 names (other measurements use them), every package ``bench/truth/wild``, ``packages.json`` or
``holdout.json`` lists, candidates with no version, sdists pip cannot download and prepare within 150 s or larger
than 20 MB, and compiled ones (C, C++, Cython, Rust, Go or CUDA source outside tests); a candidate is kept when
its README shows Python (``corpus.pick_docs``), until the list holds 150 packages. The held-out quarter is the
first ceil(150 / 4) = 38 packages of the continuation in rank order; the dev set is everything else.

A fresh held-out set, ``held_out2`` (its rule fixed on main at d045533, after issue 28's fourth fixes, before any
of its candidates was downloaded, because ``held_out`` had since been read for fixes): the same walk continued
past ``grown.json``'s last package (google-cloud-automl, rank 466), with the same exclusions and skips, and also
skipping every package ``grown.json`` already lists, until 30 packages are kept. All 30 are the set
``held_out2``, appended to ``grown.json``'s packages in rank order (origin ``continuation``) with their skipped
candidates appended to ``skipped``; the entries before them are unchanged. They are run once, as a user runs
docbot, and judged before anyone reads their findings for fixes.

A third, ``held_out3`` (its rule fixed on main on 2026-12-04, after issue 28's sixth fixes, before any of its
candidates was downloaded, because ``held_out2`` had since been read for fixes): the same rule again, past
``held_out2``'s last package (langgraph-prebuilt, rank 542), until 30 packages are kept:
``--continue-from 542 --count 30 --set held_out3``.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path

from bench.published.corpus import _COMPILED, HERE, Entry, _members, _norm, listed, pick_docs, root_of
from bench.truth.wild.sdists import cache_dir, sha256_of

GROWN = HERE / "grown.json"
TSV = Path("/work/.library/env/packages/pypi.tsv")
AFTER_RANK = 328  # holdout.json's last package, slack-sdk
TARGET = 150
MAX_BYTES = 20 * 1024 * 1024
CHUNK = 4  # downloads at once
# Issue 23's list and issue 28's list, as the issues spell them: other measurements use these packages.
EXCLUDED = frozenset(re.sub(r"[-_.]+", "-", n.strip().lower()) for n in """
dacite ftfy glom humanize python-string-utils python-slugify shortuuid tabulate xmltodict addict base58
camel-converter frozendict isoduration mergedeep prettytable sqids timeago voluptuous portion intervaltree
phonenumbers jsondiff markupsafe html2text markdown2 braceexpand toposort jsonref url-normalize langcodes
tldextract attrs cattrs bigtree flatdict sql-metadata dataclasses-json sqlparse tomlkit termcolor jmespath
itsdangerous blinker toml semver croniter json5 validators inflect cron-descriptor fuzzywuzzy simpleeval chevron
dpath pyfiglet dotmap tinydb textdistance flashtext jsons strsimpy hashids roman word2number numerize stringcase
titlecase nameparser treelib asciitree pydispatcher deepmerge jsonmerge python-benedict inflection more-itertools
toolz cachetools bidict natsort pathspec jsonpatch jsonpointer deepdiff python-box parse isodate iso8601 dateparser
tqdm backoff pyjwt pyotp email-validator rfc3986 hyperlink thefuzz unidecode anytree transitions schedule
jsonpickle pypika funcy pydash python-dateutil pyparsing decorator wrapt num2words
anyio arrow asn1crypto cerberus price-parser asteval bitstring bleach boltons boolean-py confidence cycler
deepmerge dictdiffer dill diskcache docopt emoji exceptiongroup expression fadapa fastjsonschema first flatten-dict
freezegun fsspec furl graphviz h11 haversine humanfriendly jinja2 jsonpath-ng lark loguru mashumaro mistune mpmath
multipledispatch netaddr parsimonious parsley pint pipe pluggy pydispatcher python-statemachine python-stdnum
pytimeparse pytz pyventory qrcode responses rsa schema semantic-version simplejson six soupsieve strictyaml
structlog typeguard typing-extensions uritools watchgod wcmatch wcwidth webcolors
""".split())


def _key(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name.lower())


def candidates(after: int = AFTER_RANK, also: frozenset[str] = frozenset()) -> list[tuple[int, str, str]]:
    """(rank, name, version) past ``after`` in popularity order, every exclusion (and ``also``) applied."""
    taken = {_key(e.name) for name in ("packages.json", "holdout.json") for e in listed(HERE / name)} | also
    wild = {_key(e["name"]) for e in json.loads((HERE.parent / "truth/wild/sdists.json").read_text())}
    rows = []
    for line in TSV.read_text(encoding="utf-8").splitlines()[1:]:
        cells = line.split("\t")
        if len(cells) >= 4 and cells[3].strip() and int(cells[3]) > after:
            rows.append((int(cells[3]), cells[0], cells[1]))
    return [r for r in sorted(rows) if r[2] and _key(r[1]) not in EXCLUDED | taken | wild]


def download(name: str, version: str, into: Path) -> tuple[Path | None, str]:
    """The sdist pip saves into its own folder under ``into`` (or why there is none)."""
    folder = into / _norm(name)
    folder.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                               f"{name}=={version}", "-d", str(folder)], capture_output=True, text=True, timeout=150,
                              check=False)
    except subprocess.TimeoutExpired:
        return None, "pip took over 150 s"
    new = [p for p in folder.iterdir() if _norm(p.name).startswith(_norm(f"{name}-{version}."))]
    if not new:
        return None, f"no sdist (pip exit {done.returncode})"
    return new[0], ""


def judge_candidate(rank: int, name: str, version: str, fetched: tuple[Path | None, str]) -> tuple[Entry | None, str]:
    archive, why = fetched
    if archive is None:
        return None, why
    if archive.stat().st_size > MAX_BYTES:
        return None, f"sdist {archive.stat().st_size // 2**20} MB"
    members = _members(archive)
    if any(m.endswith(_COMPILED) and "/test" not in m for m in members):
        return None, "compiled"
    cache = cache_dir()
    if not (cache / archive.name).exists():
        (cache / archive.name).write_bytes(archive.read_bytes())
    entry = Entry(name, version, archive.name, sha256_of(archive), members[0].split("/")[0], [], rank)
    docs = pick_docs(root_of(entry, cache))
    if not docs or not docs[0].startswith("README"):
        return None, "README shows no Python"
    return Entry(**{**asdict(entry), "docs": docs}), ""


def walk(queue: list[tuple[int, str, str]], need: int) -> tuple[list[Entry], list[str]]:
    """The first ``need`` candidates kept, in rank order, and why each one before the last kept was skipped."""
    into = Path(tempfile.mkdtemp(prefix="grow-"))
    taken: list[Entry] = []
    skipped: list[str] = []
    with ThreadPoolExecutor(CHUNK) as pool:  # downloads run ahead in parallel; candidates are judged in rank order
        while len(taken) < need and queue:
            chunk, queue = queue[:CHUNK], queue[CHUNK:]
            fetched = list(pool.map(lambda c: download(c[1], c[2], into), chunk))
            for (rank, name, version), got in zip(chunk, fetched, strict=True):
                if len(taken) >= need:
                    break
                entry, why = judge_candidate(rank, name, version, got)
                if entry is None:
                    skipped.append(f"{rank} {name} {version}: {why}")
                else:
                    taken.append(entry)
                print(f"{rank} {name}: {'kept' if entry else why}", flush=True)
    return taken, skipped


def grow() -> int:
    old = [*listed(HERE / "packages.json"), *listed(HERE / "holdout.json")]
    taken, skipped = walk(candidates(), TARGET - len(old))
    held = math.ceil(TARGET / 4)
    packages = ([{**asdict(e), "set": "dev", "origin": "packages.json"} for e in old[:70]]
                + [{**asdict(e), "set": "dev", "origin": "holdout.json"} for e in old[70:]]
                + [{**asdict(e), "set": "held_out" if i < held else "dev", "origin": "continuation"}
                   for i, e in enumerate(taken)])
    GROWN.write_text(json.dumps({"rule": __doc__.split("\n\n")[2], "skipped": skipped, "packages": packages},
                                indent=1) + "\n", encoding="utf-8")
    print(f"{len(packages)} packages ({held} held out), {len(skipped)} candidates skipped")
    return 0


def extend(after: int, count: int, which: str) -> int:
    """Continue the walk past rank ``after`` into ``grown.json`` as the set ``which``: the rule text first,
    written before any candidate is downloaded; the entries already there are left as they are."""
    data = json.loads(GROWN.read_text(encoding="utf-8"))
    if any(p["set"] == which for p in data["packages"]) or max(p["rank"] for p in data["packages"]) != after:
        raise SystemExit(f"grown.json already has {which}, or its last rank is not {after}")
    rule = next(part for part in __doc__.split("\n\n") if f"``{which}``" in part)  # the paragraph naming the set
    if rule not in data["rule"]:
        data["rule"] += "\n\n" + rule
        GROWN.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    taken, skipped = walk(candidates(after, frozenset(_key(p["name"]) for p in data["packages"])), count)
    data["skipped"] += skipped
    data["packages"] += [{**asdict(e), "set": which, "origin": "continuation"} for e in taken]
    GROWN.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"{len(taken)} packages in {which}, {len(skipped)} candidates skipped")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--continue-from", type=int, metavar="RANK", help="extend grown.json past this rank")
    parser.add_argument("--count", type=int, default=30, help="packages to keep when continuing")
    parser.add_argument("--set", default="held_out2", dest="which", help="the set the continued packages form")
    args = parser.parse_args(argv)
    return grow() if args.continue_from is None else extend(args.continue_from, args.count, args.which)


if __name__ == "__main__":
    raise SystemExit(main())
