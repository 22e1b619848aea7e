"""Checks a JSON-like value against a type hint at run time: the view types (``engine/*/view.py``) are the
contract between engine and renderer, and mypy checks only what it can see statically (a view built from a
state's ``Any`` field, a copy of stored JSON). Handles what the views use: TypedDict (required and
NotRequired keys, no extra keys), ``list[X]``, ``dict[str, X]``, unions, ``int``/``float``/``str``/``bool``/None.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable
from typing import Any, Union


def problems(value: Any, hint: Any, where: str = "view") -> list[str]:
    """Where ``value`` does not conform to ``hint`` (empty when it does). A conforming value is checked without
    naming where each part is (the common case, and the costly part of naming every place)."""
    return [] if _conforms(value, hint) else _problems(value, hint, where)


@functools.cache
def _hints(typed_dict: Any) -> dict[str, Any]:
    return typing.get_type_hints(typed_dict)


def _conforms(value: Any, hint: Any) -> bool:
    """Whether ``value`` conforms to ``hint``: :func:`_problems` would find nothing."""
    return _checker(hint)(value)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


@functools.cache
def _checker(hint: Any) -> Callable[[Any], bool]:
    """A function telling whether a value conforms to ``hint``, made once per hint (the views are checked along
    whole games: the hint is taken apart once, not at every value)."""
    if hint is Any:
        return lambda v: True
    if hint is type(None) or hint is None:
        return lambda v: v is None
    if hint is bool:
        return lambda v: isinstance(v, bool)
    if hint is int:
        return _is_int
    if hint is float:
        return _is_number
    if hint is str:
        return lambda v: isinstance(v, str)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (Union, types.UnionType):
        options = [_checker(a) for a in args]
        return lambda v: any(check(v) for check in options)
    if origin is list:
        item = _checker(args[0])
        return lambda v: isinstance(v, list) and all(map(item, v))
    if origin is dict:
        key, item = _checker(args[0]), _checker(args[1])
        return lambda v: isinstance(v, dict) and all(key(k) and item(x) for k, x in v.items())
    if typing.is_typeddict(hint):
        fields = {key: _checker(h) for key, h in _hints(hint).items()}
        required = hint.__required_keys__

        def check(v: Any) -> bool:
            return isinstance(v, dict) and all(key in v for key in required) and \
                all(key in fields and fields[key](x) for key, x in v.items())
        return check
    raise TypeError(f"view_schema cannot check {hint!r}")


def _problems(value: Any, hint: Any, where: str) -> list[str]:
    if hint is Any:
        return []
    if hint is type(None) or hint is None:
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if hint is bool:
        return [] if isinstance(value, bool) else [f"{where}: {value!r} is not a bool"]
    if hint is int:
        return [] if isinstance(value, int) and not isinstance(value, bool) else [f"{where}: {value!r} is not an int"]
    if hint is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return [] if ok else [f"{where}: {value!r} is not a number"]
    if hint is str:
        return [] if isinstance(value, str) else [f"{where}: {value!r} is not a str"]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (Union, types.UnionType):
        found = [_problems(value, a, where) for a in args]
        return [] if any(not f for f in found) else [f"{where}: {value!r} is none of {hint}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__} is not a list"]
        return [p for i, v in enumerate(value) for p in _problems(v, args[0], f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} is not a dict"]
        return [p for k, v in value.items()
                for p in _problems(k, args[0], f"{where} key") + _problems(v, args[1], f"{where}[{k!r}]")]
    if typing.is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} is not a {hint.__name__}"]
        hints = _hints(hint)
        out = [f"{where}: missing {key!r}" for key in hint.__required_keys__ if key not in value]
        out += [f"{where}: unexpected key {key!r}" for key in value if key not in hints]
        for key, v in value.items():
            if key in hints:
                out += _problems(v, hints[key], f"{where}[{key!r}]")
        return out
    raise TypeError(f"view_schema cannot check {hint!r}")


def view_type(game: Any) -> Any:
    """The view type a game declares (the return annotation of its ``view``)."""
    return typing.get_type_hints(type(game).view)["return"]
