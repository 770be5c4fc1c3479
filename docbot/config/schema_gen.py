"""Writes ``docbot/config/schema.py`` from the settings model: ``python -m docbot.config.schema_gen`` after a
change to ``Settings``. Apart from the schema module so that it imports pydantic's model and the schema module
imports nothing back (tests/test_layout.py: no import cycles)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

SCHEMA_FILE = Path(__file__).with_name("schema.py")


def literal(value: Any, indent: int = 0, lead: int = 0, width: int = 116) -> str:
    """``value`` as a Python literal: inline when it fits in ``width`` after ``lead`` characters, else one key
    or item a line (a long string is split into parts Python joins)."""
    inline = repr(value)
    if indent + lead + len(inline) <= width:
        return inline
    pad = " " * (indent + 4)
    if isinstance(value, str):
        cut = max(width - indent - lead - 2, 20)
        parts = [value[start:start + cut] for start in range(0, len(value), cut)]
        return "(" + f"\n{pad}".join(repr(part) for part in parts) + ")"
    if isinstance(value, dict) and value:
        items = [f"{pad}{key!r}: {literal(item, indent + 4, len(repr(key)) + 2, width)}" for key, item in value.items()]
        return "{\n" + ",\n".join(items) + ",\n" + " " * indent + "}"
    if isinstance(value, list) and value:
        items = [pad + literal(item, indent + 4, 0, width) for item in value]
        return "[\n" + ",\n".join(items) + ",\n" + " " * indent + "]"
    return inline


def module_text() -> str:
    """This module's text for the settings model as it is now."""
    import json

    from docbot.config.settings import settings_schema

    schema = json.loads(json.dumps(settings_schema()))  # the roles as plain strings, as the JSON file has them
    text = SCHEMA_FILE.read_text(encoding="utf-8")
    head, _, rest = text.partition("SCHEMA: dict[str, Any] = ")
    _, _, tail = rest.partition("\n\nFIELDS")
    return f"{head}SCHEMA: dict[str, Any] = {literal(schema)}\n\nFIELDS{tail}"


if __name__ == "__main__":
    SCHEMA_FILE.write_text(module_text(), encoding="utf-8")
