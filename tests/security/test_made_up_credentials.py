"""Issue 25, the attack bench's "big uploads": a loop of large bodies with a made-up session cookie.

Each try made the server read the database to find the session not real, as fast as the loop could send
(460 tries a second once the hostile client wrote its body a chunk at a time), and on PostgreSQL those reads
took pooled connections from the result reports. The credential checks run one at a time per process, and a
refusal of made-up credentials waits, as a failed sign-in does; real staff are neither queued long nor delayed.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from taikai.bench._openloop import run_loop
from taikai.security.bodies import BodyLimits, buffer_bodies

LARGE = 40_000  # over the anonymous cap below
LIMITS = BodyLimits(max_body=1024, max_upload=64 * 1024, timeout=1.0, min_rate=1, refused_delay=0.3)


class Checks:
    """A stand-in for the session lookup: real only for the organizer's token; counts how many run at once."""

    def __init__(self) -> None:
        self.running = 0
        self.most = 0
        self.calls = 0

    async def __call__(self, scope: dict[str, Any]) -> bool:
        self.calls += 1
        self.running += 1
        self.most = max(self.most, self.running)
        await asyncio.sleep(0.01)  # a database read
        self.running -= 1
        headers: dict[bytes, bytes] = dict(scope["headers"])
        return headers.get(b"authorization") == b"Bearer organizer"


async def _django(scope: dict[str, Any], receive: Any, send: Any) -> None:
    await receive()
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


async def _post(app: Any, credentials: tuple[bytes, bytes]) -> tuple[int, float]:
    """(status, seconds until the answer began) of one upload of LARGE bytes."""
    started = time.monotonic()
    answered: list[tuple[int, float]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"c" * LARGE, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answered.append((message["status"], time.monotonic() - started))

    headers = [credentials, (b"content-length", str(LARGE).encode())]
    await app({"type": "http", "method": "POST", "path": "/cards/import/", "headers": headers}, receive, send)
    return answered[0]


def test_made_up_sessions_are_checked_one_at_a_time_and_refused_after_a_wait() -> None:
    checks = Checks()
    app = buffer_bodies(_django, LIMITS, checks)

    async def attack() -> list[tuple[int, float]]:
        forged = [_post(app, (b"cookie", f"sessionid=made-up-{i}".encode())) for i in range(8)]
        return await asyncio.gather(*forged)

    answers = run_loop(attack)
    assert [status for status, _ in answers] == [413] * 8
    assert min(waited for _, waited in answers) >= LIMITS.refused_delay
    assert checks.calls == 8 and checks.most == 1  # before: all eight read the database at once


def test_a_real_organizers_upload_is_not_delayed() -> None:
    app = buffer_bodies(_django, LIMITS, Checks())
    status, waited = run_loop(lambda: _post(app, (b"authorization", b"Bearer organizer")))
    assert status == 200 and waited < LIMITS.refused_delay


def test_a_small_body_with_a_made_up_session_is_not_checked_here() -> None:
    """Under the anonymous cap the view's own session middleware decides, as for any page: no check, no wait."""
    checks = Checks()
    app = buffer_bodies(_django, LIMITS, checks)

    async def small() -> list[int]:
        statuses: list[int] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"x" * 10, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                statuses.append(message["status"])

        headers = [(b"cookie", b"sessionid=made-up"), (b"content-length", b"10")]
        await app({"type": "http", "method": "POST", "path": "/", "headers": headers}, receive, send)
        return statuses

    assert run_loop(small) == [200] and checks.calls == 0
