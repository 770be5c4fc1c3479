"""Static doc checks (no examples run): parameters, defaults, exceptions, messages, returns, sections."""

from __future__ import annotations

import textwrap

import pytest

from docbot.verify.checks.page import check_doc
from docbot.verify.findings import Finding, Severity
from docbot.verify.read.sections import find_section

SOURCE = '''
def compound(principal: float, rate: float = 0.05, periods: int = 12) -> float:
    if principal < 0:
        raise ValueError("principal must be non-negative")
    if periods <= 0:
        raise ValueError(f"periods must be positive, got {periods}")
    return round(principal * (1 + rate / periods) ** periods, 2)
'''

GOOD = """## compound

Grows `principal` at `rate` for one year.

**Parameters**

| Name | Type | Default | Description |
|---|---|---|---|
| `principal` | float | required | Starting amount. |
| `rate` | float | `0.05` | Yearly rate. |
| `periods` | int | `12` | Compounding periods per year. |

**Returns**

`float` — the amount after one year, rounded to cents.

**Raises**

- `ValueError` — `"principal must be non-negative"` when `principal < 0`.
- `ValueError` — `"periods must be positive, got {periods}"` when `periods <= 0`.
"""

ROW_RATE = "| `rate` | float | `0.05` | Yearly rate. |\n"
RAISE_PERIODS = '- `ValueError` — `"periods must be positive, got {periods}"` when `periods <= 0`.\n'


def weighed(doc: str, source: str = SOURCE, qualname: str = "compound") -> list[str]:
    """Contradictions by kind, gaps as "gap:kind" (notes left out)."""
    found = check_doc(doc, textwrap.dedent(source), qualname)
    return sorted(f.check if f.fatal else f"gap:{f.check}" for f in found if f.severity is not Severity.NOTE)


def findings(doc: str, source: str, qualname: str = "f") -> list[Finding]:
    return check_doc(textwrap.dedent(doc), textwrap.dedent(source), qualname)


# (edit of the correct doc, the findings it must produce: contradictions by kind, omissions as gaps)
EDIT_CASES = [
    pytest.param(lambda d: d, [], id="correct doc: nothing"),
    pytest.param(lambda d: d.replace(ROW_RATE, ""), ["gap:missing_parameter"], id="missing parameter"),
    pytest.param(lambda d: d.replace(ROW_RATE, ROW_RATE + "| `years` | int | `1` | Years. |\n"),
                 ["invented_parameter"], id="invented parameter"),
    pytest.param(lambda d: d.replace("`12`", "`4`"), ["wrong_default"], id="wrong default"),
    pytest.param(lambda d: d.replace("`0.05`", "required"), ["wrong_default"], id="a default called required"),
    pytest.param(lambda d: d.replace("| required |", "| `100` |"), ["wrong_default"],
                 id="a default for a required parameter"),
    pytest.param(lambda d: d.replace("`ValueError`", "`TypeError`"), ["wrong_exception_type"],
                 id="wrong exception type"),
    pytest.param(lambda d: d.replace(RAISE_PERIODS, ""), ["gap:missing_exception"],
                 id="one of two ValueErrors left out"),
    pytest.param(lambda d: d.split("**Raises**")[0], ["gap:missing_exception"], id="no Raises part at all"),
    pytest.param(lambda d: d.replace("must be non-negative", "must be positive"), ["misquoted_message"],
                 id="misquoted message"),
    pytest.param(lambda d: d.replace("got {periods}", "was {periods}"), ["misquoted_message"],
                 id="misquoted template message"),
    pytest.param(lambda d: d + "- `BalanceError` — when the bank is closed.\n", ["invented_exception"],
                 id="invented exception the code never mentions"),
    pytest.param(lambda d: d.replace("`float` — the amount after one year, rounded to cents.", "None."),
                 ["wrong_return"], id="says it returns nothing"),
    pytest.param(lambda d: d.replace("**Returns**\n\n`float` — the amount after one year, rounded to cents.\n", ""),
                 ["gap:missing_return"], id="never says what it returns"),
    pytest.param(lambda d: d.replace("**Parameters**", "```python\ndef compound(principal, rate=0.1, periods=12)\n"
                                     "```\n\n**Parameters**"), ["wrong_default"], id="wrong default in a signature"),
    pytest.param(lambda d: d.replace("**Parameters**", "```python\ndef compound(principal, rate=0.05)\n```\n\n"
                                     "**Parameters**"), ["gap:missing_parameter"], id="signature leaves one out"),
]


@pytest.mark.parametrize("edit, kinds", EDIT_CASES)
def test_each_contradiction_and_gap_is_found_and_a_correct_doc_is_clean(edit: object, kinds: list[str]) -> None:
    assert callable(edit)
    assert weighed(edit(GOOD)) == kinds


def test_findings_quote_the_code_fact_and_the_doc_text() -> None:
    found = check_doc(GOOD.replace("must be non-negative", "must be positive"), SOURCE, "compound")
    assert len(found) == 1
    assert found[0].doc_text == "principal must be positive"
    assert found[0].code_fact == 'ValueError("principal must be non-negative") when principal < 0'
    assert "principal must be positive" in found[0].message and "non-negative" in found[0].message


FN = """
def f(x, *args, **kwargs):
    if x is None:
        raise ValueError("x is required")
    return x
"""

# Docs that are right in a way a naive checker would call wrong.
CLEAN_CASES = [
    pytest.param(FN, """
        ## f
        Args:
            x: the value.
            *args: more values.
            **kwargs: options.
        Returns:
            The value.
        Raises:
            ValueError: 'x is required' when x is None.
        """, id="google style, single quotes, stars on variadics"),
    pytest.param(FN, """
        ## f
        Parameters
        ----------
        x : object
            The value.
        args
            More values.
        kwargs
            Options.

        Returns
        -------
        object

        Raises
        ------
        ValueError
            If x is None (`ValueError("x is required")`).
        """, id="numpy style, variadics without stars, message in a call form"),
    pytest.param(FN, """
        ## f
        - **x** — the value; **args** and **kwargs** are passed on.
        - **args** — more.
        - **kwargs** — options.

        Returns the value. Raises `ValueError` with “x is required” when `x` is None.
        """, id="bullets without a label, curly quotes, prose raise"),
    pytest.param(FN, """
        ## f
        `f(x, *args, **kwargs)` returns `x` and raises `ValueError: x is required` if `x` is `None`.
        """, id="an unstructured sentence mentioning everything"),
    pytest.param("""
        def f(self, key):
            try:
                return self.table[key]
            except _Missing:
                raise
        """, """
        ## f
        **Parameters**
        - `key`: what to look up.

        **Returns** the stored value.
        """, id="self is never required; a re-raised private helper needs no mention"),
    pytest.param("""
        def f(count):
            if count < 0:
                raise ValueError(f"count must be >= 0, got {count}")
            yield from range(count)
        """, """
        ## f
        **Parameters**
        - `count` (int): how many.

        **Yields** each number below `count`.

        **Raises** `ValueError` — "count must be >= 0, got -1" for a negative count.
        """, id="a template quoted with a real value; Yields counts as a return"),
    pytest.param("""
        def f(data, path):
            with open(path) as handle:
                return handle.read() + data
        """, """
        ## f
        | name | description |
        |---|---|
        | `data` | appended text |
        | `path` | the file |

        **Returns:** the text. **Raises** `FileNotFoundError` or `PermissionError` when the file cannot be read.
        """, id="builtin exceptions from operations are not called invented"),
    pytest.param("""
        def f(mapping, key, default=None):
            return mapping.get(key, default)
        """, """
        ## f
        **Parameters**
        - `mapping` (dict): where to look.
        - `key` (str): the key.
        - `default` (default `None`): returned when the key is missing.

        **Returns**

        None if the key is missing and no default is given, else the value.
        """, id="a conditional None is still a return value"),
]


REST_DOC = """
    ## f
    Looks `key` up.

    :param mapping: where to look
    :param str key: the key
    :param default: returned when the key is missing, defaults to None
    :returns: the value or `default`
    """


def test_rest_field_lists_are_read_as_parameters() -> None:
    source = "def f(mapping, key, default=None):\n    return mapping.get(key, default)\n"
    assert findings(REST_DOC, source) == []
    wrong = REST_DOC.replace("defaults to None", "defaults to 0").replace(":param str key", ":param str name")
    assert sorted(f.check for f in findings(wrong, source)) == ["invented_parameter", "missing_parameter",
                                                                 "wrong_default"]


@pytest.mark.parametrize("source, doc", CLEAN_CASES)
def test_correct_docs_in_many_styles_have_no_fatal_finding(source: str, doc: str) -> None:
    fatal = [f for f in findings(doc, source) if f.fatal]
    assert fatal == []


def test_a_documented_keyword_of_a_kwargs_function_is_only_a_note() -> None:
    doc = """
        ## f
        **Parameters**
        - `x`: the value.
        - `timeout` (float): passed on.
        **Returns** x. **Raises** `ValueError` ("x is required").
        """
    found = [f for f in findings(doc, FN) if f.check == "invented_parameter"]
    assert [(f.check, f.fatal) for f in found] == [("invented_parameter", False)]
    assert "**kwargs" in found[0].message


def test_an_unquoted_message_is_a_note_not_a_fatal_issue() -> None:
    doc = ("## f\n**Parameters**\n- `x`: v.\n- `args`: a.\n- `kwargs`: k.\n\n**Returns** x.\n\n"
           "**Raises** `ValueError` if x is None.\n")
    assert [(f.check, f.fatal) for f in findings(doc, FN)] == [("message_not_quoted", False)]


def test_an_invented_custom_exception_is_only_a_note_when_a_callee_could_raise_it() -> None:
    source = "def f(account, amount):\n    account.withdraw(amount)\n"
    doc = "## f\n- `account`: a.\n- `amount`: b.\n\n**Raises** `InsufficientFunds` when the balance is short.\n"
    assert [(f.check, f.fatal) for f in findings(doc, source)] == [("invented_exception", False)]


def test_a_paired_wrong_type_is_only_a_note_when_a_callee_could_raise_it() -> None:
    source = ("def f(text, parse):\n    if not isinstance(text, str):\n        raise TypeError('Expected str')\n"
              "    return parse(text)\n")
    doc = "## f\n- `text`: t.\n- `parse`: p.\n\n**Raises** `ValueError` if `parse` returns a list.\n"
    assert [(f.check, f.fatal) for f in findings(doc, source)] == [("wrong_exception_type", False)]
    quoting = doc.replace("returns a list.", "returns a list (\"Expected str\").")
    assert [(f.check, f.fatal) for f in findings(quoting, source)] == [("wrong_exception_type", True)]
    alone = source.replace("parse(text)", "text")
    assert [(f.check, f.fatal) for f in findings(doc, alone)] == [("wrong_exception_type", True)]


def test_an_invented_return_on_a_function_that_returns_nothing() -> None:
    source = "def f(items):\n    items.clear()\n"
    clean = "## f\n**Parameters**\n- `items`: the list to empty.\n\n**Returns**\n\nNothing (`None`).\n"
    assert findings(clean, source) == []
    claims_value = clean + "\nReturns the number of removed items.\n"
    assert [f.check for f in findings(claims_value, source)] == ["invented_return"]


def test_a_constructor_is_never_accused_of_an_invented_return() -> None:
    said = "`default`: returned when an item is missing. Instances return the `default` then.\n"
    init = "def __init__(self, default):\n    self.default = default\n"
    assert [f.check for f in findings("### Box\n\n" + said, init, "Box.__init__")] == []
    method = init.replace("__init__", "clear")
    assert [f.check for f in findings("### Box.clear\n\n" + said, method, "Box.clear")] == ["invented_return"]
    typed = "### Box\n\n`default`: d. Returns the updated total as a `float`.\n"
    assert [f.check for f in findings(typed, init, "Box.__init__")] == ["invented_return"]


def test_a_property_needs_no_returns_part() -> None:
    source = "@property\ndef size(self):\n    return len(self.items)\n"
    assert findings("### Box.size\n\nHow many items the box holds.\n", source, "Box.size") == []


DOC = """# pkg.mod

Intro.

## compound_interest

Body of compound_interest.

### Parameters

- `a`: x

## `fn(a, b)`

Body of fn.

## class Account

About accounts.

### Account(owner, balance=0)

The constructor.

### deposit(amount) -> None

Body of deposit.

## Account.withdraw

Body of withdraw.

```python
# a comment that looks like a heading
## not a heading
```

More withdraw.

# helper()

Body of helper.
"""


@pytest.mark.parametrize(
    "name, first_line, must_contain, must_not_contain",
    [
        ("compound_interest", "## compound_interest", "### Parameters", "Body of fn"),
        ("fn", "## `fn(a, b)`", "Body of fn.", "About accounts"),
        ("Account.deposit", "### deposit(amount) -> None", "Body of deposit.", "Body of withdraw"),
        ("Account.__init__", None, None, None),
        ("Account", "### Account(owner, balance=0)", "The constructor.", "Body of deposit"),
        ("Account.withdraw", "## Account.withdraw", "More withdraw.", "Body of helper"),
        ("helper", "# helper()", "Body of helper.", "withdraw"),
        ("pkg.mod.compound_interest", "## compound_interest", "Body of compound_interest.", "Body of fn"),
        ("missing", None, None, None),
    ],
)
def test_find_section_by_heading(name: str, first_line: str | None, must_contain: str | None,
                                 must_not_contain: str | None) -> None:
    section = find_section(DOC, name)
    if first_line is None:
        assert section is None
        return
    assert section is not None
    assert section.splitlines()[0] == first_line
    assert must_contain in section and must_not_contain not in section
