"""``docbot verify``'s core: check every documented public function of a source file against a doc.

Works on any Markdown doc: each function's section is found by its heading. The source's public
functions are found with the same rules ``docbot run`` uses (docbot.targets); it needs only two texts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from docbot import targets
from docbot.errors import ConfigError
from docbot.settings import ExampleSandbox
from docbot.targets import SourceParseError
from docbot.verify.check import check_doc
from docbot.verify.findings import ExampleContext, Finding
from docbot.verify.sections import find_section


@dataclass(frozen=True)
class FunctionFindings:
    qualname: str
    findings: list[Finding] = field(default_factory=list)
    section_found: bool = True

    @property
    def fatal(self) -> list[Finding]:
        return [f for f in self.findings if f.fatal]


def public_functions(source_text: str) -> dict[str, str]:
    """qualname -> the function's own text (decorators included, dedented), in source order.

    The same public rules as ``docbot run`` (``__all__``, private names and classes, ``__init__``,
    overloads and property setters grouped), so verify checks exactly what run documents.
    """
    try:
        return {t.qualname: t.source for t in targets.public_functions(source_text, "source", "the source")}
    except SourceParseError as error:
        raise ConfigError(f"{error}; fix the syntax and run docbot verify again") from error


def section_names(qualname: str) -> list[str]:
    """Headings that may document ``qualname``: ``Class.__init__`` is often documented as ``Class``."""
    if qualname.endswith(".__init__"):
        return [qualname, qualname.rsplit(".", 1)[0]]
    return [qualname]


def select(functions: dict[str, str], name: str) -> str:
    """The qualname ``--function NAME`` means: exact, or a unique method/function name."""
    if name in functions:
        return name
    matches = [q for q in functions if q.rsplit(".", 1)[-1] == name]
    if len(matches) == 1:
        return matches[0]
    choices = ", ".join(functions) or "none"
    if matches:
        raise ConfigError(f"--function {name} is ambiguous ({', '.join(matches)}); pass Class.method")
    raise ConfigError(f"no public function {name} in the source; public functions: {choices}")


def verify_source_doc(source_text: str, doc_text: str, module: str, sys_path: tuple[str, ...],
                      function: str | None = None, run_examples: bool = True,
                      timeout_s: float = 10.0, sandbox: ExampleSandbox = "os") -> list[FunctionFindings]:
    functions = public_functions(source_text)
    wanted = [select(functions, function)] if function else list(functions)
    context = ExampleContext(module, sys_path, timeout_s, sandbox=sandbox) if run_examples else None
    report: list[FunctionFindings] = []
    for qualname in wanted:
        section = next((s for s in (find_section(doc_text, n) for n in section_names(qualname)) if s), None)
        if section is None:
            if function:
                report.append(FunctionFindings(qualname, [], section_found=False))
            continue
        report.append(FunctionFindings(qualname, check_doc(section, functions[qualname], qualname, context)))
    return report
