"""Writing audit entries: ``record`` runs inside the service's ``transaction.atomic()``, under a registered action."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, cast

from django.db import transaction
from django.db.models import Model

from taikai.audit.actions import require_registered
from taikai.audit.models import AuditEntry
from taikai.db.rows import insert


class AuditActor(Protocol):
    """Who acted, as the log needs it: the account (or None) and a label. ``taikai.events.actors`` has the
    kinds; audit is the lower layer and only duck-types them."""

    def audit_user(self) -> Any: ...

    def audit_label(self) -> str: ...


def record(
    action: str,
    *,
    actor: AuditActor | None = None,
    actor_label: str = "",
    event_id: int | None = None,
    obj: Model | None = None,
    before: Any = None,
    after: Any = None,
    **data: Any,
) -> AuditEntry:
    require_registered(action)  # raises UnregisteredAction: every name in the log has human text
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit.record must run inside the service's transaction")
    user = actor.audit_user() if actor is not None else None
    # Inserted by a statement written once (taikai.db.rows): every change writes one, the busiest insert.
    entry = AuditEntry(
        action=action,
        actor=user,
        actor_label=actor_label or (actor.audit_label() if actor is not None else ""),
        event_id=event_id,
        object_type=obj._meta.label_lower if obj is not None else "",
        object_id=str(obj.pk) if obj is not None else "",
        before=before,
        after=after,
        data=data,
    )
    insert(entry)
    return entry


class Versioned(Protocol):
    """A row that counts its changes: every versioned model names the counter ``version``."""

    version: int


def fields_of(row: object, names: Sequence[str | tuple[str, str]]) -> dict[str, Any]:
    """A JSON-safe snapshot of some of a row's fields, as an entry's before or after keeps them, in order: a name
    is kept under itself, a ``(key, attribute)`` pair under its key (``("player", "player_id")``)."""
    out: dict[str, Any] = {}
    for name in names:
        key, attribute = (name, name) if isinstance(name, str) else name
        value = getattr(row, attribute)
        out[key] = value.isoformat() if hasattr(value, "isoformat") else value
    return out


def save_and_log(
    row: Model,
    action: str,
    *,
    actor: AuditActor | None = None,
    actor_label: str = "",
    event_id: int | None,
    fields: Sequence[str] | None = None,
    before: Any = None,
    after: Any = None,
    shown: Sequence[str] = (),
    **data: Any,
) -> AuditEntry:
    """The tail of every service that changes a versioned row, after pretix's ``log_action``: the row's version
    goes up (a decision still holding the old one is refused, STYLE 17), the row is saved (only ``fields`` and
    the version where ``fields`` is given) and ``action`` is recorded on it, in the service's transaction.

    ``after`` is what the entry keeps as the new state; ``shown`` names fields to keep instead, read once the
    row is saved (so a ``version`` among them is the new one)."""
    cast(Versioned, row).version += 1
    row.save(update_fields=None if fields is None else [*fields, "version"])
    return record(
        action,
        actor=actor,
        actor_label=actor_label,
        event_id=event_id,
        obj=row,
        before=before,
        after=fields_of(row, shown) if shown else after,
        **data,
    )
