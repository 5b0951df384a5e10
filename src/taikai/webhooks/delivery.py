"""Webhooks: the event stream's messages POSTed to an organizer's URL (Discord bots, league sites).

The messages are those of ``/api/v1/events/{id}/stream`` (``taikai.audit.feed``), read from the audit log, so
a webhook sees exactly what a stream client sees, in order. Delivery never runs inside a request: a worker
thread started by ``taikai serve`` (or ``python -m django webhooks``) runs a ``Dispatcher``.

Each POST carries ``X-Taikai-Signature: sha256=<hex>``, the HMAC-SHA256 of the raw body under the webhook's
secret (shown once when it is made), ``X-Taikai-Event`` (the message kind) and ``X-Taikai-Delivery`` (the
audit entry id: receivers drop repeats).

One receiver cannot hold up another (issue 25): deliveries run on a bounded pool
(``TAIKAI_WEBHOOK_WORKERS``), each under one wall-clock deadline (``TAIKAI_WEBHOOK_TIMEOUT``, connect to
status line, ``taikai.webhooks.net``), and hooks that are failing may take only half the pool. Only the
dispatcher's thread reads and writes the database; the pool's threads only talk to receivers. A failure
(no answer in time, a status outside 2xx, a refused destination, anything raised) is retried after 1, 2, 4,
… seconds (at most ``MAX_DELAY``); after ``MAX_ATTEMPTS`` the message is skipped and counted; after
``TAIKAI_WEBHOOK_DISABLE_AFTER`` messages skipped in a row the webhook is stopped, logged in the audit log
and shown on the organizer's dashboard until they restart or remove it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import close_old_connections, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from taikai.audit.actions import register as register_action
from taikai.audit.feed import message_of
from taikai.audit.models import AuditEntry
from taikai.audit.services import record
from taikai.events.actors import Actor, System, user_of
from taikai.events.errors import ServiceError
from taikai.events.models import Event
from taikai.events.permissions import require_organizer
from taikai.security import diskfull
from taikai.webhooks import net
from taikai.webhooks.models import Webhook

log = logging.getLogger(__name__)

WEBHOOK_CREATED = register_action("taikai.api.webhook_created", _("Webhook added"))
WEBHOOK_DELETED = register_action("taikai.api.webhook_deleted", _("Webhook removed"))
WEBHOOK_DISABLED = register_action("taikai.api.webhook_disabled", _("Webhook stopped: its deliveries kept failing"))
WEBHOOK_ENABLED = register_action("taikai.api.webhook_enabled", _("Webhook restarted"))

MAX_ATTEMPTS = 6
MAX_DELAY = 300
BATCH = 50
# An entry is sent once it is this old: on PostgreSQL a lower id can commit after a higher one, and the
# cursor (``last_entry_id``) must not pass an entry that is still committing.
SETTLE = dt.timedelta(seconds=2)
SIGNATURE_HEADER = "X-Taikai-Signature"


def sign(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def create_webhook(event: Event, *, by: Actor, url: str) -> tuple[Webhook, str]:
    """The organizer adds a webhook; it receives what happens from now on. Returns it and its secret."""
    require_organizer(by, event)
    url = net.check_url(url)
    secret = secrets.token_hex(32)
    with transaction.atomic():
        cap = settings.WEBHOOKS.per_event
        # The event row is locked so two requests at once cannot both take the last place.
        Event.objects.select_for_update().filter(pk=event.pk).values_list("pk", flat=True).get()
        if Webhook.objects.filter(event_id=event.pk).count() >= cap:
            raise ServiceError("webhook-limit", max=cap)
        last = AuditEntry.objects.filter(event_id=event.pk).order_by("-id").values_list("id", flat=True).first()
        hook = Webhook.objects.create(
            event=event, url=url, secret=secret, created_by=user_of(by), last_entry_id=last or 0
        )
        record(WEBHOOK_CREATED, actor=by, obj=hook, after={"url": url})
    return hook, secret


def delete_webhook(hook: Webhook, *, by: Actor) -> None:
    require_organizer(by, hook.event)
    with transaction.atomic():
        record(WEBHOOK_DELETED, actor=by, obj=hook, before={"url": hook.url})
        hook.delete()


def enable_webhook(hook: Webhook, *, by: Actor) -> None:
    """The organizer restarts a stopped webhook: it resumes after the last message it handled."""
    require_organizer(by, hook.event)
    with transaction.atomic():
        Webhook.objects.filter(pk=hook.pk).update(
            active=True, disabled_at=None, failures=0, gave_up_in_row=0, next_attempt_at=None
        )
        record(WEBHOOK_ENABLED, actor=by, obj=hook, before={"url": hook.url})
    hook.refresh_from_db()


def body_of(event_id: int, row: tuple[int, Any, str, str, str]) -> tuple[str, bytes] | None:
    """The JSON body for one audit entry, or None when the stream does not show that action."""
    message = message_of(row)
    if message is None:
        return None
    payload = {"id": message.id, "event_id": str(event_id), "kind": message.kind, "data": message.data}
    return message.kind, json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


# --- delivery ------------------------------------------------------------------------------------------------


@dataclass
class Job:
    """What one hook has to send in this pass: built and applied by the dispatcher's thread (the database),
    sent by a pool thread (the network only)."""

    hook_id: int
    event_id: int
    url: str
    secret: str
    messages: list[tuple[int, str, bytes] | tuple[int, None, None]]  # (entry id, kind, body); None: not shown
    outcomes: list[tuple[int, str | None]] = field(default_factory=list)  # (entry id, "" sent / why not / None)


def _job(hook: Webhook, now: dt.datetime) -> Job | None:
    rows = AuditEntry.objects.filter(event_id=hook.event_id, id__gt=hook.last_entry_id, at__lte=now - SETTLE)
    messages: list[tuple[int, str, bytes] | tuple[int, None, None]] = []
    for row in rows.order_by("id").values_list("id", "at", "action", "object_type", "object_id")[:BATCH]:
        built = body_of(hook.event_id, row)
        messages.append((row[0], None, None) if built is None else (row[0], built[0], built[1]))
    if not messages:
        return None
    return Job(hook.pk, hook.event_id, hook.url, hook.secret, messages)


def post(job: Job, kind: str, entry_id: int, body: bytes, timeout: float) -> str:
    """POST one message; the empty string when the receiver took it, else why not (no connection detail)."""
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "taikai-webhook/1",
        SIGNATURE_HEADER: sign(job.secret, body),
        "X-Taikai-Event": kind,
        "X-Taikai-Delivery": str(entry_id),
    }
    return net.send(job.url, headers, body, timeout)


def _send(job: Job) -> Job:
    """Runs on a pool thread: the messages in order until the first failure or the pass's time is spent."""
    timeout = float(settings.WEBHOOKS.timeout)
    ends = time.monotonic() + timeout * 2  # then the pool thread is given back; the rest goes next pass
    for entry_id, kind, body in job.messages:
        if kind is None or body is None:
            job.outcomes.append((entry_id, None))
            continue
        try:
            error = post(job, kind, entry_id, body, timeout)
        except Exception:  # one hook's surprise is logged and retried; it never reaches the others
            log.exception("webhook %s (event %s): delivery raised", job.hook_id, job.event_id)
            error = net.NO_ANSWER
        job.outcomes.append((entry_id, error))
        if error or time.monotonic() > ends:
            break
    return job


def _apply(job: Job) -> int:
    """Write what a pass did to the hook's row; returns how many messages were delivered."""
    hook = Webhook.objects.filter(pk=job.hook_id, active=True).first()
    if hook is None:  # removed or stopped while its messages were out
        return 0
    sent = 0
    for entry_id, error in job.outcomes:
        if not error:
            if error == "":
                sent += 1
                hook.delivered += 1
                hook.gave_up_in_row = 0
            hook.last_entry_id, hook.failures, hook.next_attempt_at = entry_id, 0, None
            continue
        hook.failures += 1
        hook.last_error = error[:300]
        if hook.failures < MAX_ATTEMPTS:
            hook.next_attempt_at = timezone.now() + dt.timedelta(seconds=min(MAX_DELAY, 2 ** (hook.failures - 1)))
            break
        # Given up on this message; the next ones still go out, after a pause, unless this was one too many.
        hook.skipped += 1
        hook.gave_up_in_row += 1
        hook.last_entry_id, hook.failures = entry_id, 0
        hook.next_attempt_at = timezone.now() + dt.timedelta(seconds=min(MAX_DELAY, 2 ** (MAX_ATTEMPTS - 1)))
        if hook.gave_up_in_row >= settings.WEBHOOKS.disable_after:
            _disable(hook)
            return sent
        break
    _save(hook)
    return sent


def _disable(hook: Webhook) -> None:
    hook.active, hook.disabled_at = False, timezone.now()
    with transaction.atomic():
        _save(hook)
        Webhook.objects.filter(pk=hook.pk).update(active=False, disabled_at=hook.disabled_at)
        record(
            WEBHOOK_DISABLED,
            actor=System("webhooks"),
            obj=hook,
            after={"url": net.shown(hook.url), "last_error": hook.last_error, "skipped": hook.skipped},
        )
    log.warning(
        "webhook %s (event %s) stopped after %s messages given up in a row (%s)",
        hook.pk,
        hook.event_id,
        hook.gave_up_in_row,
        hook.last_error,
    )


def _save(hook: Webhook) -> None:
    # Delivery bookkeeping, not a change to the event: no audit entry (it would feed the webhook itself).
    Webhook.objects.filter(pk=hook.pk).update(
        last_entry_id=hook.last_entry_id,
        failures=hook.failures,
        next_attempt_at=hook.next_attempt_at,
        delivered=hook.delivered,
        skipped=hook.skipped,
        last_error=hook.last_error,
        gave_up_in_row=hook.gave_up_in_row,
    )


def deliver(hook: Webhook, now: dt.datetime | None = None) -> int:
    """One pass for one hook, on this thread: what it has not received yet, in order, stopping at the first
    failure (retried later). Returns how many messages were delivered."""
    now = now or timezone.now()
    if not hook.active or (hook.next_attempt_at is not None and hook.next_attempt_at > now):
        return 0
    job = _job(hook, now)
    return 0 if job is None else _apply(_send(job))


def _due(now: dt.datetime, busy: set[int]) -> list[Webhook]:
    due = Webhook.objects.filter(active=True).filter(Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
    # Healthy hooks first: a failing receiver never stands in front of one that answers.
    return sorted(due.exclude(pk__in=busy), key=lambda h: (h.failures > 0 or h.gave_up_in_row > 0, h.pk))


class Dispatcher:
    """Hands due hooks to a bounded pool and writes back what they did. ``tick`` never waits for a receiver."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or settings.WEBHOOKS.workers
        self.failing_cap = max(1, self.workers // 2)
        self.pool = ThreadPoolExecutor(self.workers, thread_name_prefix="taikai-webhook")
        self.out: dict[int, tuple[Future[Job], bool]] = {}  # hook id -> (its pass, was it failing)

    def collect(self) -> int:
        done = [hook_id for hook_id, (future, _failing) in self.out.items() if future.done()]
        if not done:
            return 0
        sent = 0
        with transaction.atomic():  # one write (SQLite: one turn of its lock) for every pass that ended
            for hook_id in done:
                future, _failing = self.out.pop(hook_id)
                try:
                    with transaction.atomic():
                        sent += _apply(future.result())
                except Exception:  # a database hiccup for one hook: the pass is sent again later
                    log.exception("webhook %s: could not record its deliveries", hook_id)
        return sent

    def schedule(self, now: dt.datetime, skip: set[int] | None = None) -> None:
        failing = sum(1 for _f, was_failing in self.out.values() if was_failing)
        for hook in _due(now, set(self.out) | (skip or set())):
            if len(self.out) >= self.workers:
                return
            is_failing = hook.failures > 0 or hook.gave_up_in_row > 0
            if is_failing and failing >= self.failing_cap:
                continue
            try:
                job = _job(hook, now)
            except Exception:
                log.exception("webhook %s: could not read its messages", hook.pk)
                continue
            if job is None:
                continue
            self.out[hook.pk] = (self.pool.submit(_send, job), is_failing)
            failing += is_failing

    def tick(self, now: dt.datetime | None = None) -> int:
        sent = self.collect()
        self.schedule(now or timezone.now())
        return sent

    def drain(self) -> int:
        wait_for([f for f, _ in self.out.values()])
        return self.collect()

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def deliver_due(now: dt.datetime | None = None) -> int:
    """One pass over every due hook, concurrently; waits for it. Returns how many messages were delivered."""
    dispatcher = Dispatcher()
    now = now or timezone.now()
    handled: set[int] = set()
    sent = 0
    try:
        while True:  # more hooks may be due than the pool takes at once: each is handled once
            dispatcher.schedule(now, skip=handled)
            if not dispatcher.out:
                return sent
            handled |= set(dispatcher.out)
            sent += dispatcher.drain()
    finally:
        dispatcher.close()


def run(stop: threading.Event, interval: float = 1.0) -> None:
    dispatcher = Dispatcher()
    while not stop.is_set():
        try:
            close_old_connections()
            dispatcher.tick()
        except Exception as exc:  # keep the worker alive: a database hiccup must not end deliveries for good
            if diskfull.is_disk_full(exc):  # said once, loudly, not a traceback a second
                diskfull.report(exc, "webhook delivery (retried when the disk has room)")
            else:
                log.exception("webhook delivery failed")
        # Once a second, as before: a pass that ends sooner waits to be written with the others, so a busy
        # event costs one write a second, not one per delivery (the attack bench's webhook row).
        stop.wait(interval)
    dispatcher.close()


def start_worker(interval: float = 1.0) -> threading.Event:
    """Start the delivery thread (a daemon beside the web processes); set the returned event to stop it."""
    stop = threading.Event()
    threading.Thread(target=run, args=(stop, interval), name="taikai-webhooks", daemon=True).start()
    return stop
