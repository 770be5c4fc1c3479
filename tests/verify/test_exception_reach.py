"""The exception reach (docs/design.md#exception-reach): False only where nothing the function reaches can raise
the exception and the reach is complete; True where a raise site or an operation of the reach may; None else."""

from __future__ import annotations

import pytest

from docbot.verify.checks.reach import CodeBase, may_raise

CORE = '''\
import json
import os
import requests

from pkg.errors import Broke


class Local(Exception):
    pass


def pure(text):
    return text.strip().lower()


def reads(path):
    with open(path) as handle:
        return handle.read()


def lists(path):
    return os.listdir(path)


def joins(a, b):
    return os.path.join(a, b)


def parses(text):
    return json.loads(text)


def fetches(url):
    return requests.get(url)


def calls(func, value):
    return func(value)


def raises_local(value):
    if value:
        raise Local("no")
    return value


def via(value):
    return raises_local(value)


def raises_imported(value):
    raise Broke("no")


def looks_up(mapping, key):
    return mapping[key]


def loops(stream):
    return [line for line in stream]


def keyed(items):
    return sorted(items, key=len)


def keyed_by(items, key):
    return sorted(items, key=key)


class Wrapper:
    def __init__(self, width):
        self.width = width

    def wrap(self, text):
        return self._chunks(text)

    def _chunks(self, text):
        return [text[: self.width]]


def uses_wrapper(text):
    w = Wrapper(3)
    return w.wrap(text)


def recursive(n):
    return recursive(n - 1) if n else 0


def rebinds(items):
    res = []
    add = res.append
    for item in items:
        add(item)
    done, res = res, []
    add = res.append
    add(done[0])
    return res


def calls_alias_twice(items):
    res = []
    add = res.append
    add(items)
    add(items)
    return res


def alias_cycle(items):
    a = b
    b = a
    return a(items)


def rebinds_otherwise(items, func):
    res = []
    add = res.append
    add(items)
    add = func
    add(items)
    return res
'''
ERRORS = "class Broke(Exception):\n    pass\n"
BASE = CodeBase((("pkg.core", CORE), ("pkg.errors", ERRORS)))


@pytest.mark.parametrize("qualname, exception, expected", [
    ("pure", "FileNotFoundError", False),
    ("reads", "FileNotFoundError", True),  # open()
    ("lists", "FileNotFoundError", True),  # os.listdir
    ("joins", "FileNotFoundError", False),  # os.path.join does no I/O
    ("parses", "FileNotFoundError", False),  # json does no I/O
    ("parses", "JSONDecodeError", None),  # the standard library's own: json may raise it
    ("fetches", "ConnectionError", None),  # another package: not known
    ("calls", "FileNotFoundError", None),  # a parameter called: any code
    ("raises_local", "Local", True),
    ("via", "Local", True),  # through the function it calls
    ("pure", "Local", False),
    ("raises_imported", "Broke", True),  # imported from the code base's other module
    ("pure", "Broke", False),
    ("looks_up", "KeyError", True),  # a subscript
    ("pure", "KeyError", None),  # a builtin method is called: its own errors may come
    ("loops", "OSError", True),  # iterating over what was handed in: it may be a file
    ("keyed", "FileNotFoundError", False),  # sorted(key=len) calls a builtin
    ("keyed_by", "FileNotFoundError", None),  # sorted(key=key) calls the caller's code
    ("uses_wrapper", "FileNotFoundError", False),  # the instance's methods are the code base's
    ("Wrapper.wrap", "FileNotFoundError", False),
    ("recursive", "FileNotFoundError", False),  # a cycle ends
    ("rebinds", "FileNotFoundError", False),  # an alias bound twice to the same `res.append`: a list's method
    ("calls_alias_twice", "FileNotFoundError", False),  # every call of an alias is what it names
    ("alias_cycle", "FileNotFoundError", None),  # aliases of each other: a local called, any code
    ("rebinds_otherwise", "FileNotFoundError", None),  # bound to a list's method, then to the caller's code
    ("pure", "ValueError", None),  # never proven absent: any operation may raise it
    ("pure", "TypeError", None),
    ("nothere", "KeyError", None),
])
def test_what_a_function_may_raise(qualname: str, exception: str, expected: bool | None) -> None:
    assert may_raise(BASE, "pkg.core", qualname, exception) is expected


def test_a_subclass_or_a_base_raised_counts() -> None:
    source = ("class AppError(Exception):\n    pass\n\n\nclass LimitError(AppError):\n    pass\n\n\n"
              "def f(x):\n    raise LimitError('x')\n\n\ndef g(x):\n    raise OSError(2, 'gone')\n")
    base = CodeBase.of("m", source)
    assert may_raise(base, "m", "f", "AppError") is True
    assert may_raise(base, "m", "g", "FileNotFoundError") is True  # OSError(ENOENT, ...) is one
