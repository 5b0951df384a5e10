"""Request bodies are read on the event loop, whole, before a worker thread is taken.

Ordinary requests run on a small pool of threads (taikai.asgi). A thread that reads a body blocks for as long
as the client takes to send it, so forty phones sending ten bytes a second would hold every thread and every
page would time out. Here the body is read by a coroutine, which costs nothing while it waits, against a
deadline and a size cap: a body that is too large is refused with 413 before it is read (or as soon as it
grows past the cap), one that is too slow with 408. The thread then gets the buffered body at once.

Large bodies (file uploads: a card database) are accepted only from signed-in staff (a session or an API
token, found real before the body is read), so an anonymous client or a player's link cannot make the server
buffer, or write to its temp folder, more than the small cap. Only those large bodies take one of the few
upload slots: an anonymous chunked body or a player's big list once held both slots, and the organizer's 2 MB
upload got 503 (issue 25). Every other body is read under the small cap without a slot.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

TOO_LARGE = "送信されたデータが大きすぎます。 / The request is too large.\n"
BUSY = "ただいま混み合っています。少し待ってからもう一度お試しください。 / Busy: please try again in a moment.\n"
TOO_SLOW = "送信に時間がかかりすぎたため中断しました。もう一度お試しください。 / The request took too long to send.\n"


@dataclass(frozen=True)
class BodyLimits:
    max_body: int  # bytes, any request
    max_upload: int  # bytes, a signed-in staff session's or an API token's request
    timeout: float  # seconds for the whole body, plus the time a slow but honest upload needs
    min_rate: int  # bytes per second an honest upload keeps up at least
    upload_slots: int = 2  # large bodies buffered at once (memory: upload_slots x max_upload at most)
    refused_delay: float = 1.0  # seconds before a large body whose credentials were made up is refused


def _header(scope: Scope, name: bytes) -> bytes:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value)
    return b""


def _authenticated(scope: Scope) -> bool:
    """A staff session cookie or an API token header is present (found real by ``verify`` before a large body
    is read). A player's link is not staff: its lists and forms fit the small cap."""
    cookie = _header(scope, b"cookie")
    return b"sessionid=" in cookie or bool(_header(scope, b"authorization"))


def cap_for(scope: Scope, limits: BodyLimits) -> int:
    return limits.max_upload if _authenticated(scope) else limits.max_body


Verifier = Callable[[Scope], Awaitable[bool]]


async def _cap(
    scope: Scope, limits: BodyLimits, length: int | None, verify: Verifier | None, checks: asyncio.Semaphore
) -> tuple[int, bool]:
    """The cap for this request's body, and whether its credentials were found made up. Credentials that are
    merely present are enough for a small body; a body larger than the anonymous cap is read only once
    ``verify`` has found them real (a made-up ``sessionid`` cookie got the upload cap before, and with it 48 MB
    bodies parsed by the CSRF check).

    ``verify`` reads the database, so one runs at a time per process (``checks``): a loop of made-up sessions
    took several of PostgreSQL's pooled connections from the result reports (issue 25, "big uploads")."""
    cap = cap_for(scope, limits)
    if cap == limits.max_body or verify is None or (length is not None and length <= limits.max_body):
        return cap, False
    async with checks:
        real = await verify(scope)
    return (limits.max_upload, False) if real else (limits.max_body, True)


async def _refuse_large(send: Send, limits: BodyLimits, made_up: bool) -> None:
    """413; after ``refused_delay`` when the credentials were made up, as a failed sign-in waits: an upload loop
    with a made-up session was refused as fast as it could try (460 a second, each a database read)."""
    if made_up:
        await asyncio.sleep(limits.refused_delay)
    await _answer(send, 413, TOO_LARGE)


async def _answer(send: Send, status: int, text: str) -> None:
    body = text.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class _TooLarge(Exception):
    pass


async def _read(receive: Receive, cap: int) -> bytes | None:
    """The whole body, or None when the client went away."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > cap:
            raise _TooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def buffer_bodies(app: App, limits: BodyLimits, verify: Verifier | None = None) -> App:
    """Wrap an ASGI app so that it sees each HTTP request's body already read, or never sees the request.
    ``verify`` tells whether a request's credentials are real (see ``_cap``)."""
    slots = asyncio.Semaphore(limits.upload_slots)
    checks = asyncio.Semaphore(1)  # credential checks running at once (see _cap)

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        raw_length = _header(scope, b"content-length")
        length = int(raw_length) if raw_length.isdigit() else None
        cap, made_up = await _cap(scope, limits, length, verify, checks)
        if length is not None and length > cap:
            await _refuse_large(send, limits, made_up)
            return
        if length == 0 or (length is None and not _header(scope, b"transfer-encoding")):
            await app(scope, receive, send)
            return
        allowed = limits.timeout + (length or 0) / max(1, limits.min_rate)
        large = cap > limits.max_body and (length is None or length > limits.max_body)  # verified staff only
        if large:
            try:
                await asyncio.wait_for(slots.acquire(), timeout=limits.timeout)
            except TimeoutError:
                await _answer(send, 503, BUSY)
                return
        try:
            body = await asyncio.wait_for(_read(receive, cap), timeout=allowed)
        except _TooLarge:
            await _refuse_large(send, limits, made_up)
            return
        except TimeoutError:
            await _answer(send, 408, TOO_SLOW)
            return
        finally:
            if large:
                slots.release()
        if body is None:
            return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: only the disconnect remains

        await app(scope, replay, send)

    return guarded
