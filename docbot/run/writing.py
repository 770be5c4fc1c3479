"""Writing one module's results into its page: the last step of ``docbot run`` (docbot.run.pipeline).

The page is the public module's (docbot.apidocs.homes), shared with the other modules it re-exports, so
only this module's sections change; sections still on a page named after the private module (a legacy
page) are moved over, markers and all, and taken off it once the public page holds them. A section a
person wrote is kept (docbot.run.kept). A page edited while the run worked is not written.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from docbot.apidocs import disk, homes, pages
from docbot.plan import ModuleDocs
from docbot.results import DocNotice, FunctionResult, NoticeKind, Outcome, Target
from docbot.run.kept import kept_by_person


def write_module(plan: ModuleDocs, to_document: list[tuple[Target, str]], results: dict[str, FunctionResult],
                 repo_root: Path, written_now: dict[str, str | None]
                 ) -> tuple[list[FunctionResult], list[str], list[DocNotice]]:
    """Merge the module's results into its page (docbot.apidocs.homes); returns the final results, the
    files written and the notices for a person (kept edits, duplicates, removals). ``written_now``: the
    pages this run already wrote (a public page holds several modules), what they now hold."""
    assert plan.home is not None  # plan_modules gives every module its page
    base = written_now.get(plan.doc_rel, plan.old_text)
    base_doc = pages.parse_doc_file(base) if base is not None else None
    hashes = {target.qualname: hash_ for target, hash_ in to_document}
    results, updates = kept_by_person(plan, results, {q: _section(hashes[q], r) for q, r in results.items()
                                                      if q in hashes and r.status == "updated"})
    removals = {q for q, r in results.items() if r.removed}
    moved = plan.home.to_move(plan.name)
    if plan.order is None and not updates and not moved:
        text = base  # code unreadable and nothing new: leave the file exactly as it is
    else:
        order = plan.order if plan.order is not None else list(plan.existing.sections if plan.existing else [])
        text = homes.merge_module(base_doc, plan.home.page, plan.name, order, {**moved, **updates}, removals)
        text = pages.keep_if_same(base, base_doc, text)
    written, notices = [], disk.notices(plan.doc_rel, base_doc, text)
    if text != base and disk.write_text(repo_root, plan.doc_rel, text, read_as=base):
        written.append(plan.doc_rel)
        written_now[plan.doc_rel] = text
    elif text != base:  # a person edited the file meanwhile: their version stands, the legacy page too
        results, notice = _kept_edit(plan, results)
        notices, text = [notice], base
    if not notices or notices[0].kind is not NoticeKind.EDITED_DURING_RUN:
        written += _move_out(plan, repo_root)  # the page holds the module's sections now
    view = homes.module_view(pages.parse_doc_file(text), plan.home.page, plan.name) if text is not None else None
    final_sections = view.sections if view is not None else {}
    final = [replace(results[t.qualname], doc_path=plan.doc_rel if t.qualname in final_sections else "")
             for t in plan.targets]
    return final + _orphan_results(plan, final_sections), written, notices


def _section(hash_: str, result: FunctionResult) -> pages.Section:
    body = _visible(result)
    return pages.Section(hash_, body, result.approval, result.scores[-1] if result.approval and result.scores else None,
                         digest=pages.body_digest(body))


def _move_out(plan: ModuleDocs, repo_root: Path) -> list[str]:
    """Take the module's sections off its legacy page once its public page holds them; the text a person
    wrote there stays (the file goes only when nothing else is left). Edited meanwhile: left for next run."""
    home = plan.home
    if home is None or home.legacy_doc is None:
        return []
    text = pages.merge(home.legacy_doc, plan.name, [], {}, set(home.legacy_doc.sections))
    return [home.legacy_rel] if disk.write_text(repo_root, home.legacy_rel, text, read_as=home.legacy_text) else []


def _visible(result: FunctionResult) -> str:
    """The body to write: an unapproved one carries its note for readers (docs/design.md#gate)."""
    if result.outcome is not Outcome.UNAPPROVED:
        return result.markdown
    from docbot.apidocs.render import with_gate_note  # the doc model's module: only when a model ran

    return with_gate_note(result.markdown, result.approval)


def _kept_edit(plan: ModuleDocs, results: dict[str, FunctionResult]) -> tuple[dict[str, FunctionResult], DocNotice]:
    """Every change this run meant to make to the module's file, turned into a failure saying why."""
    unwritten = tuple(q for q, r in results.items() if r.status == "updated")
    reason = f"{plan.doc_rel} was edited while docbot ran: that version is kept and nothing was written"
    kept = {q: replace(r, status="failed", reason=reason) if q in unwritten else r for q, r in results.items()}
    return kept, DocNotice(NoticeKind.EDITED_DURING_RUN, plan.doc_rel, unwritten)


def _orphan_results(plan: ModuleDocs, final_sections: dict[str, pages.Section]) -> list[FunctionResult]:
    """Sections dropped because their function is gone, though no target named it."""
    old = plan.existing.sections if plan.existing else {}
    named = {t.qualname for t in plan.targets}
    return [FunctionResult.removed_section(plan.name, qualname)
            for qualname in old if qualname not in final_sections and qualname not in named]
