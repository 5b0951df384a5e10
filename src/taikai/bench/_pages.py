"""Player pages that follow the event stream as ``live.js`` does in a browser, many in one asyncio process (the
publish bench). Each page is a phone with its own address (one loopback address each, 127.1.x.y: the server's
per-address cap sees one phone, as at the venue, not 2,048 from one address).

Per page, as the script does: the page is loaded once (its cookies kept, as a browser keeps them); an
EventSource opens on ``/api/v1/events/<id>/stream``; on a message of a kind the script listens to, a refresh is
scheduled 300 ms later unless one already is (the debounce), and it fetches the page's own URL with
``X-Requested-With: taikai-live``; a result or a time extension at a table the page does not list (its
``data-live-tables``) schedules nothing, as in live.js. A pairing message that seats the page's player (its
``seats``, seat.js) shows the new table at once and puts the refresh off by a random share of its ``spread``.
As clock.js does, each refreshed page then takes its table's clock from the page (or else asks for it), and a
message about the page's own clock asks for it; with the stream open, every page also asks once a minute, at a
moment of its own.

A stream that ends is opened again after the server's ``retry`` (3 s) with ``Last-Event-ID``, and once open
again a refresh is scheduled (what changed meanwhile); one answered other than 200 is given up by the browser,
and the script opens a new one 10 s later. A failed fetch is not retried: the script keeps what it shows until
the next message. Raw asyncio streams, not an HTTP client library: 2,048 open streams and their fetches are
then a small share of one core (the bench prints it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time
from dataclasses import dataclass, field

# live.js's KINDS: the messages a page refreshes on
KINDS = {"pairings", "round-started", "clock-paused", "clock-resumed", "round-finished", "time-called"}
KINDS |= {"time-extended", "result", "players", "event", "judge-call", "access"}
PER_TABLE = {"result", "time-extended"}  # live.js: messages that name their table ("events.match:12")
TABLE_OBJECT = "events.match:"
DEBOUNCE = 0.3  # live.js: several messages in a burst cost one fetch
RETRY = 3.0  # the stream's "retry: 3000": the browser's wait before it opens a dropped stream again
CLOCK_KINDS = {"round-started", "clock-paused", "clock-resumed", "time-called", "result", "time-extended"}
CLOCK_EVERY = 60.0  # clock.js: with the stream open, a poll a minute
REOPEN = 10.0  # live.js: a stream the browser gave up on (an answer other than 200) is opened anew after this
LIVE_KEY = re.compile(rb'id="player-live"[^>]*\bdata-live-key="(\d+):(\d+)"')
TABLE = re.compile(rb"data-clock-url=\"[^\"]*\?table=(\d+)\"")
TABLES = re.compile(rb'id="player-live"[^>]*\bdata-live-tables="([^"]*)"')
PLAYER = re.compile(rb'id="seat-note"[^>]*\bdata-player="(\d+)"')
COOKIE = re.compile(rb"^set-cookie:\s*([^=;\s]+)=([^;\r\n]*)", re.I | re.M)


def address(i: int) -> str:
    """The ``i``-th phone's own loopback address (Linux routes all of 127.0.0.0/8 to the loopback)."""
    return f"127.{1 + i // 62500}.{i // 250 % 250}.{i % 250 + 1}"


@dataclass
class Page:
    """One player's page: what it was shown and when."""

    token: str
    address: str
    cookies: str = ""
    last_event_id: str = ""
    opened: bool = False  # the stream opened at least once (live.js's ``opened``)
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    timer: asyncio.TimerHandle | None = None
    shown: tuple[int, int, int] | None = None  # (round, match, table) of the last answer
    tables: frozenset[str] | None = None  # the tables the last answer listed (None: it follows every table)
    player: int = 0  # seat.js's data-player: the page's player, as the stream's seats name them
    seat: tuple[int, int] | None = None  # (round, table) a pairing message showed (seat.js), once a round is awaited
    seated_at: float | None = None  # time.monotonic() when a message showed the wanted round's table
    seen_at: float | None = None  # time.monotonic() when an answer first showed the wanted round
    fetches: int = 0
    failed: int = 0  # fetches that got no 200
    clock_fetches: int = 0  # clock.js's polls of the table's clock.json
    drops: int = 0  # streams that ended or were refused
    refused: int = 0  # first loads refused (the person opened the page again)


def _dechunk(body: bytes) -> bytes:
    out, rest = [], body
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out.append(rest[:size])
        rest = rest[size + 2 :]
    return b"".join(out)


async def get(host: str, port: int, page: Page, path: str, headers: str = "") -> tuple[int, bytes, bytes]:
    """(status, head, body) of one GET from the page's address on a connection of its own."""
    reader, writer = await asyncio.open_connection(host, port, local_addr=(page.address, 0))
    try:
        cookie = f"Cookie: {page.cookies}\r\n" if page.cookies else ""
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n{cookie}{headers}Connection: close\r\n\r\n".encode()
        )
        raw = await reader.read(-1)
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    head, _, body = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    if b"transfer-encoding: chunked" in head.lower():
        body = _dechunk(body)
    return status, head, body


@dataclass
class Pages:
    """The pages of one event on one server, and the round they are waiting for."""

    host: str
    port: int
    event_id: int
    pages: list[Page]
    want: int = 0  # the round whose table counts as seen
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    in_flight: int = 0  # fetches started, not answered

    def busy(self) -> bool:
        """A refresh is due or under way on some page (the stream may send what happened before the pages
        opened: a process's poller that outlived the last run's pages starts from where it was)."""
        return self.in_flight > 0 or any(p.timer is not None for p in self.pages)

    def reset_counts(self) -> None:
        for page in self.pages:
            page.fetches = page.failed = page.clock_fetches = 0

    def _spawn(self, coro: object) -> None:
        task = asyncio.ensure_future(coro)  # type: ignore[call-overload]
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _read(self, page: Page, body: bytes) -> None:
        key, table = LIVE_KEY.search(body), TABLE.search(body)
        if key is None:
            return
        page.shown = (int(key[1]), int(key[2]), int(table[1]) if table else 0)
        listed, player = TABLES.search(body), PLAYER.search(body)
        page.tables = frozenset(listed[1].decode().split()) if listed else None
        page.player = int(player[1]) if player else 0
        if page.shown[0] == self.want and page.seen_at is None:
            page.seen_at = time.monotonic()

    async def load(self, page: Page, tries: int = 30) -> None:
        """The page as a browser first opens it, its cookies kept for the fetches; refused (a full server's 503),
        the person opens it again a second later."""
        for _ in range(tries):
            try:
                status, head, body = await get(self.host, self.port, page, f"/p/{page.token}/")
            except OSError:  # a full process answers 503 and closes before reading the request: a reset
                status, head, body = 0, b"", b""
            if status == 200:
                break
            page.refused += 1
            await asyncio.sleep(1.0)
        else:
            raise RuntimeError(f"a player's page answered {status} {tries} times")
        page.cookies = "; ".join(f"{k.decode()}={v.decode()}" for k, v in COOKIE.findall(head))
        self._read(page, body)

    async def _fetch(self, page: Page) -> None:
        page.fetches += 1
        self.in_flight += 1
        try:
            status, _, body = await get(
                self.host, self.port, page, f"/p/{page.token}/", "X-Requested-With: taikai-live\r\n"
            )
        except OSError:
            status, body = 0, b""
        finally:
            self.in_flight -= 1
        if status != 200:
            page.failed += 1
            return
        self._read(page, body)
        if b"data-clock-state=" not in body:  # clock.js takes a clock the page carries, else polls
            self._spawn(self._clock(page))

    async def _clock(self, page: Page) -> None:
        """clock.js's poll of the page's table clock (the page's own table, as its clock URL names it)."""
        if page.shown is None or not page.shown[2]:
            return
        page.clock_fetches += 1
        with contextlib.suppress(OSError):
            await get(self.host, self.port, page, f"/e/{self.event_id}/clock.json?table={page.shown[2]}")

    async def _clock_every_minute(self, page: Page) -> None:
        await asyncio.sleep(random.uniform(0, CLOCK_EVERY))  # the phones opened at moments of their own
        while True:
            await self._clock(page)
            await asyncio.sleep(CLOCK_EVERY)

    def schedule(self, page: Page, delay: float = 0.0) -> None:
        if page.timer is None:

            def fire() -> None:
                page.timer = None
                self._spawn(self._fetch(page))

            page.timer = asyncio.get_running_loop().call_later(DEBOUNCE + delay, fire)

    def follow(self, page: Page) -> None:
        self._spawn(self._stream(page))
        self._spawn(self._clock_every_minute(page))

    def _seated(self, page: Page, data: str) -> float | None:
        """seat.js: the refresh's delay when the pairing message seats the page's player (None: it does not)."""
        seats = json.loads(data or "{}").get("seats") or {}
        row = next((t for t in seats.get("tables", ()) if page.player in (t[1], t[2])), None)
        if row is None:
            return None
        if seats["round"] == self.want and page.seated_at is None:
            page.seat, page.seated_at = (seats["round"], row[0]), time.monotonic()
        return random.uniform(0, float(seats.get("spread") or 0))

    async def _stream(self, page: Page) -> None:
        while True:
            wait = await self._stream_once(page)
            page.drops += 1
            await asyncio.sleep(wait)

    async def _stream_once(self, page: Page) -> float:
        """One EventSource connection until it ends; the seconds before the next one."""
        try:
            reader, writer = await asyncio.open_connection(self.host, self.port, local_addr=(page.address, 0))
        except OSError:
            return REOPEN
        try:
            resume = f"Last-Event-ID: {page.last_event_id}\r\n" if page.last_event_id else ""
            writer.write(
                f"GET /api/v1/events/{self.event_id}/stream HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                f"Accept: text/event-stream\r\nCache-Control: no-cache\r\n{resume}\r\n".encode()
            )
            head = await reader.readuntil(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 200"):
                return REOPEN
            if page.opened or page.drops:
                self.schedule(page)  # live.js's onopen after a failure: what changed while it was down
            page.opened = True
            await self._messages(page, reader)
            return RETRY
        except (OSError, asyncio.IncompleteReadError, ValueError):
            return RETRY
        finally:
            writer.close()

    @staticmethod
    def _concerns(page: Page, kind: str, data: str) -> bool:
        """live.js's ``concerns``: a message not known to be about a table other than the page's."""
        if page.tables is None or kind not in PER_TABLE:
            return True
        object_ = str(json.loads(data or "{}").get("object") or "")
        return not object_.startswith(TABLE_OBJECT) or object_ in page.tables

    async def _messages(self, page: Page, reader: asyncio.StreamReader) -> None:
        buffer, kind, event_id, data = b"", "", "", ""
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                return
            buffer += (await reader.readexactly(size + 2))[:-2]
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                if line.startswith(b": connected"):
                    page.connected.set()
                elif line.startswith(b"event:"):
                    kind = line[6:].strip().decode()
                elif line.startswith(b"id:"):
                    event_id = line[3:].strip().decode()
                elif line.startswith(b"data:"):
                    data = line[5:].decode()
                elif not line:
                    if event_id:
                        page.last_event_id = event_id
                    if kind in KINDS and self._concerns(page, kind, data):
                        delay = self._seated(page, data) if kind == "pairings" else None
                        self.schedule(page, delay or 0.0)
                        if kind in CLOCK_KINDS:
                            self._spawn(self._clock(page))
                    kind, event_id, data = "", "", ""

    async def close(self) -> None:
        for page in self.pages:
            if page.timer is not None:
                page.timer.cancel()
                page.timer = None
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
