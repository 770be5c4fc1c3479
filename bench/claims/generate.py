"""Which edits are planted where: the rule, fixed before any result was read (bench/claims/README.md).

For each doc of a package (``packages.json``'s order), for each class of ``plant.CLASSES``, up to two plants,
taking the package's callables in the order the doc first writes them, each once per class; a class whose
prerequisite a callable lacks (a literal default, an annotation, a return annotation) skips it. The phrasing of
plant ``n`` of a class is its ``n``-th template (round robin).
"""

from __future__ import annotations

from typing import Any

from bench.claims.plant import (_EXCEPTIONS, _PER_DOC, _WORD, CLASSES, Plant, _literal_other, _sentence,
                                _signature_params, edited_defaults, insertion_line, invented, signature_line,
                                structured, wrong_type)


def plants_for(package: str, docs: dict[str, str], probe: dict[str, Any]) -> list[Plant]:
    """Every plant for one package's docs (doc path -> text)."""
    found: list[Plant] = []
    counters = {cls: 0 for cls in CLASSES}
    for doc, text in docs.items():
        markup = "rst" if doc.endswith(".rst") else "md"
        callables = sorted((c for c in probe["callables"].values() if f"{c['written']}(" in text),
                           key=lambda c: text.index(f"{c['written']}("))
        for cls in CLASSES:
            made = 0
            for callable_ in callables:
                if made >= _PER_DOC:
                    break
                plant = _plant(cls, counters[cls], package, doc, text, markup, callable_)
                if plant is not None:
                    found.append(plant)
                    counters[cls] += 1
                    made += 1
    return found


def _plant(cls: str, n: int, package: str, doc: str, text: str, markup: str,
           c: dict[str, Any]) -> Plant | None:
    at = insertion_line(text, c["written"])
    if at is None:
        return None
    f = c["written"]
    kind, form = cls.split(".")
    made = _content(cls, kind, form, n, c, markup, text)
    if made is None:
        return None
    body, oracle = made
    if form == "edited":
        line, new, param, value = body  # type: ignore[misc]
        return Plant(f"{package}/{doc}/{cls}/{n}", package, doc, cls, markup, f, c["module"], new, line, 1,
                     {"kind": "default", "parameter": param, "value": value, **oracle})
    return Plant(f"{package}/{doc}/{cls}/{n}", package, doc, cls, markup, f, c["module"], f"\n{body}\n", at, 0,
                 {**oracle, "written": f})


def _defaulted(params: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [p for p in params if p["default"] not in (None, "None") and _literal_other(p["default"])
            and p["kind"] in ("POSITIONAL_OR_KEYWORD", "KEYWORD_ONLY")]


def _content(cls: str, kind: str, form: str, n: int, c: dict[str, Any], markup: str,
             text: str) -> tuple[Any, dict[str, Any]] | None:
    f, params = c["written"], c["parameters"]
    if kind == "default":
        if form == "edited":
            edits = edited_defaults(text, f, params)
            return (edits[0], {}) if edits else None
        chosen = _defaulted(params)
        if not chosen:
            return None
        param = chosen[n % len(chosen)]
        value = _literal_other(param["default"]) or ""
        other = next(({"p": p["name"], "v": p["default"]} for p in chosen if p is not param), None)
        oracle = {"kind": "default", "parameter": param["name"], "value": value}
        if form == "signature":
            return signature_line(f, _signature_params(params, {param["name"]: value}), "", markup), oracle
        fields = {"f": f, "p": param["name"], "v": value}
        text = _sentence(cls, n, fields, markup) if form == "prose" else structured(cls, fields, markup, other)
        return text, oracle
    if kind == "parameter":
        if any(p["kind"] == "VAR_KEYWORD" for p in params):
            return None
        q = invented(params, n)
        oracle = {"kind": "parameter", "parameter": q}
        if form == "signature":
            return signature_line(f, _signature_params(params, {}) + [f"{q}=None"], "", markup), oracle
        fields = {"f": f, "q": q, "v": "None"}
        return (_sentence(cls, n, fields, markup) if form == "prose" else structured(cls, fields, markup, None)), oracle
    if kind == "type":
        typed = [p for p in params if p["types"] and wrong_type(p["types"])
                 and p["kind"] in ("POSITIONAL_OR_KEYWORD", "KEYWORD_ONLY", "POSITIONAL_ONLY")]
        if not typed:
            return None
        param = typed[n % len(typed)]
        wrong = wrong_type(param["types"]) or ""
        oracle = {"kind": "type", "parameter": param["name"], "value": wrong}
        if form == "signature":
            shown = [s if not s.split("=")[0] == param["name"] else f"{param['name']}: {wrong}"
                     + (f" = {s.split('=', 1)[1]}" if "=" in s else "") for s in _signature_params(params, {})]
            return signature_line(f, shown, "", markup), oracle
        fields = {"f": f, "p": param["name"], "t": _WORD[wrong] if form == "prose" else wrong}
        return (_sentence(cls, n, fields, markup) if form == "prose" else structured(cls, fields, markup, None)), oracle
    if kind == "return_type":
        returns = [t for t in (c["returns"] or []) if t != "none"]
        wrong = wrong_type(returns) if returns else None
        if not wrong:
            return None
        oracle = {"kind": "return_type", "value": wrong}
        if form == "signature":
            return signature_line(f, _signature_params(params, {}), wrong, markup), oracle
        return _sentence(cls, n, {"f": f, "t": _WORD[wrong]}, markup), oracle
    if kind == "return_value":
        returns = c["returns"] or []
        value = "None" if returns and "none" not in returns else None
        if value is None:
            return None
        return _sentence(cls, n, {"f": f, "v": value}, markup), {"kind": "return_value", "value": value}
    if kind == "exception":
        error = _EXCEPTIONS[n % len(_EXCEPTIONS)]
        oracle = {"kind": "exception", "value": error}
        fields = {"f": f, "e": error}
        return (_sentence(cls, n, fields, markup) if form == "prose" else structured(cls, fields, markup, None)), oracle
    if kind == "name":
        missing = f"{c['module']}.{c['name']}_all"
        return _sentence(cls, n, {"q": missing}, markup), {"kind": "name", "module": c["module"],
                                                            "attribute": f"{c['name']}_all"}
    return None


__all__ = ["plants_for"]
