"""The exception reach (docs/design.md#exception-reach): False only where nothing the function reaches can raise
the exception and the reach is complete; True where a raise site or an operation of the reach may; None else."""

from __future__ import annotations

import pytest

from docbot.verify.checks.reach import CodeBase, may_raise

CORE = '''\
import functools
import inspect
import json
import operator
import os
import re
import requests
from decimal import Decimal

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


def _compile(pattern):
    return re.compile(pattern).match


def _pick(func):
    return func


def matches(name, pattern):
    match = _compile(pattern)
    return match(name)


def picked(func, value):
    chosen = _pick(func)
    return chosen(value)


def counts(items):
    seen = {}
    get = seen.get
    for item in items:
        seen[item] = get(item, 0) + 1
    return seen


def has_all(items):
    avail = {}
    has, n = avail.__contains__, 0
    return has(items) + n


def has_other(items, func):
    has, n = func, 0
    return has(items) + n


class Table:
    def __init__(self, hook):
        self.rows = {}
        self.hook = hook

    def find(self, key):
        rows = self.rows
        return rows.get(key)

    def fire(self, key):
        return self.hook.get(key)


def convert(value, T):
    if issubclass(T, int):
        return T(value)
    return value


def plugin(value, cls):
    if issubclass(cls, Wrapper):
        return cls(value)
    return value


def copies(value):
    return type(value)()


class Alone:
    @classmethod
    def make(cls):
        return cls()


class Quiet:
    @classmethod
    def make(cls, path):
        return cls(path)


class Loud(Quiet):
    def __init__(self, path):
        self.handle = open(path)


_CACHE = {}
_HOOKS = {}


def cached(pattern):
    found = _CACHE.get(pattern)
    if found is None:
        found = re.compile(pattern).match
        _CACHE[pattern] = found
    return found(pattern)


def register(name, func):
    _HOOKS[name] = func


def fire(name):
    hook = _HOOKS.get(name)
    return hook(name)


_SEEDED = {"get": requests.get}
_EXTRA = {}


def also(key):
    _SEEDED[key] = re.compile(key).match
    _EXTRA[key] = re.compile(key).match


def extend(more):
    _EXTRA.update(more)


def seeded(key):
    found = _SEEDED.get(key)
    return found(key)


def fire_extra(key):
    found = _EXTRA.get(key)
    return found(key)


def defaults(items, seen=None):
    if seen is None:
        seen = {}
    return seen.get(items)


class Prop:
    def __init__(self):
        self.rows = {}

    @property
    def rows(self):
        return self._rows

    @rows.setter
    def rows(self, value):
        self._rows = value

    def look(self, key):
        return self.rows.get(key)


def partial_call(func, value):
    bound = functools.partial(func, value)
    return bound()


def set_and_call(key):
    global hook
    if key:
        hook = re.compile(key).match
    return hook(key)


def install(func):
    global hook
    hook = func


_SHARED = {}


def shared(key):
    found = _SHARED.get(key)
    if found is None:
        found = re.compile(key).match
        _SHARED[key] = found
    return found(key)


def unary(kind, value):
    op = {1: operator.neg, 2: operator.pos}[kind]
    return op(value)


def binary(kind, a, b):
    op = {1: operator.add, 2: operator.sub}.get(kind)
    return op(a, b)


def cleans(text):
    return inspect.cleandoc(text)


def sources(func):
    return inspect.getsource(func)


def root(n):
    r = (Decimal(n) / Decimal(2)).sqrt()
    return r.next_plus()
'''
ERRORS = "class Broke(Exception):\n    pass\n"
OTHER = "from pkg.core import _SHARED\n\n\ndef put(key, func):\n    _SHARED[key] = func\n"
BASE = CodeBase((("pkg.core", CORE), ("pkg.errors", ERRORS), ("pkg.other", OTHER)))


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
    ("matches", "FileNotFoundError", False),  # a local bound to a base function's result: `re.compile(p).match`
    ("picked", "FileNotFoundError", None),  # ... that hands back its parameter: the caller's code
    ("counts", "FileNotFoundError", False),  # `get = seen.get` for `seen = {}`: a dict's method
    ("has_all", "FileNotFoundError", False),  # a tuple unpacked in pairs: `has` is a dict's `__contains__`
    ("has_other", "FileNotFoundError", None),  # ... paired with a parameter: the caller's code
    ("Table.find", "FileNotFoundError", False),  # `self.rows` is only ever a dict
    ("Table.fire", "FileNotFoundError", None),  # `self.hook` is what the caller handed in
    ("convert", "FileNotFoundError", False),  # `T(value)` for `T` tested as a value's type (`issubclass(T, int)`)
    ("plugin", "FileNotFoundError", None),  # `cls(value)` for a class tested against the base's own: any subclass
    ("copies", "FileNotFoundError", False),  # `type(value)()`: the value's own type
    ("Alone.make", "FileNotFoundError", False),  # `cls()` in a classmethod: the class itself
    ("Quiet.make", "FileNotFoundError", True),  # ... or a subclass of it, whose __init__ opens a file
    ("cached", "FileNotFoundError", False),  # a memo: what is stored into `_CACHE` is `re.compile(p).match`
    ("fire", "FileNotFoundError", None),  # `_HOOKS` holds what callers register: any code
    ("seeded", "FileNotFoundError", None),  # a cache that did not start empty: `requests.get` was in it
    ("fire_extra", "FileNotFoundError", None),  # a cache `update`d with what a caller hands in
    ("defaults", "FileNotFoundError", None),  # a parameter rebound to a dict only when None: maybe the caller's
    ("Prop.look", "FileNotFoundError", None),  # `self.rows` is a property: reading it runs its code
    ("partial_call", "FileNotFoundError", None),  # `functools.partial(func, ...)` calls the caller's code
    ("set_and_call", "FileNotFoundError", None),  # `global hook`: `install` binds it to the caller's code
    ("shared", "FileNotFoundError", None),  # a cache another module imports and stores the caller's code in
    ("unary", "FileNotFoundError", False),  # one of a display's values: `operator.neg`
    ("binary", "FileNotFoundError", False),  # `{...: operator.add}.get(kind)`: one of its values (or None)
    ("cleans", "FileNotFoundError", False),  # inspect.cleandoc does no I/O
    ("sources", "FileNotFoundError", True),  # inspect.getsource reads the file
    ("root", "FileNotFoundError", False),  # a Decimal's methods
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
