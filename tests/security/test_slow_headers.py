"""Issue 25 item 13: connections that never finish a request head stayed open (3,000 of them), and nothing
capped how many a process held. Now a head has a deadline and a size cap, and connections have caps in
total and per address (taikai.security.connections). A real `taikai serve` on loopback."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from taikai.bench._live import Database, Server


@pytest.fixture
def guarded_server(live_db: Database, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    monkeypatch.setenv("TAIKAI_HEADER_TIMEOUT", "2")
    monkeypatch.setenv("TAIKAI_MAX_CONNECTIONS_PER_ADDRESS", "60")
    monkeypatch.setenv("TAIKAI_MAX_CONNECTIONS", "150")
    with Server(live_db, workers=1) as server:
        yield server


def _connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    return sock


def _drip(sock: socket.socket, stop: threading.Event, answers: list[bytes]) -> None:
    """Half a request head, then one header line every half second, for ever."""
    with contextlib.suppress(OSError):
        sock.sendall(b"GET /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    sock.settimeout(0.5)
    answer = b""
    n = 0
    while not stop.is_set():
        with contextlib.suppress(OSError):
            sock.sendall(f"X-Slow-{n}: 1\r\n".encode())
            n += 1
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            continue
        except OSError:
            break
        if not chunk:
            break
        answer += chunk
    answers.append(answer)
    sock.close()


def test_slow_request_heads_are_cut_off_at_the_deadline_and_pages_keep_working(guarded_server: Server) -> None:
    stop = threading.Event()
    answers: list[bytes] = []
    socks = [_connect(guarded_server.port, f"127.0.0.{2 + i % 3}") for i in range(150)]
    threads = [threading.Thread(target=_drip, args=(s, stop, answers), daemon=True) for s in socks]
    for t in threads:
        t.start()
    try:
        time.sleep(0.5)
        page = httpx.get(guarded_server.url + "/login/", timeout=5)  # 127.0.0.1: not one of the slow addresses
        assert page.status_code in (200, 503)
        deadline = time.monotonic() + 10
        while len(answers) < 150 and time.monotonic() < deadline:
            time.sleep(0.2)
        elapsed = time.monotonic() - deadline + 10
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=5)
    assert len(answers) == 150  # every slow head was closed by the server, none left open
    assert elapsed < 6
    assert sum(a.startswith(b"HTTP/1.1 408") for a in answers) >= 140, {a[:30] for a in answers}
    assert httpx.get(guarded_server.url + "/login/", timeout=5).status_code == 200


def test_one_address_cannot_hold_every_connection(guarded_server: Server) -> None:
    held = [_connect(guarded_server.port, "127.0.0.9") for _ in range(80)]
    try:
        time.sleep(0.5)
        refused = 0
        for sock in held:
            sock.settimeout(0.2)
            with contextlib.suppress(TimeoutError):
                if sock.recv(100).startswith(b"HTTP/1.1 503"):
                    refused += 1
        assert refused == 20  # over the 60 per address
        # someone else, at another address, is served at once
        with _connect(guarded_server.port, "127.0.0.10") as other:
            other.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            assert other.recv(100).startswith(b"HTTP/1.1 200")
    finally:
        for sock in held:
            sock.close()


def test_a_process_holds_at_most_its_connection_cap(guarded_server: Server) -> None:
    held = [_connect(guarded_server.port, f"127.0.1.{i % 50 + 1}") for i in range(170)]
    try:
        time.sleep(0.5)
        refused = 0
        for sock in held:
            sock.settimeout(0.2)
            with contextlib.suppress(TimeoutError):
                if sock.recv(100).startswith(b"HTTP/1.1 503"):
                    refused += 1
        assert refused == 20
    finally:
        for sock in held:
            sock.close()


def test_a_huge_request_head_is_refused(guarded_server: Server) -> None:
    with _connect(guarded_server.port) as sock:
        sock.sendall(b"GET /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        with contextlib.suppress(OSError):
            for _ in range(200):
                sock.sendall(b"X-Big: " + b"a" * 1000 + b"\r\n")
        answer = sock.recv(100)
    assert answer.startswith(b"HTTP/1.1 431") or answer.startswith(b"HTTP/1.1 400"), answer


def _whole_response(sock: socket.socket) -> bytes:
    """One response read to its last byte (a head and its body may come in separate packets)."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(4096)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")),
        0,
    )
    while len(body) < length:
        body += sock.recv(4096)
    return data


def test_a_kept_alive_connection_gets_the_deadline_again_for_its_next_request(guarded_server: Server) -> None:
    with _connect(guarded_server.port) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        first = _whole_response(sock)
        assert first.startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /healthz HTTP/1.1\r\n")  # the next head, never finished
        t0 = time.monotonic()
        sock.settimeout(10)
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 408") and time.monotonic() - t0 < 4


async def _late_last_message(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """What a2wsgi does under load: the whole body, then the empty last message a moment later (from its thread)."""
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok", "more_body": True})
    await asyncio.sleep(0.5)
    await send({"type": "http.response.body", "body": b"", "more_body": False})


@pytest.fixture
def late_completing_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """uvicorn with the guard and a 2 s head deadline, serving an app whose responses complete late."""
    import dataclasses

    import uvicorn

    from taikai.security import connections

    monkeypatch.setattr(connections, "LIMITS", dataclasses.replace(connections.LIMITS, header_timeout=2))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        _late_last_message,
        host="127.0.0.1",
        port=port,
        http=connections.GuardedHTTP,
        timeout_keep_alive=5,
        lifespan="off",
        log_level="warning",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_a_next_head_sent_before_the_response_completes_gets_the_deadline(late_completing_server: int) -> None:
    # The client has the whole body (its Content-Length) and starts the next request before uvicorn counts the
    # response complete; that head's deadline runs from the response's end (it waited for the 5 s keep-alive).
    with _connect(late_completing_server) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert _whole_response(sock).startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET / HTTP/1.1\r\n")  # the next head, never finished, sent within the 0.5 s
        t0 = time.monotonic()
        sock.settimeout(10)
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 408") and time.monotonic() - t0 < 4, (answer, time.monotonic() - t0)
