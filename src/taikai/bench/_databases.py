"""Running a bench on each database asked for: PostgreSQL only where a server answers."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def per_database(names: str, bench: Callable[[str], T]) -> list[T]:
    """``bench(vendor)`` for each of the comma-separated ``names``; PostgreSQL is skipped, and said so, when no
    server answers at the benches' address."""
    from taikai.bench._live import postgres_reachable
    from taikai.bench.event import PG_URL

    rows = []
    for vendor in names.split(","):
        if vendor == "postgresql" and not postgres_reachable(PG_URL):
            print(f"PostgreSQL not reachable at {PG_URL}: skipped\n")
            continue
        rows.append(bench(vendor))
    return rows
