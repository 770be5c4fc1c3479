"""TEST SUPPORT: count what ``ast.parse`` is given, for tests that hold a path to one parse per text."""

from __future__ import annotations

import ast

import pytest


def counted_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text ``ast.parse`` is given from here on (the real parse still runs), in order."""
    seen: list[str] = []
    real = ast.parse

    def counting(source: str | bytes, *args: object, **kwargs: object) -> ast.AST:
        seen.append(source if isinstance(source, str) else source.decode())
        return real(source, *args, **kwargs)  # type: ignore[call-overload,no-any-return]

    monkeypatch.setattr(ast, "parse", counting)
    return seen
