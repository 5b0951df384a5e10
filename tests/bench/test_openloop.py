"""The open-loop generator and the attack table's pure parts (issue 16: pairings at a fixed offered rate,
report p99 while a hostile client runs)."""

from __future__ import annotations

import asyncio
import math
import threading
from collections import Counter
from collections.abc import Iterator

import pytest

from taikai.bench._openloop import Sample, Step, _Connection, crossing, get, offer, percentile, run_loop, tally


def test_percentile_is_the_nearest_rank() -> None:
    values = [float(v) for v in range(100, 0, -1)]
    assert percentile(values, 99) == 99.0
    assert percentile(values, 50) == 50.0
    assert percentile(values, 100) == 100.0
    assert percentile([7.0], 99) == 7.0
    assert math.isnan(percentile([], 99))


def test_latency_runs_from_the_due_time_not_from_the_send() -> None:
    # Requests due every 10 ms; the 10th waited 900 ms for a connection, then took 100 ms.
    samples = [Sample(due=i / 100, sent=i / 100, done=i / 100 + 0.005, status=200) for i in range(99)]
    samples.append(Sample(due=0.99, sent=1.89, done=1.99, status=200))
    step = Step(100.0, tuple(samples))
    assert step.latency_ms(100) == pytest.approx(1000.0)  # not the 100 ms from send to answer
    assert step.lag_ms(100) == pytest.approx(900.0)
    assert step.latency_ms(99) == pytest.approx(5.0)
    assert step.latency_ms(50) == pytest.approx(5.0)


def test_achieved_rate_and_errors_count_only_answers() -> None:
    samples = [Sample(i / 10, i / 10, i / 10 + 0.1, 200) for i in range(9)] + [Sample(0.9, 0.9, 1.0, 0)]
    step = Step(10.0, tuple(samples))
    assert step.answered == 9
    assert step.errors == 1
    assert step.achieved == pytest.approx(9.0)
    assert step.statuses() == Counter({200: 9, 0: 1})


def test_the_crossing_rate_is_interpolated_between_the_last_rate_under_and_the_first_over() -> None:
    found = crossing([(100, 20.0), (200, 40.0), (300, 160.0), (500, 900.0)], 100.0)
    assert (found.below, found.above) == (200, 300)
    assert found.estimate == pytest.approx(250.0)
    assert found.describe() == "between 200 and 300 req/s (≈ 250 by linear interpolation)"


def test_a_crossing_at_the_first_rate_or_never() -> None:
    assert crossing([(100, 150.0), (200, 400.0)], 100.0).describe() == "already crossed at the lowest rate, 100 req/s"
    assert crossing([(100, 5.0), (200, 9.0)], 100.0).describe() == "not crossed up to 200 req/s"
    assert crossing([(100, 5.0), (200, math.nan)], 100.0).above == 200  # a rate that got no answer crosses


def test_status_tallies_list_the_most_common_first() -> None:
    assert tally([200, 429, 200, 0, 200, 429, 302]) == "200×3, 429×2, no answer×1, 302×1"
    assert tally(Counter()) == "none"


class _Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.closed = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        pass

    def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize("cut", [1, 2, 7, 19, 64, 1000])
def test_answers_are_read_by_length_chunked_or_to_a_close_in_any_pieces(cut: int) -> None:
    answers = [
        (b"HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world", 200, True),
        (
            b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n3;x=y\r\nabc\r\n0\r\n\r\n",
            404,
            True,
        ),
        (b"HTTP/1.1 302 Found\r\nContent-Length: 0\r\nLocation: /\r\n\r\n", 302, True),
        (b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 3\r\n\r\nbye", 408, False),
    ]

    async def read_all() -> None:
        conn = _Connection()
        conn.connection_made(_Transport())
        for raw, status, reusable in answers:
            answer = conn.send(b"GET / HTTP/1.1\r\n\r\n")
            for i in range(0, len(raw), cut):
                assert not answer.done()
                conn.data_received(raw[i : i + cut])
            assert answer.result() == status
            assert conn.usable is reusable

    run_loop(read_all)


@pytest.fixture
def slow_server() -> Iterator[str]:
    """A server that takes 100 ms per answer, one connection at a time."""
    ready = threading.Event()
    box: dict[str, object] = {}

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while await reader.readuntil(b"\r\n\r\n"):
                await asyncio.sleep(0.1)
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()  # the client gave up on this connection

    async def main() -> None:
        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        stop = asyncio.Event()
        box.update(port=server.sockets[0].getsockname()[1], loop=asyncio.get_running_loop(), stop=stop)
        ready.set()
        await stop.wait()
        server.close()
        await server.wait_closed()

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    thread.start()
    ready.wait(10)
    yield f"http://127.0.0.1:{box['port']}"
    loop, stop = box["loop"], box["stop"]
    assert isinstance(loop, asyncio.AbstractEventLoop) and isinstance(stop, asyncio.Event)
    loop.call_soon_threadsafe(stop.set)
    thread.join(10)


def test_a_slow_server_is_seen_falling_behind_the_schedule(slow_server: str) -> None:
    # 20 requests due over 1 s (every 50 ms) on one connection that answers every 100 ms: the last one
    # leaves about 1 s late. A closed-loop client would report 100 ms for every request.
    (step,) = offer(slow_server, [(20.0, [get("/", "x")] * 20)], limit=1)
    dues = [s.due for s in step.samples]
    assert [round(b - a, 3) for a, b in zip(dues, dues[1:], strict=False)] == [0.05] * 19
    assert step.statuses() == Counter({200: 20})
    assert step.latency_ms(100) > 900
    assert step.lag_ms(100) > 800
    assert min(s.done - s.sent for s in step.samples) >= 0.09


def test_a_request_not_answered_within_the_timeout_is_an_error(slow_server: str) -> None:
    (step,) = offer(slow_server, [(100.0, [get("/", "x")] * 10)], limit=1, timeout=0.25)
    counts = step.statuses()
    assert counts[200] >= 1 and counts[0] >= 5  # the later ones waited past 250 ms
    assert all(s.latency < 0.75 for s in step.samples)  # none waited much past its timeout
