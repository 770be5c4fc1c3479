"""Facts read from a function's source: parameters, kinds, returns, and every raise with its message."""

from __future__ import annotations

import textwrap

import pytest

from docbot.facts.function import Facts, extract_facts


def facts_of(source: str, qualname: str = "f") -> Facts:
    return extract_facts(textwrap.dedent(source), qualname)


# (source, expected (type, message, is_reraise, cause, condition, depends_on) of the first raise)
RAISE_CASES = [
    pytest.param(
        """
        def f(rate):
            if rate < 0:
                raise ValueError(f"rate must be >= 0, got {rate!r}")
        """,
        ("ValueError", "rate must be >= 0, got {rate!r}", False, None, "rate < 0", ("rate",)),
        id="f-string",
    ),
    pytest.param(
        """
        def f(path):
            try:
                return open(path).read()
            except OSError:
                raise
        """,
        ("OSError", None, True, None, "handling OSError", ()),
        id="bare re-raise takes the handler's type",
    ),
    pytest.param(
        """
        def f(key):
            try:
                return TABLE[key]
            except KeyError as err:
                raise err
        """,
        ("KeyError", None, True, None, "handling KeyError", ()),
        id="re-raise of the bound name",
    ),
    pytest.param(
        """
        def f(text):
            try:
                return int(text)
            except ValueError as error:
                raise errors.ConfigError("not a number: %s" % text) from error
        """,
        ("errors.ConfigError", "not a number: {text}", False, "error", "handling ValueError", ("text",)),
        id="raise from, %-message",
    ),
    pytest.param(
        """
        def f(low, high):
            if low > high:
                raise ValueError("low {} > high {}".format(low, high))
        """,
        ("ValueError", "low {low} > high {high}", False, None, "low > high", ("high", "low")),
        id=".format message names its arguments",
    ),
    pytest.param(
        """
        def f(mode):
            if mode == "a":
                return 1
            elif mode == "b":
                return 2
            else:
                raise KeyError(mode)
        """,
        ("KeyError", None, False, None, "not (mode == 'a') and not (mode == 'b')", ("mode",)),
        id="else branch of an elif chain; a non-literal message is unknown",
    ),
    pytest.param(
        """
        def f(x):
            raise NotImplementedError
        """,
        ("NotImplementedError", None, False, None, None, ()),
        id="class raised without a call",
    ),
]


@pytest.mark.parametrize("source, expected", RAISE_CASES)
def test_raise_facts(source: str, expected: tuple[object, ...]) -> None:
    raised = facts_of(source).raises[0]
    got = (raised.exception, raised.message, raised.is_reraise, raised.cause, raised.condition, raised.depends_on)
    assert got == expected


@pytest.mark.parametrize(
    "message_source, real_message, matches",
    [
        ('f"rate must be >= 0, got {rate}"', "rate must be >= 0, got -1", True),
        ('f"rate must be >= 0, got {rate}"', "rate must be >= 1, got -1", False),
        ('"missing field %r in %s" % (name, where)', "missing field 'a' in config.json", True),
        ('"plain message"', "plain message", True),
        ('"plain message"', "plain message.", False),
    ],
)
def test_template_messages_match_what_the_code_can_say(message_source: str, real_message: str, matches: bool) -> None:
    raised = facts_of(f"def f(rate, name, where):\n    raise ValueError({message_source})\n").raises[0]
    assert raised.matches_message(real_message) is matches


def test_raises_caught_inside_or_in_nested_functions_are_not_the_functions_own() -> None:
    facts = facts_of(
        """
        def f(items):
            try:
                raise _Stop()
            except _Stop:
                pass
            try:
                raise KeyError("k")
            except LookupError:
                pass
            def helper():
                raise RuntimeError("only when helper runs")
            assert items, "unreachable"
            raise AssertionError("unreachable")
        """
    )
    assert [(r.exception, r.caught_locally) for r in facts.raises] == [
        ("_Stop", True), ("KeyError", True), ("AssertionError", False),
    ]
    assert facts.propagated_raises == ()  # AssertionError marks a broken invariant, not the contract


def test_raise_of_an_instance_in_a_variable_has_no_knowable_type() -> None:
    facts = facts_of("def f():\n    error = ValueError('x')\n    raise error\n")
    assert facts.raises[0].exception == ""
    assert facts.propagated_raises == ()


# (source, qualname, kind, documentable parameter names, returns_value, is_generator, is_async)
SHAPE_CASES = [
    pytest.param("@classmethod\ndef make(cls, line): return cls()\n", "A.make", "classmethod", ["line"], True,
                 False, False, id="classmethod drops cls"),
    pytest.param("@staticmethod\ndef check(name): return bool(name)\n", "A.check", "staticmethod", ["name"], True,
                 False, False, id="staticmethod"),
    pytest.param("@property\ndef size(self): return 3\n", "A.size", "property", [], True, False, False,
                 id="property"),
    pytest.param("@size.setter\ndef size(self, value): self._s = value\n", "A.size", "property", ["value"], False,
                 False, False, id="property setter returns nothing"),
    pytest.param("@functools.cached_property\ndef total(self): return 1\n", "A.total", "property", [], True,
                 False, False, id="cached_property"),
    pytest.param("def go(self, n):\n    return None\n", "A.go", "method", ["n"], False, False, False,
                 id="method; return None is no value"),
    pytest.param("def go(self, n):\n    if n:\n        return\n    print(n)\n", "go", "function", ["n"],
                 False, False, False, id="a leading self is never required, even outside a class"),
    pytest.param("@staticmethod\ndef pick(self, n): return n\n", "A.pick", "staticmethod", ["self", "n"], True,
                 False, False, id="a staticmethod's first parameter is a real one"),
    pytest.param("def gen(n):\n    yield from range(n)\n", "gen", "function", ["n"], True, True, False,
                 id="generator"),
    pytest.param("async def fetch(url):\n    async def inner():\n        return 1\n    await inner()\n", "fetch",
                 "function", ["url"], False, False, True, id="async; a nested function's return is not ours"),
]


@pytest.mark.parametrize("source, qualname, kind, names, returns_value, is_generator, is_async", SHAPE_CASES)
def test_function_shapes(source: str, qualname: str, kind: str, names: list[str], returns_value: bool,
                         is_generator: bool, is_async: bool) -> None:
    facts = extract_facts(source, qualname)
    assert facts.kind == kind
    assert [p.name for p in facts.documentable_parameters] == names
    assert (facts.returns_value, facts.is_generator, facts.is_async) == (returns_value, is_generator, is_async)
    assert facts.is_method == (kind != "function")


def test_parameters_kinds_defaults_and_annotations() -> None:
    facts = facts_of(
        """
        def f(a, b: int = DEFAULT * 2, /, c=lambda x: x + 1, *args: str, d: list[int] = field(default_factory=list),
              e=-1.5, **options) -> dict[str, int]:
            return {}
        """
    )
    got = [(p.name, p.kind, p.default, p.annotation) for p in facts.parameters]
    assert got == [
        ("a", "positional-only", None, None),
        ("b", "positional-only", "DEFAULT * 2", "int"),
        ("c", "positional", "lambda x: x + 1", None),
        ("args", "var-positional", None, "str"),
        ("d", "keyword-only", "field(default_factory=list)", "list[int]"),
        ("e", "keyword-only", "-1.5", None),
        ("options", "var-keyword", None, None),
    ]
    assert facts.return_annotation == "dict[str, int]"
    assert facts.signature() == (
        "def f(a, b: int = DEFAULT * 2, /, c=lambda x: x + 1, *args: str, d: list[int] = field(default_factory=list), "
        "e=-1.5, **options) -> dict[str, int]"
    )


def test_keyword_only_marker_without_varargs() -> None:
    assert facts_of("def f(a, *, b=1):\n    pass\n").signature() == "def f(a, *, b=1)"


def test_to_prompt_states_every_fact_the_generator_must_not_get_wrong() -> None:
    facts = facts_of(
        """
        def compound(principal: float, rate: float, periods: int = 12) -> float:
            if principal < 0:
                raise ValueError("principal must be non-negative")
            return principal * (1 + rate / periods) ** periods
        """,
        "compound",
    )
    prompt = facts.to_prompt()
    assert "Signature: def compound(principal: float, rate: float, periods: int = 12) -> float" in prompt
    assert "- periods: int (positional, default 12)" in prompt
    assert "- principal: float (positional, required)" in prompt
    assert "Returns: a value (annotated float)" in prompt
    assert '- ValueError("principal must be non-negative") when principal < 0' in prompt


def test_source_without_a_function_is_a_caller_error() -> None:
    with pytest.raises(ValueError, match="no function definition"):
        extract_facts("x = 1\n", "x")
