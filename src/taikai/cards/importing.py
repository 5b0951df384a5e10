"""What every card-data import shares: the file's digest, the bounds check, the counts and the audit summary."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taikai.cards import limits
from taikai.cards.models import ImportRecord
from taikai.cards.sources import CardSourceError


def sha256(paths: Iterable[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


@dataclass
class Counts:
    """Cards or lists added, changed, and left alone because the file is older than what is stored."""

    created: int = 0
    updated: int = 0
    skipped: int = 0


def summary(record: ImportRecord) -> dict[str, Any]:
    """The audit entry's ``after``: what the import changed, from where, and what its file is as of."""
    return {
        "source": record.source,
        "created": record.created,
        "updated": record.updated,
        "unchanged": record.unchanged,
        "skipped_as_older": record.skipped,
        **record.summary,
    }


def within_limits(check: Any, value: Any, label: str) -> None:
    try:
        check(value, label)
    except limits.LimitError as exc:
        raise CardSourceError(str(exc)) from exc
