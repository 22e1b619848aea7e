"""The values last put, by key, up to a count (and a weight): what requests at one position share
(:class:`tables.core.Situations`, :class:`tables.quick.QuickChoices`)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """Up to ``kept`` values by key, the least recently put or read first out; with ``budget``, also at most that
    total of the values' ``size``, each weighed as it is put (a value that grows is put again to be weighed anew)."""

    def __init__(self, kept: int, budget: int | None = None, size: Callable[[V], int] | None = None) -> None:
        self.kept, self.budget, self._size = kept, budget, size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._weights: dict[K, int] = {}  # (with ``size`` only)
        self.weight = 0

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        if self._size is not None:
            weight = self._size(value)
            self.weight += weight - self._weights.get(key, 0)
            self._weights[key] = weight
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.kept or (
                self.budget is not None and self.weight > self.budget and len(self._items) > 1):
            gone, _ = self._items.popitem(last=False)
            self.weight -= self._weights.pop(gone, 0)

    def pop(self, key: K) -> None:
        self._items.pop(key, None)
        self.weight -= self._weights.pop(key, 0)

    def __len__(self) -> int:
        return len(self._items)
