"""The file between the Action's two steps: the run step (models and examples, no token) writes the
run's report; the publish step (the token, no model) reads it back and publishes it.

Everything in it is redacted before it is written, so even the file on the runner holds no secret.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from docbot.errors import ConfigError
from docbot.github.logsafe import Redactor
from docbot.results import DocNotice, FunctionResult, NoticeKind, RunReport, SectionStatus
from docbot.paths import write_atomic

FORMAT = "docbot-run/1"
STYLE_SETTINGS = ("auto", "google", "numpy", "sphinx")  # docbot.config.settings.Settings.docstring_style


@dataclass(frozen=True)
class StageOptions:
    """What the publish step needs of the run's settings (it loads none itself)."""

    write_docstrings: bool = False
    docstring_style: str = "auto"  # the ``docstring_style`` setting: the review's suggestions use the project's style


def write_run_report(path: Path, report: RunReport, redact: Redactor, options: StageOptions = StageOptions()) -> None:
    """The run step's report, redacted (secret shapes are word characters: JSON stays valid)."""
    text = json.dumps({"format": FORMAT, **report.to_json(), "options": asdict(options)}, indent=2,
                      ensure_ascii=False)
    try:
        write_atomic(path, redact(text) + "\n")
    except OSError as err:
        raise ConfigError(f"{path}: cannot write the run's report ({err.strerror}).") from err


def read_run_report(path: Path) -> tuple[RunReport, StageOptions]:
    """The report the run step wrote; a missing or foreign file is a clear error."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ConfigError(f"{path}: cannot read the run's report ({err}); the run step writes it with "
                          "`docbot-action run --report FILE`.") from err
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ConfigError(f"{path}: not a docbot run report ({FORMAT}).")
    report = RunReport(results=[_result(r) for r in data.get("results", [])], written=list(data.get("written", [])),
                       scan_errors=list(data.get("scan_errors", [])), base=str(data.get("base", "")),
                       head=str(data.get("head", "")), notices=[_notice(n) for n in data.get("notices", [])])
    options = data.get("options") or {}
    style = options.get("docstring_style")
    return report, StageOptions(write_docstrings=options.get("write_docstrings") is True,
                                docstring_style=style if style in STYLE_SETTINGS else "auto")


def _result(data: dict[str, Any]) -> FunctionResult:
    """One result back from its JSON: the typed fields (verdict, outcome, repairs, doc model) rebuilt;
    the outcome is the run step's, read back, never decided again here."""
    names = {f.name for f in fields(FunctionResult)}
    values = {k: v for k, v in data.items() if k in names}
    values["approval"] = SectionStatus(values["approval"]) if values.get("approval") else None
    values["repairs"] = tuple(str(line) for line in values.get("repairs") or ())
    values["warnings"] = tuple(str(line) for line in values.get("warnings") or ())
    if values.get("doc_model") is not None:
        from docbot.docmodel import DocModel  # pydantic: only when a doc model was written

        values["doc_model"] = DocModel.model_validate(values["doc_model"])
    return FunctionResult(**values)


def _notice(data: dict[str, Any]) -> DocNotice:
    return DocNotice(kind=NoticeKind(data["kind"]), doc_path=str(data["doc_path"]),
                     qualnames=tuple(data.get("qualnames", ())))
