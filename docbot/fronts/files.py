"""The CLI's own file reads and writes, each failure a ``ConfigError`` naming the file (exit 2).

Python sources are read the way Python reads them (``tokenize.open``: a coding cookie or a BOM decides
the encoding); docs are UTF-8. A file that is not text is refused here, before any check or model.
"""

from __future__ import annotations

import ast
import tokenize
from pathlib import Path

from docbot.errors import ConfigError


def read_source(path: Path, *, parse: bool = False) -> str:
    """A Python source's text; with ``parse``, also refuse one that does not parse."""
    try:
        with tokenize.open(path) as handle:
            text = handle.read()
    except OSError as err:
        raise ConfigError(f"{path}: cannot read it ({err.strerror}).") from err
    except (SyntaxError, UnicodeDecodeError) as err:  # a bad coding cookie, or bytes its encoding rejects
        raise ConfigError(f"{path}: not a Python source in a readable encoding ({_why(err)}); "
                          "save it as UTF-8 or give it a coding cookie.") from err
    if "\0" in text:
        raise ConfigError(f"{path}: a binary file (NUL bytes), not a Python source.")
    if parse:
        try:
            ast.parse(text, filename=str(path))
        except (SyntaxError, ValueError) as err:
            where = f" at line {err.lineno}" if isinstance(err, SyntaxError) and err.lineno else ""
            raise ConfigError(f"{path}: does not parse{where}; fix the syntax error first.") from err
    return text


def read_doc(path: Path) -> str:
    """A Markdown doc's text (UTF-8, a BOM allowed)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as err:
        raise ConfigError(f"{path}: cannot read it ({err.strerror}).") from err
    except UnicodeDecodeError as err:
        raise ConfigError(f"{path}: not UTF-8 text ({_why(err)}); save the doc as UTF-8.") from err
    if "\0" in text:
        raise ConfigError(f"{path}: a binary file (NUL bytes), not a Markdown doc.")
    return text


def write_output(path: Path, text: str) -> None:
    """Write a result file, creating its folder; a path that cannot be written is the user's to fix."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        raise ConfigError(f"{path}: cannot write the output ({err.strerror or err}); "
                          "pass a writable --output.") from err


def _why(err: Exception) -> str:
    if isinstance(err, UnicodeDecodeError):
        return f"{err.encoding} cannot decode byte {err.start}"
    return str(err.args[0]) if err.args else type(err).__name__
