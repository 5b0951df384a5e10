"""Writing audit entries: ``record`` runs inside the service's ``transaction.atomic()``, under a registered action."""

from __future__ import annotations

from typing import Any, Protocol

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
