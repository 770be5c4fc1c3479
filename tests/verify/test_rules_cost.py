"""verify reads a module once per run, however many sections state a return type (issue 23, item 7).

Speed itself is measured in bench/bench_verify_scale.py; this counts the work, so the quadratic bug (the
whole module parsed again for every function) comes back as a test failure, not as a slow benchmark.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterator

import pytest

from docbot.facts.module import module_constants, module_tree
from docbot.verify.checks.source_doc import verify_source_doc
from docbot.verify.checks.return_types import returned_types
from docbot.verify.checks.text_rules import module_names


def _module(n: int) -> str:
    """Functions whose sections reach every module-wide check: a stated type, a raise, a default."""
    return "".join(f"LIMIT_{i} = {i}\n\n\nclass Bad{i}(ValueError):\n    pass\n\n\n"
                   f"def f{i}(x: int, scale: int = LIMIT_{i}) -> int:\n"
                   f"    if x < 0:\n        raise Bad{i}('x must be >= 0')\n    return helper(x, scale)\n\n\n"
                   for i in range(n)) + "def helper(x, scale):\n    return x * scale\n"


def _doc(n: int) -> str:
    return "# mod\n\n" + "\n".join(
        f"## `f{i}`\n\nReturns an int.\n\nParameters:\n\n- `x`: the value\n- `scale`: the factor, default {i}\n\n"
        f"Raises:\n\n- `Bad{i}`: when x is negative\n- `ValueError`: the same\n" for i in range(n))


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    seen: Counter[str] = Counter()
    real = ast.parse

    def counting(source: str | bytes, *args: object, **kwargs: object) -> ast.AST:
        seen[source if isinstance(source, str) else source.decode()] += 1
        return real(source, *args, **kwargs)  # type: ignore[call-overload]

    for cached in (module_tree, module_constants, module_names):
        getattr(cached, "cache_clear", lambda: None)()  # a cache taken away must fail the count, not here
    monkeypatch.setattr(ast, "parse", counting)
    yield seen


@pytest.mark.parametrize("sections", [3, 30])
def test_the_module_is_parsed_a_fixed_number_of_times_whatever_the_sections(parses: Counter[str],
                                                                           sections: int) -> None:
    source = _module(sections)
    report = verify_source_doc(source, _doc(sections), "mod", (), run_examples=False)
    assert len([r for r in report if r.section_found]) == sections + 0  # every section was checked
    # Once to find the public functions (docbot.scan), once for the checks that follow the code (facts.module).
    assert parses[source] == 2


def test_returned_types_reads_one_parse_for_all_functions(parses: Counter[str]) -> None:
    source = _module(10)
    assert all(returned_types(source, f"f{i}") == {"int"} for i in range(10))
    assert parses[source] == 1


def test_jedi_reads_one_copy_of_the_module_for_all_its_functions(monkeypatch: pytest.MonkeyPatch) -> None:
    import jedi

    from docbot.verify.checks import return_types

    made: list[str] = []
    real = jedi.Script

    def counting(code: str, *args: object, **kwargs: object) -> object:
        made.append(code)
        return real(code, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(jedi, "Script", counting)
    for name in ("_jedi_copy", "_script"):  # a cache taken away must fail the count below, not here
        getattr(getattr(return_types, name, None), "cache_clear", lambda: None)()
    source = "".join(f"def f{i}(x):\n    result = str(x)\n    return result\n\n\n" for i in range(6))
    source += "def g(x):\n    out = [x]\n    return out\n"
    assert [returned_types(source, f"f{i}") for i in range(6)] == [{"str"}] * 6
    assert returned_types(source, "g") == {"list"}  # each function's own returns, from the one copy
    assert len(made) == 1


def test_a_functions_own_text_is_parsed_once_for_its_checks_and_its_claims(parses: Counter[str]) -> None:
    from docbot.facts.function import extract_facts

    extract_facts.cache_clear()  # a cache taken away must fail the count below, not here
    source = _module(3)
    verify_source_doc(source, _doc(3), "mod", (), run_examples=False)
    own = {text: n for text, n in parses.items() if text.startswith("def f")}
    assert len(own) == 3 and set(own.values()) == {1}, own
