"""Writing audit entries: ``record`` runs inside the service's ``transaction.atomic()``, under a registered action.

An entry may announce what it records to the apps that care (``announce``: Django signals, sent once the
transaction commits, after pretix's ``log_action``), so every announcement is a recorded entry: the audit log,
which the live stream and the webhooks read, never misses what a signal said.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, Final, Protocol, TypeAlias, cast

from django.db import transaction
from django.db.models import Model
from django.dispatch import Signal

from taikai.audit.actions import require_registered
from taikai.audit.models import AuditEntry
from taikai.db.rows import insert


class AuditActor(Protocol):
    """Who acted, as the log needs it: the account (or None) and a label. ``taikai.events.actors`` has the
    kinds; audit is the lower layer and only duck-types them."""

    def audit_user(self) -> Any: ...

    def audit_label(self) -> str: ...


class _RowsEvent:
    """``event_id`` left unsaid: the entry is filed under the event its row belongs to (``event_of``)."""


ROWS_EVENT: Final = _RowsEvent()


def event_of(row: Model | None) -> int | None:
    """The event a row belongs to, which an entry on it is filed under: the row's own key (``event_id``), a
    table's through its round (``round``), the event row itself; none for a row outside any event (an account).
    Said once by the row, so an entry cannot be filed under another event than its object's."""
    if row is None:
        return None
    if hasattr(row, "event_id"):
        return cast(int | None, row.event_id)
    if hasattr(row, "round_id"):
        return cast(int, cast(Any, row).round.event_id)
    return cast(int, row.pk) if row._meta.label_lower == "events.event" else None


Signalled: TypeAlias = tuple[Signal, Mapping[str, Any]]
"""A signal and the keyword arguments it is sent with (its sender is the model of the entry's object)."""


def record(
    action: str,
    *,
    actor: AuditActor | None = None,
    actor_label: str = "",
    event_id: int | None | _RowsEvent = ROWS_EVENT,
    obj: Model | None = None,
    before: Any = None,
    after: Any = None,
    announce: Sequence[Signalled] = (),
    **data: Any,
) -> AuditEntry:
    """``announce``: the signals this entry is heard by, sent in order once the transaction commits (so a
    receiver never sees a change that was rolled back), with ``type(obj)`` as their sender."""
    require_registered(action)  # raises UnregisteredAction: every name in the log has human text
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit.record must run inside the service's transaction")
    user = actor.audit_user() if actor is not None else None
    if isinstance(event_id, _RowsEvent):
        event_id = event_of(obj)
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
    _announce(obj, announce)
    return entry


def _announce(obj: Model | None, announce: Sequence[Signalled]) -> None:
    """Robust: what the service did is committed by then, so a receiver that fails is logged (logger
    ``django.db.backends.base``) rather than turning a player's saved report into an error page. Tests run the
    callbacks directly (tests/conftest.py), so there a failing receiver fails the test."""
    if announce and obj is None:
        raise ValueError("an announced entry names its object: the signal's sender is its model")
    for signal, kwargs in announce:
        transaction.on_commit(functools.partial(signal.send, sender=type(obj), **kwargs), robust=True)


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
    event_id: int | None | _RowsEvent = ROWS_EVENT,
    fields: Sequence[str] | None = None,
    before: Any = None,
    after: Any = None,
    shown: Sequence[str] = (),
    announce: Sequence[Signalled] = (),
    **data: Any,
) -> AuditEntry:
    """The tail of every service that changes a versioned row, after pretix's ``log_action``: the row's version
    goes up (a decision still holding the old one is refused, STYLE 17), the row is saved (only ``fields`` and
    the version where ``fields`` is given) and ``action`` is recorded on it, in the service's transaction.

    ``after`` is what the entry keeps as the new state; ``shown`` names fields to keep instead, read once the
    row is saved (so a ``version`` among them is the new one). The entry's event is the row's (``event_of``)
    unless ``event_id`` says otherwise. Each of ``announce`` is sent with the row's new ``version`` among its
    keyword arguments: the version a receiver's decision is then made on (STYLE 17)."""
    versioned = cast(Versioned, row)
    versioned.version += 1
    row.save(update_fields=None if fields is None else [*fields, "version"])
    return record(
        action,
        actor=actor,
        actor_label=actor_label,
        event_id=event_id,
        obj=row,
        before=before,
        after=fields_of(row, shown) if shown else after,
        announce=[(signal, {**kwargs, "version": versioned.version}) for signal, kwargs in announce],
        **data,
    )
