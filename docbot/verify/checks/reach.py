"""Whether anything a function reaches can raise an exception: what "it raises E" is held to
(docs/design.md#exception-reach).

The reach is the function and the code of the same code base it calls, refers to or constructs, followed to the
end: functions of its module and of the package modules it imports, methods by name (``self.m()`` is any ``m``
of the code base, an override included), a class's ``__init__``/``__new__``/``__post_init__``, decorators. What
lies outside is classified, not read: builtins (``open`` and ``print`` do I/O, ``next`` raises
``StopIteration``), the standard library by module (``re``, ``json``, ``math`` do no I/O; ``os``, ``io``,
``socket`` do), methods of builtin types by name (``strip``, ``append``; ``get`` and ``read`` are not taken to
be a dict's or a string's), and anything else (a parameter called, another package, a computed call) makes the
reach *incomplete*.

``may_raise`` answers False only where that proof is complete for the exception: an ``OSError`` needs I/O or
incomplete code, a code base's own exception class needs one of its raise sites (nothing outside knows it),
``KeyError``/``IndexError``/``StopIteration``/``ZeroDivisionError`` need the operation or a call out. Operations
on values (``x[k]``, ``for a in b``, ``x + y``) are taken to be the builtin types'; iterating over or entering
(``with``) a value from outside counts as I/O. ``TypeError``, ``ValueError`` and the other errors any operation
may raise are never proven absent.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping

from docbot.verify.checks.reach_code import CodeBase, class_bases
from docbot.verify.checks.reach_walk import effects_of

__all__ = ["CodeBase", "may_raise"]

_PATH_ERRORS = (FileNotFoundError, IsADirectoryError, NotADirectoryError, FileExistsError, PermissionError,
                ConnectionRefusedError)


def may_raise(base: CodeBase, module: str, qualname: str, exception: str) -> bool | None:
    """True: a raise site of the reach raises it (or a class it derives from, or one derived from it), or the reach
    does what raises it (I/O for an ``OSError``, a subscript for a ``KeyError``); False: nothing the function
    reaches can raise it and the reach is complete; None: not known."""
    leaf = exception.rsplit(".", 1)[-1]
    effects = effects_of(base, module, qualname)
    if effects is None:
        return None
    bases = class_bases(base)
    if any(_related(r, leaf, bases) for r in effects.raised) or "*" in effects.raised:
        return True if "*" not in effects.raised else None
    own = leaf in bases
    builtin = getattr(builtins, leaf, None)
    if own:
        return None if effects.unknown and "dynamic" in effects.operations else False
    if not (isinstance(builtin, type) and issubclass(builtin, BaseException)):
        return None if effects.unknown or effects.stdlib else False  # another library's (or the stdlib's), or none
    if issubclass(builtin, OSError):
        # a path's errors come of opening, listing or connecting; reading an open stream raises the others
        if effects.io or effects.stream and builtin not in _PATH_ERRORS:
            return True
        return None if effects.unknown else False
    needs = {KeyError: {"subscript"}, IndexError: {"subscript"}, LookupError: {"subscript"},
             StopIteration: {"next"}, ZeroDivisionError: {"divide"}, AssertionError: {"assert"},
             ImportError: {"import"}}
    for kind, operations in needs.items():
        if builtin is kind or issubclass(builtin, kind) and kind is not LookupError:
            if effects.operations & operations:
                return True
            return None if effects.unknown or effects.outside else False
    return None


def _related(raised: str, stated: str, bases: Mapping[str, tuple[str, ...]]) -> bool:
    """Whether a raise of ``raised`` can be the stated exception: the same, a subclass, or a base of it."""
    return _derives(raised, stated, bases) or _derives(stated, raised, bases)


def _derives(child: str, parent: str, bases: Mapping[str, tuple[str, ...]]) -> bool:
    seen, todo = set(), [child]
    while todo:
        name = todo.pop()
        if name == parent:
            return True
        if name in seen:
            continue
        seen.add(name)
        value, target = getattr(builtins, name, None), getattr(builtins, parent, None)
        if isinstance(value, type) and isinstance(target, type) and issubclass(value, target):
            return True
        todo += list(bases.get(name, ()))
    return False


