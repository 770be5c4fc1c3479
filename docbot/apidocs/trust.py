"""What ``docbot check`` no longer takes on a marker's word (docs/design.md#check-states).

A section's marker is text anyone who can commit can write: every field is a public digest, so a pull request
can write ``status=approved score=100 body=<digest>`` over any body with the current ``hash=``. So:

- a section a person kept (a docbot section whose body they edited, or their own section under a heading that
  names the function) is held to the exact checks (parameters, defaults, raises, return types, and its
  examples where the settings run examples) on every check: one that contradicts the code is
  ``contradicted``, a failure like a stale one;
- with a trusted base (``check --base``, the Action's check mode), the ``status=`` of a section the diff wrote
  is re-derived, never read: it is approved only where the base holds the same section with that verdict;
  otherwise its body is held to the exact checks too, and a section they pass is listed unapproved ("its
  approval was written in this diff"), which fails only ``--strict``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from docbot.apidocs import pages
from docbot.apidocs.homes import names_function
from docbot.apidocs.pages import DocFile, Section
from docbot.results import SectionStatus, Target

if TYPE_CHECKING:
    from docbot.scan.diff_read import DiffRead

REWRITTEN = "its status= was written in this diff; the base does not show docbot approving this section"


@dataclass(frozen=True)
class Examples:
    """Whether and how a kept section's examples run (the settings of the same names)."""

    run: bool = False
    timeout_s: float = 10.0
    sandbox: str = "os"


def kept_sections(targets: Sequence[Target], existing: DocFile | None, hand_written: frozenset[str],
                  texts: Sequence[str]) -> list[tuple[Target, str]]:
    """(function, body) of each section a person kept among a module's ``targets``: a docbot section they edited
    (``existing``), or their own under a heading that names it (``hand_written``, found in ``texts``: the pages)."""
    sections = existing.sections if existing else {}
    found = []
    for target in targets:
        section = sections.get(target.qualname)
        if target.kind == "deleted":
            continue
        if section is not None and section.hand_edited:
            found.append((target, section.body))
        elif section is None and names_function(hand_written, target.qualname):
            from docbot.verify.read.sections import find_section  # the verify room: only for a person's section

            body = next((s for t in texts if (s := find_section(t, target.qualname)) is not None), "")
            found.append((target, body))
    return found


def contradiction(target: Target, body: str, root: Path, examples: Examples) -> str:
    """The first thing ``body`` states that the code contradicts ("" when the exact checks find none)."""
    if not body.strip():
        return ""
    from docbot.verify.checks.examples import ExampleContext
    from docbot.verify.checks.page import check_doc

    context = ExampleContext(target.module, (str(root), str(root / "src")), examples.timeout_s,
                             sandbox=examples.sandbox) if examples.run else None  # type: ignore[arg-type]
    fatal = [f.message for f in check_doc(body, target.source, target.qualname, context) if f.fatal]
    return fatal[0] if fatal else ""


def trusted(section: Section, on_base: Section | None) -> bool:
    """Whether a section's verdict is the base's: the base holds the very section (marker and body)."""
    return on_base is not None and on_base == section


def base_page(read: Callable[[str], str | None], rel: str) -> DocFile | None:
    """The base's version of a doc page (``read``: repo-relative path -> the base's text, None when absent)."""
    text = read(rel)
    return pages.parse_doc_file(text) if text is not None else None


def rewritten_approvals(targets: Sequence[Target], existing: DocFile | None, on_base: DocFile | None) -> list[Target]:
    """The current sections among a module's ``targets`` marked approved whose verdict the base does not show."""
    sections = existing.sections if existing else {}
    base_sections = on_base.sections if on_base else {}
    return [t for t in targets if t.kind != "deleted" and (s := sections.get(t.qualname)) is not None
            and s.status is SectionStatus.APPROVED and not s.hand_edited
            and s.hash == pages.source_hash(t.source) and not trusted(s, base_sections.get(t.qualname))]


def sources_of_changed_pages(root: Path, base: str, head: str | None, docs_dir: str, *,
                             diff: DiffRead | None = None) -> list[str]:
    """The Python files whose doc pages ``base...head`` changed: a PR that edits only docs/api brings those
    pages' sections into ``check --base``'s scope (else a forged verdict on them is never looked at).
    ``diff``: git's reading of ``base...head`` when the caller has it (its list of edited paths is shared)."""
    from docbot.git.repo import DiffSpec, diff_plan, open_repo, tracked_python_files
    from docbot.scan.diff_read import edited_paths
    from docbot.scan.targets import module_name

    if diff is not None:
        folder = Path(docs_dir).as_posix() + "/"  # as git's pathspec ``-- docs/api`` would take it
        listed: Sequence[str] = [p for p in diff.edited(root) if p.startswith(folder)]
    else:
        listed = edited_paths(root, diff_plan(open_repo(root), DiffSpec(base=base, head=head)), docs_dir)
    changed = [p for p in listed if p.endswith(".md")]
    if not changed:
        return []
    modules: set[str] = set()
    for rel in changed:
        modules.add(Path(rel).stem)
        text = (root / rel).read_text(encoding="utf-8", errors="replace") if (root / rel).is_file() else ""
        modules |= {section.module for section in pages.parse_doc_file(text).sections.values() if section.module}
    return [path for path in tracked_python_files(root) if module_name(path) in modules]
