"""Collection helpers for the truth-check benchmark (generators, *args/**kwargs, async, None returns)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

_REGISTRY: dict[str, Callable[..., Any]] = {}


def chunked(items: list[T], size: int) -> Iterator[list[T]]:
    if size < 1:
        raise ValueError(f"size must be >= 1, got {size}")
    for start in range(0, len(items), size):
        yield items[start : start + size]


def flatten(nested: Iterable[Any], depth: int = -1) -> list[Any]:
    flat: list[Any] = []
    for item in nested:
        if isinstance(item, (list, tuple)) and depth != 0:
            flat.extend(flatten(item, depth - 1))
        else:
            flat.append(item)
    return flat


def merge(*dicts: dict[str, Any], **overrides: Any) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for d in dicts:
        if not isinstance(d, dict):
            raise TypeError(f"merge() takes dicts, got {type(d).__name__}")
        merged.update(d)
    merged.update(overrides)
    return merged


def dedupe(items: Iterable[T], key: Callable[[T], Any] | None = None) -> list[T]:
    seen = set()
    out = []
    for item in items:
        marker = key(item) if key else item
        if marker not in seen:
            seen.add(marker)
            out.append(item)
    return out


def top_n(scores: dict[str, float], n: int = 3) -> list[tuple[str, float]]:
    if n < 0:
        raise ValueError("n must be non-negative")
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def average(values: list[float], weights: list[float] | None = None) -> float:
    if not values:
        raise ValueError("average of an empty list")
    if weights is None:
        return sum(values) / len(values)
    if len(weights) != len(values):
        raise ValueError(f"{len(weights)} weights for {len(values)} values")
    return sum(v * w for v, w in zip(values, weights)) / sum(weights)


def group_by(items: Iterable[T], key: Callable[[T], Any]) -> dict[Any, list[T]]:
    groups: dict[Any, list[T]] = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return groups


def running_total(numbers: Iterable[float], start: float = 0) -> Iterator[float]:
    total = start
    for number in numbers:
        total += number
        yield total


def safe_get(mapping: dict[str, Any], path: str, default: Any = None) -> Any:
    current: Any = mapping
    for part in path.split("."):
        if not isinstance(current, dict) or part not in current:
            return default
        current = current[part]
    return current


def register(name: str, func: Callable[..., Any], *, replace: bool = False) -> None:
    if not name.isidentifier():
        raise ValueError(f"invalid name: {name!r}")
    if name in _REGISTRY and not replace:
        raise KeyError(f"{name} is already registered")
    _REGISTRY[name] = func


def lookup(name: str) -> Callable[..., Any]:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise LookupError(f"nothing registered under {name!r}") from None


async def gather_squares(numbers: list[int], delay: float = 0.0) -> list[int]:
    async def square(n: int) -> int:
        await asyncio.sleep(delay)
        return n * n

    return list(await asyncio.gather(*(square(n) for n in numbers)))


def write_lines(path: str, lines: Iterable[str], mode: str = "w") -> None:
    if mode not in ("w", "a"):
        raise ValueError("mode must be 'w' or 'a'")
    with open(path, mode, encoding="utf-8") as handle:
        handle.writelines(line + "\n" for line in lines)
