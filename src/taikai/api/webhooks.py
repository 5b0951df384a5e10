"""Webhooks: the event stream's messages POSTed to an organizer's URL (Discord bots, league sites).

The messages are those of ``/api/v1/events/{id}/stream`` (``taikai.api.stream``), read from the audit log, so
a webhook sees exactly what a stream client sees, in order. Delivery never runs inside a request: a worker
thread started by ``taikai serve`` (or ``python -m django webhooks``) calls ``deliver_due`` every second.

Each POST carries ``X-Taikai-Signature: sha256=<hex>``, the HMAC-SHA256 of the raw body under the webhook's
secret (shown once when it is made), ``X-Taikai-Event`` (the message kind) and ``X-Taikai-Delivery`` (the
audit entry id: receivers drop repeats). A failure (no answer within ``TIMEOUT``, or a status outside 2xx)
is retried after 1, 2, 4, … seconds (at most ``MAX_DELAY``); after ``MAX_ATTEMPTS`` the message is skipped
and counted, so one dead receiver never stops the others.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import logging
import secrets
import threading
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from django.db import close_old_connections, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from taikai.api.models import Webhook
from taikai.api.stream import _message
from taikai.audit.actions import register as register_action
from taikai.audit.models import AuditEntry
from taikai.audit.services import record
from taikai.events.actors import Actor, user_of
from taikai.events.errors import ServiceError
from taikai.events.models import Event
from taikai.events.permissions import require_organizer
from taikai.security import diskfull

log = logging.getLogger(__name__)

WEBHOOK_CREATED = register_action("taikai.api.webhook_created", _("Webhook added"))
WEBHOOK_DELETED = register_action("taikai.api.webhook_deleted", _("Webhook removed"))

TIMEOUT = 5.0
MAX_ATTEMPTS = 6
MAX_DELAY = 300
BATCH = 50
# An entry is sent once it is this old: on PostgreSQL a lower id can commit after a higher one, and the
# cursor (``last_entry_id``) must not pass an entry that is still committing.
SETTLE = dt.timedelta(seconds=2)
SIGNATURE_HEADER = "X-Taikai-Signature"


def sign(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def _check_url(url: str) -> str:
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or len(url) > 500:
        raise ServiceError("bad-webhook-url")
    return url


def create_webhook(event: Event, *, by: Actor, url: str) -> tuple[Webhook, str]:
    """The organizer adds a webhook; it receives what happens from now on. Returns it and its secret."""
    require_organizer(by, event)
    url = _check_url(url)
    secret = secrets.token_hex(32)
    with transaction.atomic():
        last = AuditEntry.objects.filter(event_id=event.pk).order_by("-id").values_list("id", flat=True).first()
        hook = Webhook.objects.create(
            event=event, url=url, secret=secret, created_by=user_of(by), last_entry_id=last or 0
        )
        record(WEBHOOK_CREATED, actor=by, event_id=event.pk, obj=hook, after={"url": url})
    return hook, secret


def delete_webhook(hook: Webhook, *, by: Actor) -> None:
    require_organizer(by, hook.event)
    with transaction.atomic():
        record(WEBHOOK_DELETED, actor=by, event_id=hook.event_id, obj=hook, before={"url": hook.url})
        hook.delete()


def body_of(event_id: int, row: tuple[int, Any, str, str, str]) -> tuple[str, bytes] | None:
    """The JSON body for one audit entry, or None when the stream does not show that action."""
    message = _message(row)
    if message is None:
        return None
    payload = {"id": message.id, "event_id": str(event_id), "kind": message.kind, "data": message.data}
    return message.kind, json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


def post(hook: Webhook, kind: str, entry_id: int, body: bytes) -> str:
    """POST one message; the empty string when the receiver took it, else why not."""
    request = urllib.request.Request(  # noqa: S310 - the scheme is checked when the webhook is made
        hook.url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "User-Agent": "taikai-webhook/1",
            SIGNATURE_HEADER: sign(hook.secret, body),
            "X-Taikai-Event": kind,
            "X-Taikai-Delivery": str(entry_id),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:  # noqa: S310
            status = response.status
    except urllib.error.HTTPError as exc:
        status = exc.code
        exc.close()
    except (OSError, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"[:300]
    return "" if 200 <= status < 300 else f"HTTP {status}"


def deliver(hook: Webhook, now: dt.datetime | None = None) -> int:
    """Send what ``hook`` has not received yet, in order, stopping at the first failure (retried later).
    Returns how many messages were delivered."""
    now = now or timezone.now()
    if hook.next_attempt_at is not None and hook.next_attempt_at > now:
        return 0
    sent = 0
    rows = AuditEntry.objects.filter(event_id=hook.event_id, id__gt=hook.last_entry_id, at__lte=now - SETTLE)
    for row in rows.order_by("id").values_list("id", "at", "action", "object_type", "object_id")[:BATCH]:
        built = body_of(hook.event_id, row)
        if built is not None:
            error = post(hook, built[0], row[0], built[1])
            if error:
                hook.failures += 1
                hook.last_error = error
                if hook.failures < MAX_ATTEMPTS:
                    delay = min(MAX_DELAY, 2 ** (hook.failures - 1))
                    hook.next_attempt_at = timezone.now() + dt.timedelta(seconds=delay)
                    _save(hook)
                    return sent
                hook.skipped += 1  # given up on this message; the next ones still go out
            else:
                sent += 1
                hook.delivered += 1
        hook.last_entry_id, hook.failures, hook.next_attempt_at = row[0], 0, None
        _save(hook)
    return sent


def _save(hook: Webhook) -> None:
    # Delivery bookkeeping, not a change to the event: no audit entry (it would feed the webhook itself).
    Webhook.objects.filter(pk=hook.pk).update(
        last_entry_id=hook.last_entry_id,
        failures=hook.failures,
        next_attempt_at=hook.next_attempt_at,
        delivered=hook.delivered,
        skipped=hook.skipped,
        last_error=hook.last_error,
    )


def deliver_due(now: dt.datetime | None = None) -> int:
    return sum(deliver(hook, now) for hook in Webhook.objects.filter(active=True).order_by("id"))


def run(stop: threading.Event, interval: float = 1.0) -> None:
    while not stop.is_set():
        try:
            close_old_connections()
            deliver_due()
        except Exception as exc:  # keep the worker alive: a database hiccup must not end deliveries for good
            if diskfull.is_disk_full(exc):  # said once, loudly, not a traceback a second
                diskfull.report(exc, "webhook delivery (retried when the disk has room)")
            else:
                log.exception("webhook delivery failed")
        stop.wait(interval)


def start_worker(interval: float = 1.0) -> threading.Event:
    """Start the delivery thread (a daemon beside the web processes); set the returned event to stop it."""
    stop = threading.Event()
    threading.Thread(target=run, args=(stop, interval), name="taikai-webhooks", daemon=True).start()
    return stop
