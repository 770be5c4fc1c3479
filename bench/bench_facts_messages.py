"""A perfect writer against the loop's gates, on code we did not write: the stdlib's formatted raise messages.

    python -m bench.bench_facts_messages             # prints, writes its section of bench/RESULTS.md
    python -m bench.bench_facts_messages --no-write

The rule, fixed before any result was read: every public function (docbot run's rules) of the running
interpreter's top-level pure-Python stdlib modules (``sys.stdlib_module_names`` with a ``.py`` file) that has a
raise site a caller sees whose message the code formats (an f-string, ``%``, ``.format``, ``+``).

The writer is perfect: its model holds exactly what the Facts block (``Facts.to_prompt``) shows, each raises entry
copying the message between the parentheses of its Facts line, in two readings: the argument as shown, and the
text of its string literal alone (what "exact message" asks for). Counted: functions whose model fails the
loop's exact checks (``check_model``: a fatal finding), and the raises messages the page docbot renders after
``repair`` shows in a form the code does not write (its ``{n}`` reading of a ``%r``, a message that is not the
literal's text or the template as written).
"""

from __future__ import annotations

import argparse
import html
import re
import sys
import sysconfig
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench.common import machine, publish
from docbot.apidocs.render import render_section
from docbot.docmodel import DocModel, ParameterDoc, RaisesDoc
from docbot.facts.function import Facts, extract_facts
from docbot.loop.prompts import ECHO_SENTENCES
from docbot.loop.repair import repair
from docbot.scan.targets import SourceParseError, public_functions
from docbot.verify.checks.model import check_model

SECTION = "## Facts block: a perfect writer on the stdlib's formatted raise messages"
# The same script run on main at db8e4ee (before the Facts block showed a template as the code writes it)
BEFORE = ("Before (main at db8e4ee, this script): in both readings 109 of 178 functions failed the gates "
          "(template_placeholder 107, invented_return 3 — a copied message read as a return claim —, misquoted_message "
          "2), and 202 of the 321 messages rendered after repair were a template's `{n}` reading, not the code's "
          "spelling (for `%r`, not even the message it gives).")
_LITERAL = re.compile(r"""^[rbuf]*("|')(?P<text>(?:\\.|(?!\1).)*)\1""", re.IGNORECASE)


@dataclass(frozen=True)
class Case:
    module: str
    qualname: str
    facts: Facts


def cases() -> list[Case]:
    """The functions the rule takes, in module order."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    found = []
    for name in sorted(sys.stdlib_module_names):
        path = stdlib / f"{name}.py"
        if name.startswith("_") or not path.is_file():
            continue
        try:
            functions = public_functions(path.read_text(encoding="utf-8"), name, str(path))
        except (SourceParseError, UnicodeDecodeError):
            continue
        for target in functions:
            try:
                facts = extract_facts(target.source, target.qualname)
            except (SyntaxError, ValueError):
                continue
            if any(len(r.parts) > 1 for r in facts.propagated_raises if r.exception):
                found.append(Case(name, target.qualname, facts))
    return found


def shown_raises(facts: Facts, literal_only: bool) -> tuple[RaisesDoc, ...]:
    """The raises entries a writer copies from the Facts block's lines (docbot.facts.raises.Raise.describe):
    the line's text between ``Type(`` and the ``)`` before its condition."""
    entries = []
    for site in facts.raises:
        line = f"- {site.describe()}"  # the Raises line of Facts.to_prompt (a message may hold a newline)
        head = f"- {site.exception}("
        tail = "".join([f" when {site.condition}" if site.condition else "",
                        f" (raised from {site.cause})" if site.cause else "",
                        " (caught inside the function, not seen by callers)" if site.caught_locally else ""])
        if site.is_reraise or site.caught_locally or not site.exception:
            continue  # a caller never sees it: a perfect writer leaves it out
        if not (line.startswith(head) and line.endswith(")" + tail)):
            continue  # no message shown
        argument = line[len(head): len(line) - len(tail) - 1]
        literal = _LITERAL.match(argument)
        # the template string alone: a lone literal's text, or the one before `%` or `.format(` (a `+` has none)
        alone = literal is not None and (literal.end() == len(argument) or literal_only and (
            argument[literal.end():].lstrip().startswith(("%", ".format("))))
        message = literal["text"] if literal and alone else argument
        entries.append(RaisesDoc(type=site.exception, message=message.replace('\\"', '"'),
                                 condition=site.condition or ""))
    return tuple(entries)


def perfect_model(facts: Facts, literal_only: bool) -> DocModel:
    return DocModel(summary="Does what the code does.",
                    parameters=tuple(ParameterDoc(name=p.name, description="As given.")
                                     for p in facts.documentable_parameters),
                    returns="The result." if facts.returns_value else "",
                    raises=shown_raises(facts, literal_only))


def rendered_messages(model: DocModel, facts: Facts, module: str) -> list[str]:
    """The messages of the page's Raises list, as a reader reads them."""
    page = render_section(model, facts, module).split("**Raises**", 1)
    return [html.unescape(m) for m in re.findall(r"^- <code>[^<]*</code>: <code>(.*?)</code>", page[1], re.M)] \
        if len(page) > 1 else []


def written_forms(facts: Facts) -> set[str]:
    """The messages the code produces literally, and each template as the code writes it."""
    forms = set()
    for site in facts.propagated_raises:
        if len(site.parts) <= 1 and site.message is not None:
            forms.add(site.message)
        written = getattr(site, "written", None)
        if written:
            forms.add(written)
    return forms


def measure() -> dict[str, Counter[str]]:
    counts: dict[str, Counter[str]] = {}
    for reading, literal_only in (("as shown", False), ("literal text only", True)):
        tally: Counter[str] = Counter()
        for case in cases():
            model = perfect_model(case.facts, literal_only)
            found = check_model(model, case.facts, lambda examples: [], prompts=ECHO_SENTENCES)
            fatal = sorted({f.check.value for f in found if f.fatal})
            tally["functions"] += 1
            tally["failing"] += bool(fatal)
            tally.update(f"fails: {kind}" for kind in fatal)
            fixed = repair(model, case.facts, [], found).model
            forms = written_forms(case.facts)
            wrong = [m for m in rendered_messages(fixed, case.facts, case.module) if m not in forms]
            tally["messages rendered"] += len(rendered_messages(fixed, case.facts, case.module))
            tally["rendered unlike the code"] += len(wrong)
        counts[reading] = tally
    return counts


def report(counts: dict[str, Counter[str]]) -> str:
    rows = ["| the writer copies | functions | failing the gates | by check | messages rendered after repair | "
            "rendered in a form the code does not write |", "| --- | --- | --- | --- | --- | --- |"]
    for reading, tally in counts.items():
        kinds = ", ".join(f"{k.removeprefix('fails: ')} {v}" for k, v in sorted(tally.items()) if k.startswith("fails"))
        rows.append(f"| {reading} | {tally['functions']} | {tally['failing']} | {kinds or '—'} | "
                    f"{tally['messages rendered']} | {tally['rendered unlike the code']} |")
    return "\n".join([SECTION, "", f"Machine: {machine()}. `python -m bench.bench_facts_messages`.", "", *rows, "",
                      BEFORE, ""])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    publish(report(measure()), not args.no_write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
