"""Server-sent events per event, by tailing the audit log (no Redis: every process reads the database).

One poller per event and process reads new AuditEntry rows a few times a second and fans them out to
that process's open streams, so hundreds of open connections cost one small query per tick. The
clock's "time" moment has no audit entry; the poller derives it from the round's stored clock.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.db import close_old_connections, connections
from django.http import Http404, HttpRequest, StreamingHttpResponse
from django.utils import timezone

from taikai.audit.feed import Message, message_of
from taikai.audit.models import AuditEntry
from taikai.core.ids import parse_id
from taikai.events import seating
from taikai.events.models import Event, Round
from taikai.events.services import clock as clock_services

T = TypeVar("T")

POLL_SECONDS = 0.25
CLOCK_EVERY = 4  # ticks between clock checks (one second)
# A ping when nothing else was sent for this long: a named event, which a page's script hears (a comment line
# it would not), so live.js can tell a stream gone silent (Wi-Fi lost without a reset) from a quiet event and
# open a new one; it also keeps proxies from closing an idle stream.
KEEPALIVE_SECONDS = 4.0
PING = b"event: ping\ndata: {}\n\n"
LOOKBACK = 50  # re-read the last ids: on PostgreSQL a lower id can commit after a higher one
BACKLOG_LIMIT = 500


def _rows_after(event_id: int, after: int, limit: int = BACKLOG_LIMIT) -> list[tuple[int, Any, str, str, str]]:
    close_old_connections()
    qs = AuditEntry.objects.filter(event_id=event_id, id__gt=after).order_by("id")
    return list(qs.values_list("id", "at", "action", "object_type", "object_id")[:limit])


def _seats(event_id: int, object_ref: str | None) -> dict[str, Any] | None:
    close_old_connections()
    return seating.seats(event_id, object_ref)


def _event_exists(event_id: int) -> bool:
    return Event.objects.filter(pk=event_id).exists()


async def shared(fn: Callable[..., T], *args: Any) -> T:
    """Run ORM code on asgiref's one process-wide sync thread, not the request's own thread.

    Hundreds of streams then share one database connection (PostgreSQL allows ~100 by default),
    and a stream's request thread holds none while the stream stays open.
    """
    task = asyncio.get_running_loop().create_task(sync_to_async(fn)(*args), context=contextvars.Context())
    return await task


def _last_id(event_id: int) -> int:
    close_old_connections()
    return AuditEntry.objects.filter(event_id=event_id).order_by("-id").values_list("id", flat=True).first() or 0


def _clock_key(event_id: int) -> tuple[int, str] | None:
    """(round number, status) of the event's current round clock, or None before the first round."""
    close_old_connections()
    rnd = Round.objects.filter(event_id=event_id).order_by("-number").first()
    if rnd is None:
        return None
    return rnd.number, clock_services.round_clock(rnd, now=timezone.now().timestamp()).status


@dataclass
class Tail:
    """The poller of one event in this process."""

    event_id: int
    last_id: int
    subscribers: set[asyncio.Queue[Message]] = field(default_factory=set)
    recent: deque[int] = field(default_factory=lambda: deque(maxlen=4 * LOOKBACK))
    clock: tuple[int, str] | None = None
    task: asyncio.Task[None] | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    def publish(self, message: Message) -> None:
        for queue in self.subscribers:
            queue.put_nowait(message)

    async def start(self) -> None:
        """What is already in the log is history, also inside the look-back window."""
        if self.last_id == 0:
            self.last_id = await sync_to_async(_last_id)(self.event_id)
            history = await sync_to_async(_rows_after)(self.event_id, max(0, self.last_id - LOOKBACK))
            self.recent.extend(row[0] for row in history)
        self.clock = await sync_to_async(_clock_key)(self.event_id)
        self.ready.set()

    async def run(self) -> None:
        tick = 0
        await self.start()
        while self.subscribers:
            rows = await sync_to_async(_rows_after)(self.event_id, max(0, self.last_id - LOOKBACK))
            for row in rows:
                if row[0] in self.recent:
                    continue
                self.recent.append(row[0])
                self.last_id = max(self.last_id, row[0])
                message = message_of(row)
                if message is not None:
                    self.publish(await self._with_seats(message))
            if tick % CLOCK_EVERY == 0:
                await self._check_clock()
            tick += 1
            await asyncio.sleep(POLL_SECONDS)

    async def _with_seats(self, message: Message) -> Message:
        """A pairing message with where every player now sits (taikai.events.seating), read once for all this
        process's streams: a player's page shows its table from it, without a fetch in the same second as
        every other page."""
        if message.kind != "pairings":
            return message
        seats = await sync_to_async(_seats)(self.event_id, message.data.get("object"))
        return message if seats is None else Message(message.id, message.kind, {**message.data, "seats": seats})

    async def _check_clock(self) -> None:
        clock = await sync_to_async(_clock_key)(self.event_id)
        if clock is not None and clock[1] == "time" and clock != self.clock:
            self.publish(Message(None, "time-called", {"round": clock[0]}))
        self.clock = clock


class Hub:
    """The tails of one event loop (one per server process, and one per test server)."""

    def __init__(self) -> None:
        self.tails: dict[int, Tail] = {}

    async def subscribe(self, event_id: int) -> asyncio.Queue[Message]:
        queue: asyncio.Queue[Message] = asyncio.Queue()
        tail = self.tails.get(event_id)
        if tail is None:  # registered before any await, so concurrent subscribers share one poller
            tail = self.tails[event_id] = Tail(event_id, 0)
        tail.subscribers.add(queue)
        if tail.task is None or tail.task.done():
            tail.ready.clear()
            # A fresh context: the poller must not run in (and outlive) the first subscriber's request
            # thread; all pollers of the process share asgiref's one global sync thread instead.
            tail.task = asyncio.get_running_loop().create_task(self._run(tail), context=contextvars.Context())
        await tail.ready.wait()
        return queue

    async def _run(self, tail: Tail) -> None:
        try:
            await tail.run()
        finally:
            tail.ready.set()  # never leave a subscriber waiting on a poller that failed to start
            await sync_to_async(connections.close_all)()
            if not tail.subscribers and self.tails.get(tail.event_id) is tail:
                del self.tails[tail.event_id]

    def unsubscribe(self, event_id: int, queue: asyncio.Queue[Message]) -> None:
        tail = self.tails.get(event_id)
        if tail is not None:
            tail.subscribers.discard(queue)

    def end(self) -> None:
        """End every open stream of this loop (the server stops): each page's script opens a new one, from the
        Last-Event-ID it had, once a server answers again."""
        for tail in self.tails.values():
            tail.publish(END)

    def open_streams(self) -> int:
        return sum(len(t.subscribers) for t in self.tails.values())


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}
END = Message(None, "end", {})  # Hub.end's word to each stream: return


def hub() -> Hub:
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        for old in [lp for lp in _hubs if lp.is_closed()]:
            del _hubs[old]
        found = _hubs[loop] = Hub()
    return found


def _resume_from(request: HttpRequest) -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.GET.get("last_event_id") or ""
    return parse_id(raw, digits=18)


async def _events(event_id: int, resume_from: int | None) -> AsyncIterator[bytes]:
    the_hub = hub()
    queue = await the_hub.subscribe(event_id)
    try:
        yield b"retry: 3000\n: connected\n\n"
        sent: set[int] = set()
        if resume_from is not None:
            for row in await shared(_rows_after, event_id, resume_from):
                message = message_of(row)
                sent.add(row[0])
                if message is not None:
                    yield message.encode()
        last_write = time.monotonic()
        while True:
            timeout = KEEPALIVE_SECONDS - (time.monotonic() - last_write)
            try:
                message = await asyncio.wait_for(queue.get(), timeout=max(0.1, timeout))
            except TimeoutError:
                yield PING
                last_write = time.monotonic()
                continue
            if message is END:
                return
            if message.id is not None and message.id in sent:
                continue
            yield message.encode()
            last_write = time.monotonic()
    finally:
        the_hub.unsubscribe(event_id, queue)


async def event_stream(request: HttpRequest, event_id: int) -> StreamingHttpResponse:
    """GET /api/v1/events/{id}/stream: text/event-stream; resume with the Last-Event-ID header."""
    if not await shared(_event_exists, event_id):
        raise Http404
    response = StreamingHttpResponse(_events(event_id, _resume_from(request)), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a reverse proxy must not buffer the stream
    return response
