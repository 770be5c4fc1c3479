"""Whether merged settings values are valid, by the settings' JSON schema and the model's own rules, without pydantic.

``conforms`` only ever says yes to what ``docbot.config.settings.Settings`` accepts with the same values: the
schema's keywords as the model's strict mode reads them (``true`` is no integer, ``1`` is a number, no NaN),
then the rules the schema cannot state (``Settings``' validators: every role once, known temperature roles in
0-2, a list of servers each listed once, replay with a recording). Where it is unsure (a keyword it does not
know, the lax coercions of a role's entry) it says no, and the caller asks the model, which then names the
problem itself (docbot.config.plain). tests/config/test_plain_settings.py holds it to that on generated values.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from docbot.config.schema import SCHEMA

ROLE_NAMES: tuple[str, ...] = tuple(SCHEMA["properties"]["model_registry"]["propertyNames"]["enum"])  # the roles
# Keywords that say nothing about validity; any other unknown keyword makes ``conforms`` say no.
_ANNOTATIONS = frozenset({"title", "description", "default", "$schema", "$defs"})
_TYPES: dict[str, Any] = {
    "string": lambda v: type(v) is str,
    "integer": lambda v: type(v) is int,
    "number": lambda v: type(v) is int or (type(v) is float and math.isfinite(v)),
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
    "object": lambda v: type(v) is dict and all(type(k) is str for k in v),
    "array": lambda v: type(v) is list,
}


def conforms(data: Mapping[str, Any]) -> bool:
    """Whether ``data`` (the merged layers, None values dropped) is valid settings for the model."""
    # "$schema" is a property of the file's schema (an editor's pointer), but no setting: config.json's reader
    # drops it, and the model refuses it anywhere else ([tool.docbot]).
    return "$schema" not in data and matches(dict(data), SCHEMA) and _model_rules(data)


def matches(value: Any, schema: Mapping[str, Any]) -> bool:
    """``value`` against one schema node, for the keywords the settings' schema uses."""
    for keyword, expected in schema.items():
        if keyword in _ANNOTATIONS:
            continue
        check = _KEYWORDS.get(keyword)
        if check is None or not check(value, expected, schema):
            return False
    return True


def _type(value: Any, expected: str, _schema: Mapping[str, Any]) -> bool:
    test = _TYPES.get(expected)
    return test is not None and bool(test(value))


def _properties(value: Any, expected: Mapping[str, Any], _schema: Mapping[str, Any]) -> bool:
    return not isinstance(value, dict) or all(matches(value[k], s) for k, s in expected.items() if k in value)


def _additional(value: Any, expected: Any, schema: Mapping[str, Any]) -> bool:
    if not isinstance(value, dict):
        return True
    extra = [value[k] for k in value if k not in schema.get("properties", {})]
    return (not extra) if expected is False else all(matches(item, expected) for item in extra)


def _number(compare: Any) -> Any:
    def check(value: Any, bound: Any, _schema: Mapping[str, Any]) -> bool:
        return not _TYPES["number"](value) or bool(compare(value, bound))
    return check


def _length(value: Any, bound: int, _schema: Mapping[str, Any]) -> bool:
    return not isinstance(value, (str, list)) or len(value) >= bound


def _ref(value: Any, ref: str, _schema: Mapping[str, Any]) -> bool:
    node: Any = SCHEMA
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return matches(value, node)


_KEYWORDS: dict[str, Any] = {
    "type": _type,
    "enum": lambda v, options, _s: any(type(v) is type(o) and v == o for o in options),
    "const": lambda v, option, _s: type(v) is type(option) and v == option,
    "anyOf": lambda v, options, _s: any(matches(v, option) for option in options),
    "$ref": _ref,
    "properties": _properties,
    "additionalProperties": _additional,
    "required": lambda v, names, _s: not isinstance(v, dict) or all(n in v for n in names),
    "propertyNames": lambda v, names, _s: not isinstance(v, dict) or all(matches(k, names) for k in v),
    "items": lambda v, item, _s: not isinstance(v, list) or all(matches(x, item) for x in v),
    "minimum": _number(lambda v, b: v >= b),
    "maximum": _number(lambda v, b: v <= b),
    "exclusiveMinimum": _number(lambda v, b: v > b),
    "exclusiveMaximum": _number(lambda v, b: v < b),
    "minLength": _length,
    "minItems": _length,
}


def _model_rules(data: Mapping[str, Any]) -> bool:
    """``Settings``' validators, which the schema does not state."""
    registry = data.get("model_registry")
    if registry is not None:
        if set(registry) != set(ROLE_NAMES):  # every role exactly once
            return False
        for entry in registry.values():
            # A role's entry is lax in the model ("8192" is a num_ctx there): only a name, or an entry whose every
            # value already has its exact type, is vouched for here; the schema checked those types and bounds.
            if isinstance(entry, dict) and not _listed(entry.get("base_url")):
                return False
    temperatures = data.get("temperatures")
    if temperatures is not None and not all(k in ROLE_NAMES and 0.0 <= t <= 2.0 for k, t in temperatures.items()):
        return False
    if not _listed(data.get("base_url")):
        return False
    return not (data.get("backend") == "replay" and not data.get("replay"))


def _listed(urls: Any) -> bool:
    """``docbot.config.layers.urls_listed``: a list of servers, each non-empty and listed once."""
    return not isinstance(urls, list) or (bool(urls) and all(urls) and len(set(urls)) == len(urls))
