"""The file between the Action's two steps: the run step (models and examples, no token) writes the
run's report; the publish step (the token, no model) reads it back and publishes it.

Everything in it is redacted before it is written, so even the file on the runner holds no secret.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

from docbot.errors import ConfigError
from docbot.github.logsafe import Redactor
from docbot.results import DocNotice, FunctionResult, NoticeKind, RunReport

FORMAT = "docbot-run/1"


def write_run_report(path: Path, report: RunReport, redact: Redactor) -> None:
    """The run step's report, redacted (secret shapes are word characters: JSON stays valid)."""
    text = json.dumps({"format": FORMAT, **report.to_json()}, indent=2, ensure_ascii=False)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(redact(text) + "\n", encoding="utf-8")
    except OSError as err:
        raise ConfigError(f"{path}: cannot write the run's report ({err.strerror}).") from err


def read_run_report(path: Path) -> RunReport:
    """The report the run step wrote; a missing or foreign file is a clear error."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ConfigError(f"{path}: cannot read the run's report ({err}); the run step writes it with "
                          "`docbot-action run --report FILE`.") from err
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ConfigError(f"{path}: not a docbot run report ({FORMAT}).")
    return RunReport(results=[_result(r) for r in data.get("results", [])], written=list(data.get("written", [])),
                     scan_errors=list(data.get("scan_errors", [])), base=str(data.get("base", "")),
                     head=str(data.get("head", "")), notices=[_notice(n) for n in data.get("notices", [])])


def _result(data: dict[str, Any]) -> FunctionResult:
    names = {f.name for f in fields(FunctionResult)}
    return FunctionResult(**{k: v for k, v in data.items() if k in names})


def _notice(data: dict[str, Any]) -> DocNotice:
    return DocNotice(kind=NoticeKind(data["kind"]), doc_path=str(data["doc_path"]),
                     qualnames=tuple(data.get("qualnames", ())))
