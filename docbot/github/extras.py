"""What the PR comment adds to a run's report, read from the PR's head: the docs the new ones replace
(for the diff), the last trajectory of docs that are current (from the report, else their marker),
where each function is, and comment mode's apply path (the command and the docs patch).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path

from docbot.apidocs import homes
from docbot.apidocs.pages import Section, parse_doc_file
from docbot.errors import RepoError
from docbot.github.commit import docs_patch
from docbot.github.details import fence_for, utf8_size
from docbot.github.report import Extras
from docbot.github.sources import PrSources
from docbot.results import FunctionResult, RunReport, score_curve
from docbot.paths import write_atomic

PATCH_SHOWN = 20_000  # bytes of the docs patch shown inline in the comment; the artifact has all of it


def gather_extras(report: RunReport, sources: PrSources, mode: str, patch: Path, docstrings: str = "",
                  redact: Callable[[str], str] = str) -> Extras:
    """What the comment adds to the report, read from the head: the docs the new ones replace, the
    last trajectory of current docs, where each function is, and how to apply the docs."""
    heads = {path: parse_doc_file(text) for path in {r.doc_path for r in report.results if r.doc_path}
             if (text := sources.show(path)) is not None}
    old, last = {}, {}
    for result in report.results:
        key = homes.key_in(result.doc_path, result.module, result.qualname)  # a public page: ``module:qualname``
        section = heads[result.doc_path].sections.get(key) if result.doc_path in heads else None
        if section is not None and result.status == "updated":
            old[result.key] = section.body
        if section is not None and result.status == "unchanged":
            last[result.key] = last_trajectory(result, section)
    lines = {}
    if mode == "check":
        lines = {r.key: f"{r.path}:{site.def_line}" for r in report.results if r.status == "failed" and r.path
                 if (site := sources.site(r.path, r.module, r.qualname)) is not None}
    apply = ""
    patch.unlink(missing_ok=True)  # a patch left by an earlier publish in this folder is not this run's
    if mode == "comment" and report.written:
        try:
            apply = apply_section(sources.base, redact(docs_patch(sources.root, report.written, sources.head)), patch)
        except RepoError:  # not a git checkout of the head: no patch to offer
            apply = ""
    return Extras(old_docs=old, last_runs=last, lines=lines, apply=apply, docstrings=docstrings,
                  fix=f"on the PR branch run <code>docbot run --base {html.escape(sources.base)}</code> and "
                      "commit the docs; <code>docbot check</code> then passes.")


def last_trajectory(result: FunctionResult, section: Section) -> str:
    """A current doc's last run, from the report (its score curve) or else from its marker."""
    state = f" ({section.status.value})" if section.status else ""
    if result.scores:
        return f"{score_curve(result.scores)} vs {result.bar}{state}, last run"
    if section.score is not None:
        return f"{section.score} vs {result.bar}{state}, last run"
    return f"doc current{state}"


def apply_section(base: str, patch_text: str, patch: Path) -> str:
    """How to take the docs in comment mode: the command, and the patch (artifact and inline)."""
    if not patch_text:
        return ""
    try:
        write_atomic(patch, patch_text)
    except OSError:
        pass  # the inline copy below still carries it
    files = patch_text.count("\ndiff --git ") + patch_text.startswith("diff --git ")
    command = f"<code>docbot run --base {html.escape(base)}</code>"
    text = (f"**Apply these docs:** on the PR branch run {command} and commit the docs, or download this run's "
            f"<code>docbot-docs</code> artifact and run <code>git apply {patch.name}</code>.\n\n")
    if utf8_size(patch_text) > PATCH_SHOWN:
        return text + f"_The patch ({utf8_size(patch_text):,} bytes) is too long for this comment; it is in " \
                      "the artifact._\n\n"
    fence = fence_for(patch_text)
    return (text + f"<details><summary>The docs patch ({files} {'file' if files == 1 else 'files'})</summary>\n\n"
            f"{fence}diff\n{patch_text.rstrip(chr(10))}\n{fence}\n\n</details>\n\n")
