"""Writing audit entries: ``record`` runs inside the service's ``transaction.atomic()``, under a registered action."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Model

from taikai.audit.actions import require_registered
from taikai.audit.models import AuditEntry


def record(
    action: str,
    *,
    actor: Any = None,
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
    user = actor if getattr(actor, "is_authenticated", False) else None
    return AuditEntry.objects.create(
        action=action,
        actor=user,
        actor_label=actor_label or (user.get_username() if user else ""),
        event_id=event_id,
        object_type=obj._meta.label_lower if obj is not None else "",
        object_id=str(obj.pk) if obj is not None else "",
        before=before,
        after=after,
        data=data,
    )
