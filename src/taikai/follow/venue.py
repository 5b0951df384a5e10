"""The venue's side: one outbound connection to the follower, pushing changes in order and applying players'
actions through the venue's own services (``taikai.follow.applying``).

``Pusher.turn()`` is one round trip: for each event whose audit log moved, the documents that differ from what
the follower holds (``taikai.follow.documents``), on the version the follower holds; the outcomes of the
actions applied last turn; and, for an event whose copy the venue does not know (a first contact, a change
that did not fit), a request for the follower's manifest. The answer brings the versions now held and the
players' queued actions, which the venue applies at once and answers on the next turn. A turn that fails
(no answer, a bad signature) changes nothing here: the next one sends the same again, so a cut loses nothing.

The venue never listens: it connects out (NAT, a phone's tethering), and only it writes event state.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from django.db import close_old_connections
from django.db.models import Count, F, Max
from django.utils import timezone

from taikai.audit.models import AuditEntry
from taikai.events.models import Event
from taikai.follow import config, documents, protocol
from taikai.follow.applying import apply_action
from taikai.follow.models import PushLink

TIMEOUT = 10.0
MAX_MESSAGE = 700 * 1024  # documents a turn, in bytes: under the follower's anonymous body cap (1 MiB)
STAMP_EVERY = 10.0  # seconds between the dashboard's "last contact" stamps while the link is up
IDLE = 1.0  # seconds between turns when nothing happened here (players' actions on the follower wait that long)
WATCH = 0.05  # how often the audit log is looked at meanwhile: a change here goes out at once


# What the console says when the follower refuses the venue's messages (each said once, until it changes).
REFUSALS = {
    "unknown-token": "トークンが無効か取り消されています / the token is unknown or revoked on the follower",
    "bad-signature": "署名が合いません / the follower does not recognise this token's signature",
    "too-old": "このパソコンの時計を確かめてください / the follower finds the messages too old: check the clock",
}


@dataclass
class Copy:
    """What the venue knows of one event's copy on the follower; ``version`` None: unknown, ask."""

    version: int | None = None
    digests: dict[str, str] = field(default_factory=dict)
    marker: tuple[int, int] | None = None  # (last audit id, entries) when last pushed
    rebuild_at: float | None = None  # the clock runs out then: its status changes with no audit entry


@dataclass
class Pusher:
    url: str
    token: str
    say: Callable[[str], None] = print
    client: httpx.Client | None = None
    copies: dict[int, Copy] = field(default_factory=dict)
    outcomes: list[dict[str, Any]] = field(default_factory=list)
    connected: bool | None = None
    last_error: str = ""
    stamped: float = 0.0
    retry: float = config.RETRY_DEFAULT  # a lost link is tried again at least this often: one small request

    @property
    def key(self) -> str:
        return protocol.key_of(self.token)

    def turn(self) -> int:
        """One round trip; returns how many actions the follower handed over (0: nothing waiting)."""
        now = timezone.now()
        changes, ask, built = self._changes(now)
        body = protocol.encode({"changes": changes, "outcomes": self.outcomes, "manifest": ask}, now=now)
        headers = {
            "Content-Type": "application/json",
            protocol.PREFIX_HEADER: protocol.prefix_of(self.token),
            protocol.SIGNATURE_HEADER: protocol.sign(self.key, body),
        }
        client = self.client or httpx.Client(timeout=TIMEOUT)
        self.client = client
        response = client.post(self.url.rstrip("/") + protocol.SYNC_PATH, content=body, headers=headers)
        if response.status_code == 401:  # the follower says why: unknown-token, bad-signature, too-old
            raise protocol.BadMessage(response.text.strip()[:40] or "refused")
        if response.status_code != 200:
            raise protocol.BadMessage(f"http-{response.status_code}")
        answer = protocol.decode(
            self.key, response.content, response.headers.get(protocol.SIGNATURE_HEADER, ""), now=timezone.now()
        )
        self.outcomes = []  # the follower has them (its answer is signed and came back)
        self._learn(answer.get("events", {}), changes, built)
        actions = answer.get("actions", [])
        self.outcomes = [apply_action(a) for a in actions]
        if actions:
            PushLink.objects.filter(url=self.url).update(actions_applied=F("actions_applied") + len(actions))
        return len(actions)

    def _changes(self, now: dt.datetime) -> tuple[list[dict[str, Any]], list[str], dict[int, Built]]:
        changes: list[dict[str, Any]] = []
        ask: list[str] = []
        built: dict[int, Built] = {}
        budget = [MAX_MESSAGE]
        markers = {
            row["event_id"]: (row["last"] or 0, row["n"])
            for row in AuditEntry.objects.filter(event_id__isnull=False)
            .values("event_id")
            .annotate(last=Max("id"), n=Count("id"))
        }
        for event_id in Event.objects.order_by("id").values_list("pk", flat=True):
            copy = self.copies.setdefault(event_id, Copy())
            marker = markers.get(event_id, (0, 0))
            if copy.version is None:
                ask.append(str(event_id))
                continue
            due = copy.rebuild_at is not None and time.time() >= copy.rebuild_at
            if (marker == copy.marker and not due) or budget[0] <= 0:
                continue
            change, built[event_id] = _change(event_id, copy, marker, now, budget)
            if change is not None:
                changes.append(change)
        return changes, ask, built

    def _learn(self, events: dict[str, Any], changes: list[dict[str, Any]], built: dict[int, Built]) -> None:
        sent = {int(c["event"]) for c in changes}
        for raw_id, state in events.items():
            event_id = int(raw_id)
            copy = self.copies.setdefault(event_id, Copy())
            if "manifest" in state:
                copy.version, copy.digests, copy.marker = int(state["version"]), dict(state["manifest"]), None
            elif state.get("applied") and event_id in sent:
                b = built[event_id]
                copy.version, copy.rebuild_at = int(state["version"]), b.ends
                copy.digests = {n: d for n, d in {**copy.digests, **b.digests}.items() if n not in b.removed}
                copy.marker = b.marker if b.complete else None  # the rest goes on the next turn
            else:
                copy.version = None  # it did not fit: ask what the follower holds, then send the difference
                if state.get("refused"):
                    self._say_once("refused:" + str(state["refused"]), f"event {event_id}: {state['refused']}")

    def _say_once(self, key: str, text: str) -> None:
        if self.last_error != key:
            self.last_error = key
            self.say(f"taikai: 公開フォロワー / public follower: {text}")

    def run(self, stop: threading.Event) -> None:
        """Turns until ``stop``; after a failure, waits 1, 2, 4 … (at most ``retry``) seconds before the next."""
        first = min(1.0, self.retry)
        wait = first
        while not stop.is_set():
            try:
                waiting = self.turn()
                self._connected(True)
                wait = first
                if not waiting:
                    _idle(stop)
            except Exception as exc:  # the link, the follower, or a bad answer: retry, never crash the venue
                self.failed(exc)
                stop.wait(wait)
                wait = min(self.retry, wait * 2)
            finally:
                close_old_connections()

    def failed(self, exc: Exception) -> None:
        """A turn that did not go through: the console says so (and why, when the follower refused it)."""
        self._connected(False)
        if isinstance(exc, protocol.BadMessage):
            self._say_once(exc.code, REFUSALS.get(exc.code, exc.code))
        else:
            self.last_error = type(exc).__name__
        if self.client is not None and not isinstance(exc, protocol.BadMessage):
            self.client.close()  # a new connection next time
            self.client = None

    def _connected(self, up: bool) -> None:
        now = timezone.now()
        if self.connected is up:
            if up and time.monotonic() - self.stamped >= STAMP_EVERY:
                self.stamped = time.monotonic()
                PushLink.objects.filter(url=self.url).update(last_ok_at=now)
            return
        self.connected = up
        PushLink.objects.update_or_create(
            url=self.url, defaults={"connected": up, "since": now, **({"last_ok_at": now} if up else {})}
        )
        self.stamped = time.monotonic()
        if up:
            self.say(f"taikai: 公開ページ / public pages: {self.url} 接続中 (connected)")
        else:
            self.say(f"taikai: 公開ページ / public pages: {self.url} 接続が切れています (disconnected, retrying)")


@dataclass(frozen=True)
class Built:
    """What a change sent for one event: the audit marker it was built at, the digests of the documents it
    carried and those it removed, whether it carried every difference, when the clock changes by itself."""

    marker: tuple[int, int]
    digests: dict[str, str]
    removed: frozenset[str]
    complete: bool
    ends: float | None


def _change(
    event_id: int, copy: Copy, marker: tuple[int, int], now: dt.datetime, budget: list[int]
) -> tuple[dict[str, Any] | None, Built]:
    """The event's documents that differ from the follower's copy, within what is left of the message's budget
    (the follower reads at most TAIKAI_MAX_BODY): a first copy of a large event goes over several turns."""
    docs = {name: protocol.canonical(body) for name, body in documents.build(event_id).items()}
    ends = _clock_end(docs.get("clock"))
    sent: dict[str, Any] = {}
    digests: dict[str, str] = {}
    complete = True
    for name, text in docs.items():
        digest = protocol.digest(text)
        if copy.digests.get(name) == digest:
            continue
        if sent and len(text) > budget[0]:
            complete = False
            continue
        sent[name], digests[name] = json.loads(text), digest
        budget[0] -= len(text)
    removed = frozenset(name for name in copy.digests if name not in docs)
    sent.update({name: None for name in removed})
    built = Built(marker, digests, removed, complete, ends)
    if not sent:  # nothing public moved (a deck list, a note): the copy is still exact
        copy.marker, copy.rebuild_at = marker, ends
        return None, built
    change = {
        "event": str(event_id),
        "base": copy.version,
        "version": max(marker[0], (copy.version or 0) + 1),
        "venue_time": now.isoformat(),
        "documents": sent,
    }
    return change, built


def _idle(stop: threading.Event) -> None:
    """Until IDLE has passed, or sooner when the audit log moves (an entry is written with every change)."""
    last = AuditEntry.objects.aggregate(last=Max("id"))["last"]
    deadline = time.monotonic() + IDLE
    while not stop.wait(WATCH) and time.monotonic() < deadline:
        if AuditEntry.objects.aggregate(last=Max("id"))["last"] != last:
            return


def _clock_end(clock_text: str | None) -> float | None:
    """When the copy's clock next changes by itself (the round's time, then each extended table's, runs out)."""
    if not clock_text:
        return None
    clock = json.loads(clock_text)
    ends = clock.get("_ends")
    if ends is None:
        return None
    marks = [float(ends) + t.get("extension", 0) for t in clock.get("tables_playing", [])] + [float(ends)]
    later = [m for m in marks if m > time.time()]
    return min(later) + 1 if later else None


# --- started by `taikai serve` -----------------------------------------------------------------------------------

_started: list[threading.Thread] = []


def start(url: str, token: str, say: Callable[[str], None] = print, retry: float | None = None) -> threading.Event:
    """The pusher on a daemon thread beside the web processes (as the webhook worker); set the event to stop.
    ``retry``: the longest wait between tries while the link is down (None: ``TAIKAI_FOLLOWER_RETRY``)."""
    stop = threading.Event()
    pusher = Pusher(url=url, token=token, say=say, retry=config.retry() if retry is None else retry)
    say(f"taikai: 公開ページ / public pages: {url} に接続します (connecting)")
    thread = threading.Thread(target=pusher.run, args=(stop,), name="taikai-follow", daemon=True)
    thread.start()
    _started.append(thread)
    return stop
