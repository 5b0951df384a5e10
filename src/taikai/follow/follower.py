"""The follower's side: pairing tokens, applying the venue's changes in order, and queueing players' actions.

A change applies only on the version before it: ``base`` must equal the version held, under the copy's row
lock, so two web processes receiving a resent change never apply it twice and an old change never overwrites
a newer copy. A change that does not fit is not applied; the answer says the version held, and the venue
resends from there.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from taikai.audit.services import record
from taikai.events.actors import System
from taikai.follow import protocol
from taikai.follow.actions import FOLLOW_TOKEN_CREATED, FOLLOW_TOKEN_REVOKED
from taikai.follow.models import CopiedDocument, CopiedLink, FollowedEvent, FollowToken, QueuedAction

PULL = 50  # actions handed to the venue a turn


class Refused(Exception):
    """A player's action the follower cannot even queue (not their table, nothing to confirm); ``code`` says
    why, in the follower's problem texts (``taikai.follow.texts``)."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def create_token(label: str = "", *, by: System | None = None) -> tuple[FollowToken, str]:
    """A pairing token for one venue, made on the follower (its command line); shown once, only its key is kept."""
    token = protocol.TOKEN_PREFIX + secrets.token_urlsafe(24)
    with transaction.atomic():
        row = FollowToken.objects.create(
            prefix=protocol.prefix_of(token), key=protocol.key_of(token), label=label.strip()[:100]
        )
        after = {"prefix": row.prefix, "label": row.label}
        record(FOLLOW_TOKEN_CREATED, actor=by or System("taikai token create"), obj=row, after=after)
    return row, token


def revoke_token(prefix: str, *, by: System | None = None) -> FollowToken | None:
    with transaction.atomic():
        row = FollowToken.objects.select_for_update().filter(prefix=prefix).first()
        if row is not None and row.revoked_at is None:
            row.revoked_at = timezone.now()
            row.save(update_fields=["revoked_at"])
            record(FOLLOW_TOKEN_REVOKED, actor=by or System("taikai token revoke"), obj=row, after={"prefix": prefix})
    return row


@dataclass(frozen=True)
class Answer:
    body: bytes
    signature: str


def receive(prefix: str, body: bytes, signature: str, *, now: dt.datetime | None = None) -> Answer:
    """One turn of the venue's connection: apply its changes and outcomes, hand it the queued actions."""
    now = now or timezone.now()
    token = FollowToken.objects.filter(prefix=prefix, revoked_at__isnull=True).first()
    if token is None:
        raise protocol.BadMessage("unknown-token")
    payload = protocol.decode(token.key, body, signature, now=now)
    FollowToken.objects.filter(pk=token.pk).update(last_contact_at=now)
    events: dict[str, dict[str, Any]] = {}
    for change in payload.get("changes", []):
        events[str(change["event"])] = apply_change(token, change, now=now)
    for outcome in payload.get("outcomes", []):
        record_outcome(token, outcome, now=now)
    for event_id in payload.get("manifest", []):
        events.setdefault(str(event_id), held(token, int(event_id)))["manifest"] = manifest(token, int(event_id))
    answer = {"events": events, "actions": pending_actions(token, now=now)}
    out = protocol.encode(answer, now=now)
    return Answer(out, protocol.sign(token.key, out))


def held(token: FollowToken, event_id: int) -> dict[str, Any]:
    row = FollowedEvent.objects.filter(event_id=event_id, token=token).first()
    return {"version": row.version if row else 0, "applied": False}


def manifest(token: FollowToken, event_id: int) -> dict[str, str]:
    """The digest of every document held for the event: the venue sends only what differs."""
    rows = CopiedDocument.objects.filter(followed__event_id=event_id, followed__token=token)
    return dict(rows.values_list("name", "digest"))


def apply_change(token: FollowToken, change: dict[str, Any], *, now: dt.datetime) -> dict[str, Any]:
    """Change ``version`` on ``base``: its documents replace (or, null, remove) the copy's; nothing if the copy
    is not at ``base`` (answered with the version held)."""
    event_id = int(change["event"])
    with transaction.atomic():
        row, _created = _followed(token, event_id)
        if row is None:
            return {"version": 0, "applied": False, "refused": "event-followed-elsewhere"}
        if row.version != int(change["base"]):
            return {"version": row.version, "applied": False}
        for name, body in change.get("documents", {}).items():
            if name == "_tokens":
                _index_links(row, body or {})
            if body is None:
                CopiedDocument.objects.filter(followed=row, name=name).delete()
                continue
            text = protocol.canonical(body)
            CopiedDocument.objects.update_or_create(
                followed=row, name=name, defaults={"body": text, "digest": protocol.digest(text)}
            )
        row.version = int(change["version"])
        row.venue_time = dt.datetime.fromisoformat(change["venue_time"])
        row.applied_at = now
        event_doc = change.get("documents", {}).get("event")
        if isinstance(event_doc, dict):
            row.name = str(event_doc.get("name", ""))[:200]
        row.save()
    return {"version": row.version, "applied": True}


def _index_links(row: FollowedEvent, tokens: dict[str, str]) -> None:
    CopiedLink.objects.filter(followed=row).delete()
    CopiedLink.objects.filter(token_hash__in=list(tokens.values())).delete()  # a link cannot be in two events
    CopiedLink.objects.bulk_create(
        [CopiedLink(followed=row, token_hash=h, player_id=int(pid)) for pid, h in tokens.items()]
    )


def _followed(token: FollowToken, event_id: int) -> tuple[FollowedEvent | None, bool]:
    """The copy's row, locked; a first change creates it. Another venue's event of the same id is refused."""
    row = FollowedEvent.objects.select_for_update().filter(event_id=event_id).first()
    if row is None:
        try:
            with transaction.atomic():
                return FollowedEvent.objects.create(event_id=event_id, token=token), True
        except IntegrityError:  # another web process created it meanwhile
            row = FollowedEvent.objects.select_for_update().get(event_id=event_id)
    return (row if row.token_id == token.pk else None), False


def pending_actions(token: FollowToken, *, now: dt.datetime) -> list[dict[str, Any]]:
    """The oldest actions still waiting for the venue; each is sent again until its outcome comes back."""
    rows = list(
        QueuedAction.objects.filter(followed__token=token, status=QueuedAction.Status.QUEUED)
        .select_related("followed")
        .order_by("id")[:PULL]
    )
    QueuedAction.objects.filter(pk__in=[r.pk for r in rows], sent_at__isnull=True).update(sent_at=now)
    return [
        {
            "key": r.key,
            "event": str(r.followed.event_id),
            "player": str(r.player_id),
            "token_hash": r.token_hash,
            "kind": r.kind,
            "match": str(r.match_id),
            "seen_version": r.seen_version,
            "change_version": r.change_version,
            "payload": r.payload,
        }
        for r in rows
    ]


def record_outcome(token: FollowToken, outcome: dict[str, Any], *, now: dt.datetime) -> None:
    """The venue's decision on an action, kept for the player's page; a repeat changes nothing."""
    status = outcome.get("status")
    if status not in (QueuedAction.Status.APPLIED, QueuedAction.Status.REFUSED):
        return
    QueuedAction.objects.filter(
        key=str(outcome.get("key", "")), followed__token=token, status=QueuedAction.Status.QUEUED
    ).update(
        status=status,
        code=str(outcome.get("code", ""))[:80],
        message_ja=str(outcome.get("message_ja", "")),
        message_en=str(outcome.get("message_en", "")),
        decided_at=now,
    )


def queue_action(
    followed: FollowedEvent,
    *,
    player_id: int,
    token_hash: str,
    kind: str,
    match_id: int,
    seen_version: int,
    payload: dict[str, Any],
    key: str,
) -> QueuedAction:
    """A player's report or confirmation, kept until the venue decides it. The same key again (a double tap, a
    resent form) is the same action."""
    if kind not in QueuedAction.Kind.values or not key or len(key) > 64:
        raise Refused("follow-bad-action")
    found = QueuedAction.objects.filter(key=key).first()
    if found is not None:
        if found.player_id != player_id:
            raise Refused("follow-bad-action")
        return found
    try:
        with transaction.atomic():
            return QueuedAction.objects.create(
                followed=followed,
                key=key,
                player_id=player_id,
                token_hash=token_hash,
                kind=kind,
                match_id=match_id,
                seen_version=seen_version,
                change_version=followed.version,
                payload=payload,
            )
    except IntegrityError:
        return QueuedAction.objects.get(key=key)
