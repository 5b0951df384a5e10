"""No single client stalls the venue (issue 16, H1): slow and oversized request bodies, on a real server.

Before, a worker thread blocked while it read a body: 40 connections sending a few bytes a second held every
thread of the pool and every page timed out. Now bodies are read on the event loop with a deadline and a cap.
All of this runs on loopback against `taikai serve`, bounded in connections and seconds.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from taikai.bench._live import Database, Server, seed


def _slow_post(port: int, path: str, stop: threading.Event, answers: list[bytes], extra: str = "") -> None:
    """Promise a 1,000-byte body and send it at one byte every half second, then read what the server says."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(
            (
                f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                f"Content-Length: 1000\r\n{extra}\r\n"
            ).encode()
        )
        sock.settimeout(0.5)
        answer = b""
        while not stop.is_set():
            with contextlib.suppress(OSError):
                sock.sendall(b" ")
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


@contextlib.contextmanager
def _slow_clients(port: int, count: int) -> Iterator[list[bytes]]:
    stop = threading.Event()
    answers: list[bytes] = []
    paths = ["/login/", "/api/v1/events/1/players"]  # a form and a cookie-less JSON API write
    threads = [
        threading.Thread(target=_slow_post, args=(port, paths[i % 2], stop, answers), daemon=True) for i in range(count)
    ]
    for t in threads:
        t.start()
    try:
        yield answers
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=10)


@pytest.fixture
def small_server(live_db: Database, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    # A small pool makes the old failure certain: 4 threads, 40 slow clients.
    monkeypatch.setenv("TAIKAI_THREADS", "4")
    monkeypatch.setenv("TAIKAI_BODY_TIMEOUT", "3")
    with Server(live_db, workers=1) as server:
        yield server


def test_forty_slow_bodies_do_not_stall_pages(small_server: Server) -> None:
    with _slow_clients(small_server.port, 40) as answers:
        time.sleep(1.0)  # every slow client has sent its headers and is dribbling its body
        for _ in range(5):
            t0 = time.monotonic()
            page = httpx.get(small_server.url + "/login/", timeout=10)
            assert page.status_code == 200
            assert time.monotonic() - t0 < 2.0
        # The deadline (3 s plus the time 1,000 bytes need at an honest rate) cuts every slow client off.
        deadline = time.monotonic() + 15
        while len(answers) < 40 and time.monotonic() < deadline:
            time.sleep(0.2)
            if sum(a.startswith(b"HTTP/1.1 408") for a in answers) == 40:
                break
    assert len(answers) == 40
    assert all(a.startswith(b"HTTP/1.1 408") for a in answers), answers[:3]


def test_oversized_anonymous_body_is_refused_before_it_is_read(small_server: Server) -> None:
    t0 = time.monotonic()
    with socket.create_connection(("127.0.0.1", small_server.port), timeout=10) as sock:
        sock.sendall(
            b"POST /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\n"
            b"Content-Length: 314572800\r\n\r\n"
        )
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413")
    assert time.monotonic() - t0 < 2.0
    # A chunked body without a length is cut off as soon as it passes the cap.
    with httpx.Client(timeout=10) as client:
        big = (b"x" * 65536 for _ in range(64))  # 4 MiB, more than the 1 MiB anonymous cap
        assert client.post(small_server.url + "/login/", content=big).status_code == 413
        # An ordinary small form still works through the same path.
        assert client.get(small_server.url + "/login/").status_code == 200


def test_a_large_body_is_read_only_for_credentials_that_are_real(small_server: Server) -> None:
    """A made-up session cookie or player token used to get the upload cap (64 MiB: the CSRF check then parsed
    a 48 MiB multipart body before the sign-in page answered). Now a body over the anonymous cap is read only
    once the credentials are found real; a small body never waits for that check."""
    seeded = seed(small_server.db, 2)
    match = seeded["matches"][0]
    url = f"{small_server.url}/api/v1/events/{seeded['event_id']}/matches/{match['id']}/result"
    big = b"x" * (2 * 1024 * 1024)  # over the 1 MiB anonymous cap, under the upload cap
    with httpx.Client(timeout=30) as client:
        for made_up in ({"Cookie": "sessionid=0123456789abcdefghijklmnopqrstuv"}, {"X-Player-Token": "made-up"}):
            t0 = time.monotonic()
            assert client.post(url, content=big, headers=made_up).status_code == 413
            assert time.monotonic() - t0 < 5.0
        # Issue 25: a player's real link is not staff either; its lists and forms fit the anonymous cap.
        assert client.post(url, content=big, headers={"X-Player-Token": match["a_token"]}).status_code == 413
        small = client.post(url, json={"duels": []}, headers={"X-Player-Token": "made-up"})
        assert small.status_code == 401
