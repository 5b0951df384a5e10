"""Build-once caching: when a value is missing, one thread builds it and the others wait for it.

Used for whole public pages and for standings, which are expensive at thousands of players and are asked
for by hundreds of screens at the moment a new result makes the cached copy obsolete.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache

T = TypeVar("T")
TIMEOUT = 15 * 60
_building: dict[str, threading.Lock] = {}
_guard = threading.Lock()


def get_or_build(key: str, build: Callable[[], T], keep: Callable[[T], bool] = lambda _: True) -> tuple[T, bool]:
    """(value, was it cached). ``keep`` decides whether a built value is stored (e.g. only 200 pages)."""
    found: T | None = cache.get(key)
    if found is not None:
        return found, True
    with _guard:
        lock = _building.setdefault(key, threading.Lock())
    with lock:
        found = cache.get(key)
        if found is not None:
            return found, True
        try:
            value = build()
            if keep(value):
                cache.set(key, value, TIMEOUT)
        finally:
            with _guard:
                _building.pop(key, None)
    return value, False
