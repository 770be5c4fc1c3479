"""Truth-check benchmark: detection rate per injected error class, false positives on correct docs.

Run from the repository root:  python -m bench.truth.run [--jobs 2] [--no-write]

For every public function of the corpus (bench/truth/corpus/*.py, docs in corpus/docs/*.md), the
untouched doc section is checked (any fatal finding is a false positive), then every mutation of it
(bench/truth/mutate.py) is checked: a mutation counts as detected when a fatal finding of a kind
that names its error class comes back. Examples run in the sandbox exactly as in ``docbot verify``.
"""

from __future__ import annotations

import argparse
import platform
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from bench.truth.mutate import CLASSES, Mutation, mutations
from docbot.facts.function import extract_facts
from docbot.verify.checks.examples import ExampleContext
from docbot.verify.checks.page import check_doc
from docbot.verify.findings import Finding, Severity
from docbot.verify.read.sections import find_section
from docbot.verify.checks.source_doc import public_functions, section_names

HERE = Path(__file__).resolve().parent

CORPUS = HERE / "corpus"
# The finding kinds that count as catching each error class.
EXPECTED = {
    "wrong_exception_type": {"wrong_exception_type", "missing_exception"},
    "misquoted_message": {"misquoted_message"},
    "missing_raise": {"missing_exception"},
    "invented_parameter": {"invented_parameter"},
    "missing_parameter": {"missing_parameter"},
    "wrong_default": {"wrong_default"},
    "wrong_example_output": {"example_mismatch"},
    "example_raises": {"example_raises"},
    "invented_return": {"invented_return"},
}
# Omissions are gaps, never fatal (docbot.verify.findings): these classes are detected by a gap of their kind.
GAP_CLASSES = {"missing_raise", "missing_parameter"}


@dataclass(frozen=True)
class Case:
    module: str
    qualname: str
    source: str
    section: str
    mutation: Mutation | None  # None: the untouched doc


@dataclass
class Outcome:
    case: Case
    findings: list[Finding] = field(default_factory=list)

    @property
    def fatal(self) -> list[Finding]:
        return [f for f in self.findings if f.fatal]

    @property
    def detected(self) -> bool:
        assert self.case.mutation is not None
        error_class = self.case.mutation.error_class
        pool = [f for f in self.findings if f.severity is Severity.GAP] if error_class in GAP_CLASSES else self.fatal
        return any(f.check in EXPECTED[error_class] for f in pool)


def build_cases() -> tuple[list[Case], int]:
    cases: list[Case] = []
    functions = 0
    for source_path in sorted(CORPUS.glob("*.py")):
        module = source_path.stem
        doc = (CORPUS / "docs" / f"{module}.md").read_text(encoding="utf-8")
        for qualname, source in public_functions(source_path.read_text(encoding="utf-8")).items():
            section = next((s for s in (find_section(doc, n) for n in section_names(qualname)) if s), None)
            if section is None:
                raise SystemExit(f"corpus error: {module}.{qualname} has no section in docs/{module}.md")
            functions += 1
            cases.append(Case(module, qualname, source, section, None))
            facts = extract_facts(source, qualname)
            cases += [Case(module, qualname, source, section, m) for m in mutations(section, facts)]
    return cases, functions


def check(case: Case) -> Outcome:
    doc = case.mutation.doc if case.mutation else case.section
    context = ExampleContext(case.module, (str(CORPUS),), timeout_s=10.0)
    module_source = (CORPUS / f"{case.module}.py").read_text(encoding="utf-8")  # for the stated return type
    return Outcome(case, check_doc(doc, case.source, case.qualname, context, module_source=module_source))


def summarize(outcomes: list[Outcome], functions: int, seconds: float) -> str:
    clean = [o for o in outcomes if o.case.mutation is None]
    false_positives = [o for o in clean if o.fatal]
    notes = sum(len(o.findings) - len(o.fatal) for o in clean)
    lines = ["| error class | mutations | detected | rate |", "|---|---:|---:|---:|"]
    misses: list[str] = []
    for error_class in CLASSES:
        of_class = [o for o in outcomes if o.case.mutation and o.case.mutation.error_class == error_class]
        hits = sum(o.detected for o in of_class)
        rate = f"{100 * hits / len(of_class):.1f}%" if of_class else "n/a"
        lines.append(f"| {error_class} | {len(of_class)} | {hits} | {rate} |")
        misses += [(f"- {error_class}: {o.case.module}.{o.case.qualname}: {o.case.mutation.description} "
                    f"(findings: {[f.check for f in o.fatal] or 'none'})") for o in of_class
                   if not o.detected and o.case.mutation]
    mutated = len(outcomes) - len(clean)
    modules = len(list(CORPUS.glob("*.py")))
    lines += ["", f"Corpus: {functions} functions in {modules} modules; {mutated} mutated docs.",
              (f"False positives: {len(false_positives)} of {len(clean)} untouched docs had a fatal finding "
               f"({notes} non-fatal findings)."), f"Time: {seconds:.0f} s."]
    for outcome in false_positives:
        lines.append(f"- false positive: {outcome.case.module}.{outcome.case.qualname}: "
                     + "; ".join(f.message for f in outcome.fatal))
    if misses:
        lines += ["", "Missed:", *misses]
    return "\n".join(lines)


RESULTS_HEADER = """# Truth-check benchmark results

Detection of injected documentation errors by `docbot.verify.check_doc` (static checks plus examples
executed in the sandbox), and false positives on the untouched, correct docs.

Rerun from the repository root (about a minute on 2 cores):

    python -m bench.truth.run            # prints the table and rewrites this file
    python -m bench.truth.run --no-write # prints only

The corpus (`bench/truth/corpus/*.py` with Markdown docs in `corpus/docs/`) was written for this
benchmark: plain functions, keyword-only and positional-only parameters, `*args`/`**kwargs`,
generators, an async function, methods, a property, a classmethod and a staticmethod, f-string,
`%` and `.format` messages, re-raises and `raise ... from`. Docs use five styles: Markdown tables,
bullet lists, Google-style `Args:`, numpy-style underlined sections, and `###` sub-headings; examples
are doctests, `# ->` comments and output blocks.

`bench/truth/mutate.py` (with `mutate_examples.py`) injects one error per doc, reading the doc with
its own rules in `doctext.py`, not the checker's. A mutation is detected when a *fatal* finding of
the matching kind comes back (any other fatal finding does not count); a left-out parameter or raise
is an omission, which docbot reports as a *gap* (never fatal), so those two classes are detected by a
gap of the matching kind. Wrong example outputs change
one digit or letter of the stated output (or flip a bool); raising examples get an argument list that
cannot bind (an unknown keyword, or one positional argument too many), so Python itself raises
`TypeError`. Not generated: an invented parameter for a function taking `**kwargs` (it accepts any
keyword, so nothing is provably invented), and a raising call for a function taking both `*args` and
`**kwargs` (no argument list must fail to bind). Non-fatal notes (e.g. a builtin exception documented
but not raised explicitly) are counted but are not false positives: they never block approval.

Caveat: the corpus and the checks were written by the same person, and the mutations are mechanical
edits; errors a model makes in the wild can be subtler (a paraphrased message, a default described in
words). A miss found that way belongs in the corpus as a new shape, not as an edit of the checker
tuned to one doc.
"""


def kept_wild_section(text: str) -> str:
    """The "Wild corpus" section (written by bench.truth.wild.run) of the old RESULTS.md, to keep it."""
    start = text.find("\n## Wild corpus\n")
    if start == -1:
        return ""
    end = text.find("\n## ", start + 1)
    return text[start + 1 : end + 1 if end != -1 else None].rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-write", action="store_true", help="print only, do not rewrite RESULTS.md")
    args = parser.parse_args(argv)
    started = time.monotonic()
    cases, functions = build_cases()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:  # the work is in sandbox subprocesses
        outcomes = list(pool.map(check, cases))
    report = summarize(outcomes, functions, time.monotonic() - started)
    print(report)
    if not args.no_write:
        machine = f"Measured on {time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, {args.jobs} jobs."
        results = HERE / "RESULTS.md"
        wild = kept_wild_section(results.read_text(encoding="utf-8") if results.exists() else "")
        results.write_text(f"{RESULTS_HEADER}\n{machine}\n\n{report}\n" + (f"\n{wild}" if wild else ""),
                           encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
