"""JSON dump, load and fast copies of game states, derived from their dataclasses' type hints.

A state is a dataclass whose fields are JSON-like values (``int``, ``float``, ``str``, ``bool``, ``None``),
lists, tuples and ``dict[str, X]`` of those, other such dataclasses, and ``X | None``. From the type hints,
:func:`codec` builds once per class three functions: ``dump`` (a JSON-safe dict), ``load`` (its inverse) and
``copy`` (a deep copy that copies only what is mutable, much faster than ``copy.deepcopy``). So a field is
declared once, in the dataclass, not written out again in a dump, a load and a clone.

A field may carry ``metadata={"json": "name"}`` to keep an older JSON key (stored games keep loading), and
``metadata={"shared": True}`` when it is never mutated in place (its copy is the same object). ``Any`` and
``TypedDict`` fields hold plain JSON data and are deep-copied as such.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar, Union

T = TypeVar("T")

Convert = Callable[[Any], Any]


@dataclasses.dataclass(frozen=True)
class Codec:
    dump: Convert  # the dataclass → a JSON-safe dict
    load: Convert  # that dict → the dataclass
    copy: Convert  # the dataclass → an independent copy


_NESTED = (dict, list, tuple)


def _json_copy(value: Any) -> Any:
    # (a leaf is taken as it is without a call for it: most values of an options dict or a list are leaves)
    if isinstance(value, dict):
        return {k: _json_copy(v) if isinstance(v, _NESTED) else v for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_copy(v) if isinstance(v, _NESTED) else v for v in value]
    return value


def _json_dict(value: Any) -> Any:
    """``{k: _json_copy(x) for k, x in value.items()}``, calling it only for the values that hold more."""
    return {k: _json_copy(x) if isinstance(x, _NESTED) else x for k, x in value.items()}


def _same(value: Any) -> Any:
    return value


def _maybe(inner: Convert) -> Convert:
    if inner is _same:
        return _same
    return lambda v: None if v is None else inner(v)


def _converters(hint: Any) -> tuple[Convert, Convert, Convert]:
    """(dump, load, copy) for values of type ``hint``."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint in (int, float, str, bool, type(None)):
        return _same, _same, _same
    if hint is Any or typing.is_typeddict(hint):  # plain JSON data
        return _json_copy, _json_copy, _json_copy
    if origin in (Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if all(a in (int, float, str, bool) for a in rest):
            return _same, _same, _same
        if len(rest) == 1:
            dump, load, copy = _converters(rest[0])
            return _maybe(dump), _maybe(load), _maybe(copy)
        raise TypeError(f"unsupported union {hint!r}")
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        c = codec(hint)
        return c.dump, c.load, c.copy
    if origin is list:
        d, lo, cp = _converters(args[0]) if args else (_json_copy,) * 3
        if d is lo is cp is _same:
            return list, list, list
        # (list(map(f, v)) is [f(x) for x in v] without a Python loop: several times faster when f is a builtin)
        copy_items: Convert = list if cp is _same else (lambda v: list(map(cp, v)))
        return (lambda v: list(map(d, v))), (lambda v: list(map(lo, v))), copy_items
    if origin is tuple:
        item = args[0] if len(args) == 2 and args[1] is Ellipsis else None
        if item is not None:
            d, lo, _ = _converters(item)
            return (lambda v: list(map(d, v))), (lambda v: tuple(map(lo, v))), _same  # immutable
        parts = [_converters(a) for a in args]
        return ((lambda v: [p[0](x) for p, x in zip(parts, v, strict=True)]),
                (lambda v: tuple(p[1](x) for p, x in zip(parts, v, strict=True))), _same)
    if origin is dict:
        if args and args[0] is not str:
            raise TypeError(f"JSON object keys are strings, not {args[0]!r}")
        d, lo, cp = _converters(args[1]) if args else (_json_copy,) * 3
        if d is lo is cp is _same:
            return dict, dict, dict
        if d is lo is cp is _json_copy:  # dict[str, Any] (options): a leaf value is taken without a call
            return _json_dict, _json_dict, _json_dict
        return ((lambda v: {k: d(x) for k, x in v.items()}), (lambda v: {k: lo(x) for k, x in v.items()}),
                (lambda v: {k: cp(x) for k, x in v.items()}))
    raise TypeError(f"unsupported type {hint!r} in a game state")


_CODECS: dict[type, Codec] = {}


def codec(cls: type) -> Codec:
    """The dump, load and copy functions of dataclass ``cls`` (built once)."""
    found = _CODECS.get(cls)
    if found is None:
        found = _CODECS[cls] = _build(cls)
    return found


def _build(cls: type) -> Codec:
    hints = typing.get_type_hints(cls)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    plan = []
    for f in fields:
        dump, load, copy = _converters(hints[f.name])
        if f.metadata.get("shared"):
            copy = _same
        plan.append((f.name, f.metadata.get("json", f.name), dump, load, copy))

    def dump_(obj: Any) -> dict[str, Any]:
        return {key: d(getattr(obj, name)) for name, key, d, _, _ in plan}

    def load_(data: Any) -> Any:
        return cls(**{name: lo(data[key]) for name, key, _, lo, _ in plan})

    def copy_(obj: Any) -> Any:
        return cls(**{name: cp(getattr(obj, name)) for name, _, _, _, cp in plan})

    return Codec(dump_, load_, copy_)


def dump_state(state: Any, **header: Any) -> dict[str, Any]:
    """``state`` as JSON, after the ``header`` entries (e.g. ``format`` and ``game``)."""
    return {**header, **codec(type(state)).dump(state)}


def load_state(cls: type[T], data: Any) -> T:
    """The ``cls`` dataclass stored in ``data`` (extra keys, such as a header, are ignored)."""
    return typing.cast(T, codec(cls).load(data))


def copy_state(state: T) -> T:
    """An independent copy of ``state`` (immutable parts shared)."""
    return typing.cast(T, codec(type(state)).copy(state))
