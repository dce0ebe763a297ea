"""Per-process memos of what the board draws again and again: a card or a log line whose content did not change is
rendered once per language, not once per phone per change (issue #11: with forty phones, rendering was most of the
server's time). Keys are digests of everything the fragment shows, so a stale entry can never be served: a changed
card has another key, and old keys simply age out of the bounded memo.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Memo(Generic[V]):
    """A thread-safe least-recently-used map of at most `size` entries."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: Hashable, value: V) -> V:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def get_or_make(self, key: Hashable, make: Callable[[], V]) -> V:
        """Two threads missing at once both make it; either result is right (same key, same content)."""
        value = self.get(key)
        return value if value is not None else self.put(key, make())

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


def digest(value) -> bytes:
    """A short fingerprint of JSON-like content (lazy translations are read in the active language: callers put the
    language in the key as well)."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).digest()
