"""What every card-data import shares: the file's digest, the bounds check, the counts and the audit summary."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from taikai.audit.services import AuditActor, fields_of, record
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
    counts = fields_of(record, ["source", "created", "updated", "unchanged", ("skipped_as_older", "skipped")])
    return {**counts, **record.summary}


def log_import(
    kind: str,
    action: str,
    source: str,
    digest: str,
    edition: date | None,
    *,
    actor: AuditActor | None,
    counts: Counts,
    read: int,
    details: dict[str, Any],
) -> ImportRecord:
    """An import's record and its audit entry, inside the import's transaction: the file it came from, the file's
    SHA-256 (``digest``) and what the file is as of; ``read``: how many cards or lists it held (those neither
    added, changed nor skipped were unchanged)."""
    row = ImportRecord.objects.create(
        kind=kind,
        source=source[:1000],
        sha256=digest,
        actor=actor.audit_user() if actor is not None else None,
        created=counts.created,
        updated=counts.updated,
        skipped=counts.skipped,
        unchanged=read - counts.created - counts.updated - counts.skipped,
        edition=edition,
        summary=details,
    )
    record(action, actor=actor, obj=row, after=summary(row))
    return row


def within_limits(check: Any, value: Any, label: str) -> None:
    try:
        check(value, label)
    except limits.LimitError as exc:
        raise CardSourceError(str(exc)) from exc
