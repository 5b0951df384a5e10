"""An open-loop HTTP/1.1 load generator: requests leave on a fixed schedule whatever the server answers.

A closed-loop client (wrk, get_load) sends its next request only after the last reply, so a slow server
slows the client and the queue it would have met is never measured ("coordinated omission"). Here request
``i`` is due at ``start + i / rate``; its latency runs from that due time, not from when it was written, so
a request that waited for a free connection (or for this client's own loop) counts as late. Connections are
opened as needed up to ``limit`` and kept alive; when all are busy a due request waits for one.

One asyncio loop and an ``asyncio.Protocol`` that counts body bytes without keeping them: the server shares
the same two cores, so the client must cost little. Loopback only, bounded in requests and seconds.
"""

from __future__ import annotations

import asyncio
import math
import threading
from collections import Counter
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

MAX_HEAD = 64 * 1024


# --- the pure parts --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    """One request: when it was due, when it was written, when its answer ended (loop clock, seconds)."""

    due: float
    sent: float
    done: float
    status: int  # 0: no answer (refused, cut, or not answered within the timeout)

    @property
    def latency(self) -> float:
        return self.done - self.due

    @property
    def lag(self) -> float:
        """How late the client itself wrote the request (waiting for its loop or for a free connection)."""
        return self.sent - self.due


def percentile(values: Iterable[float], p: float) -> float:
    """The nearest-rank percentile: the smallest value with at least ``p`` % of the values at or below it."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class Step:
    """What one offered rate got."""

    offered: float  # requests per second on the schedule
    samples: tuple[Sample, ...]

    @property
    def answered(self) -> int:
        return sum(1 for s in self.samples if s.status)

    @property
    def errors(self) -> int:
        return sum(1 for s in self.samples if not 200 <= s.status < 400)

    @property
    def achieved(self) -> float:
        """Answers per second, from the first due time to the last answer."""
        if not self.samples:
            return 0.0
        span = max(s.done for s in self.samples) - min(s.due for s in self.samples)
        return self.answered / span if span > 0 else 0.0

    def latency_ms(self, p: float) -> float:
        return percentile((s.latency for s in self.samples), p) * 1000

    def lag_ms(self, p: float) -> float:
        return percentile((s.lag for s in self.samples), p) * 1000

    def statuses(self) -> Counter[int]:
        return Counter(s.status for s in self.samples)


@dataclass(frozen=True)
class Crossing:
    """Where p99 first goes over the target: between ``below`` and ``above`` (None: not in the range run)."""

    below: float | None
    above: float | None
    estimate: float | None  # linear interpolation of p99 between the two rates

    def describe(self, unit: str = "req/s") -> str:
        if self.above is None:
            return f"not crossed up to {self.below:.0f} {unit}" if self.below is not None else "no rates run"
        if self.below is None:
            return f"already crossed at the lowest rate, {self.above:.0f} {unit}"
        return f"between {self.below:.0f} and {self.above:.0f} {unit} (≈ {self.estimate:.0f} by linear interpolation)"


def crossing(points: Sequence[tuple[float, float]], threshold: float) -> Crossing:
    """The first rate whose p99 is over ``threshold``, from (rate, p99) pairs in increasing rate order."""
    for i, (rate, p99) in enumerate(points):
        if p99 > threshold or math.isnan(p99):
            if i == 0:
                return Crossing(None, rate, None)
            low, low_p99 = points[i - 1]
            if math.isnan(p99) or p99 == low_p99:
                return Crossing(low, rate, rate)
            return Crossing(low, rate, low + (rate - low) * (threshold - low_p99) / (p99 - low_p99))
    return Crossing(points[-1][0] if points else None, None, None)


def tally(statuses: Counter[int] | Iterable[int]) -> str:
    """``200×1180, 429×20, no answer×3``: every status with its count, most common first."""
    counts = statuses if isinstance(statuses, Counter) else Counter(statuses)
    if not counts:
        return "none"
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{'no answer' if status == 0 else status}×{n}" for status, n in ordered)


def get(path: str, host: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: taikai-bench\r\n\r\n".encode()


# --- the connection ----------------------------------------------------------------------------------------------


T = TypeVar("T")


def run_loop(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """``asyncio.run(main())``, on a thread of its own when this thread already runs an event loop (a test
    process where a browser driver keeps one running)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(main())
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = asyncio.run(main())
        except BaseException as exc:  # handed to the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=run, name="openloop")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


class _Connection(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection: one request at a time, the answer's body counted, not kept."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.answer: asyncio.Future[int] | None = None
        self.usable = True
        self._state = "head"  # head, body (``_left`` bytes), size (a chunk-size line), chunk, close (until EOF)
        self._buffer = bytearray()  # the head, or a chunk-size line, being read
        self._left = 0
        self._status = 0
        self._last = False  # the chunk being skipped is the last (empty) one
        self._close_after = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def send(self, raw: bytes) -> asyncio.Future[int]:
        assert self.transport is not None and self.usable
        self.answer = asyncio.get_running_loop().create_future()
        self._state, self._status = "head", 0
        self._buffer.clear()
        self.transport.write(raw)
        return self.answer

    def close(self) -> None:
        self.usable = False
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.usable = False
        if self.answer is not None and not self.answer.done():
            self.answer.set_result(self._status if self._state == "close" else 0)

    def _finish(self) -> None:
        self._state = "head"
        if self.answer is not None and not self.answer.done():
            self.answer.set_result(self._status)
        if self._close_after:
            self.close()

    def data_received(self, data: bytes) -> None:
        view = memoryview(data)
        while view and self.usable:
            if self._state in ("head", "size"):
                view = self._read_line(view)
            elif self._state in ("body", "chunk"):
                taken = min(self._left, len(view))
                self._left -= taken
                view = view[taken:]
                if self._left == 0:
                    self._end_of_part()
            else:  # "close": the body runs to the end of the connection
                return

    def _read_line(self, view: memoryview) -> memoryview:
        """Add to the head (up to its blank line) or to a chunk-size line (up to its CRLF)."""
        before = len(self._buffer)
        self._buffer += view
        mark = b"\r\n\r\n" if self._state == "head" else b"\r\n"
        end = self._buffer.find(mark, max(0, before - len(mark) + 1))
        if end < 0:
            if len(self._buffer) > MAX_HEAD:
                self.close()
            return view[len(view) :]
        line = bytes(self._buffer[:end])
        rest = view[end + len(mark) - before :]
        self._buffer.clear()
        if self._state == "head":
            self._start_body(line)
        else:
            size = int(line.split(b";")[0], 16)
            self._state, self._left, self._last = "chunk", size + 2, size == 0  # the data and its CRLF
        return rest

    def _start_body(self, head: bytes) -> None:
        lines = head.split(b"\r\n")
        self._status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip().lower()
        self._close_after = headers.get(b"connection") == b"close"
        if b"content-length" in headers:
            self._state, self._left = "body", int(headers[b"content-length"])
        elif headers.get(b"transfer-encoding") == b"chunked":
            self._state = "size"
        elif self._status in (204, 304):
            self._state, self._left = "body", 0
        else:
            self._state = "close"
        if self._state == "body" and self._left == 0:
            self._finish()

    def _end_of_part(self) -> None:
        if self._state == "chunk" and not self._last:
            self._state = "size"
        else:
            self._finish()  # no trailers from the servers measured here


class _Pool:
    """Up to ``limit`` keep-alive connections; a caller waits (in line) when all are busy."""

    def __init__(self, host: str, port: int, limit: int) -> None:
        self.host, self.port, self.limit = host, port, limit
        self.idle: list[_Connection] = []
        self.opened = 0
        self.waiting: list[asyncio.Future[None]] = []

    async def acquire(self) -> _Connection:
        while True:
            while self.idle:
                conn = self.idle.pop()
                if conn.usable:
                    return conn
                self.opened -= 1  # the server closed it while it was idle (its keep-alive timeout)
            if self.opened < self.limit:
                self.opened += 1
                try:
                    _, conn = await asyncio.get_running_loop().create_connection(_Connection, self.host, self.port)
                except BaseException:
                    self.opened -= 1
                    self._wake()
                    raise
                return conn
            turn = asyncio.get_running_loop().create_future()
            self.waiting.append(turn)
            try:
                await turn
            except BaseException:
                if turn in self.waiting:
                    self.waiting.remove(turn)
                elif turn.done() and not turn.cancelled():
                    self._wake()  # pass on the turn this caller will not use
                raise

    def release(self, conn: _Connection) -> None:
        if conn.usable:
            self.idle.append(conn)
        else:
            self.opened -= 1
        self._wake()

    def _wake(self) -> None:
        while self.waiting:
            turn = self.waiting.pop(0)
            if not turn.done():
                turn.set_result(None)
                return

    async def warm(self, count: int) -> None:
        conns = [await self.acquire() for _ in range(min(count, self.limit))]
        for conn in conns:
            self.release(conn)

    def close(self) -> None:
        for conn in self.idle:
            conn.close()
        self.idle.clear()


# --- the schedule -----------------------------------------------------------------------------------------------


async def _one(pool: _Pool, raw: bytes, due: float, timeout: float) -> Sample:
    loop = asyncio.get_running_loop()
    sent = math.nan
    conn: _Connection | None = None
    status = 0
    try:
        async with asyncio.timeout_at(due + timeout):
            conn = await pool.acquire()
            sent = loop.time()
            status = await conn.send(raw)
    except (TimeoutError, OSError):
        if conn is not None:
            conn.close()  # its answer may still come: the connection cannot be reused
    finally:
        if conn is not None:
            pool.release(conn)
    done = loop.time()
    return Sample(due, done if math.isnan(sent) else sent, done, status)


async def offer_async(pool: _Pool, requests: Sequence[bytes], rate: float, timeout: float) -> Step:
    loop = asyncio.get_running_loop()
    start = loop.time() + 0.01
    tasks = []
    for i, raw in enumerate(requests):
        due = start + i / rate
        delay = due - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.ensure_future(_one(pool, raw, due, timeout)))
    return Step(rate, tuple(await asyncio.gather(*tasks)))


def offer(
    url: str,
    steps: Sequence[tuple[float, Sequence[bytes]]],
    *,
    limit: int = 256,
    warm: int = 0,
    timeout: float = 5.0,
    pause: float = 0.5,
    stop: Callable[[Step], bool] | None = None,
) -> list[Step]:
    """Offer each (rate, requests) step in turn to ``url`` (``http://host:port``) over one pool of connections;
    a step ends when each of its requests is answered or has waited ``timeout`` seconds from its due time.
    When ``stop`` says so after a step, the steps after it are not run."""
    from urllib.parse import urlparse

    target = urlparse(url)

    async def main() -> list[Step]:
        pool = _Pool(target.hostname or "127.0.0.1", target.port or 80, limit)
        await pool.warm(warm)
        results = []
        try:
            for rate, requests in steps:
                results.append(await offer_async(pool, requests, rate, timeout))
                if stop is not None and stop(results[-1]):
                    break
                await asyncio.sleep(pause)
        finally:
            pool.close()
        return results

    return run_loop(main)
