"""A request a rate limit refused is answered again from memory until its Retry-After, before it takes a thread.

A refused request still cost a whole trip through Django: a thread, the middleware, the view, the database
read that refuses it. A client repeating one refused request as fast as it could (a PIN loop on a player's
link) so took most of a core from every phone reporting a result (``make bench BENCH=attack``: report p99
5.1× the baseline on SQLite). The limit is still decided in the database (taikai.security.rates); this only
remembers a refusal that ``rates.too_many`` answered (it marks it with ``MARK``), for the same client address,
method, path, language and player token, and answers it here until it expires, after a pause of ``PAUSE``
seconds: a client looping on a refused request then sends one a second per connection instead of thousands (a
person who was refused waits minutes anyway). Each process remembers its own refusals, at most ``CAPACITY``.

Only requests without sign-in credentials are remembered or answered (issue 25): a request with a session
cookie or an ``Authorization`` header always reaches Django, which checks the credentials first (a bad token is
a 401, an organizer's write is never refused for what a player at the same address earned), and a signed-in
page (with its CSRF token) is never replayed to anyone. A player token sent as ``X-Player-Token`` is part of
the key, as the token in a ``/p/<token>/`` path is: only that player's same request gets their refusal.
A refusal marked with ``MARK_FOR`` is remembered for at most that many seconds (an anonymous form's, whose
lockout the organizer may lift). The language in the key is the one the answer is in (one of taikai's few,
chosen as taikai.web.middleware.language_for does), not the raw Accept-Language: a new header on each try is
the same request.

Sign-in refusals (taikai.security.throttle) are not marked: whether a sign-in is refused depends on the device's
cookie, so the right password on an already-known device must always reach Django.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from typing import Any

MARK = "X-Taikai-Refused"  # set by rates.too_many on its 429, taken off here before the client sees it
_MARK = MARK.lower().encode()
# Seconds to remember it, when less than its Retry-After: an anonymous form's lockout the organizer lifts, or a cap
# they raise, reaches every process that soon (taikai.security.services). Taken off too.
MARK_FOR = "X-Taikai-Refused-For"
_MARK_FOR = MARK_FOR.lower().encode()
CAPACITY = 10_000
PAUSE = 1.0  # seconds before a remembered refusal is answered (a coroutine waits, no thread)

Key = tuple[str, str, str, str, str]
Language = Callable[[str | None, str, str], str]  # (language cookie, path, Accept-Language) -> the answer's


def _no_choice(cookie: str | None, path: str, accept_language: str) -> str:
    return cookie or ""


@dataclass(frozen=True)
class Refusal:
    until: float  # remembered until then
    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes
    retry_at: float = 0.0  # what Retry-After counts down to, when later than ``until``


def _header(scope: dict[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return ""


def _cookies(scope: dict[str, Any]) -> SimpleCookie:
    cookies = SimpleCookie()
    with contextlib.suppress(CookieError):
        cookies.load(_header(scope, b"cookie"))
    return cookies


def _signed_in(scope: dict[str, Any], cookies: SimpleCookie, session_cookie: str) -> bool:
    """A session cookie or an Authorization header: Django checks them, and its answer is that person's."""
    return session_cookie in cookies or bool(_header(scope, b"authorization"))


def _key(scope: dict[str, Any], cookies: SimpleCookie, language_cookie: str, language: Language) -> Key:
    """Address, method and path, the language of the answer, and the player token the request carries."""
    client = scope.get("client") or ("", 0)
    morsel = cookies.get(language_cookie)
    path = str(scope.get("path", ""))
    chosen = language(morsel.value if morsel is not None else None, path, _header(scope, b"accept-language"))
    token = _header(scope, b"x-player-token")
    player = hashlib.sha256(token.encode("latin-1")).hexdigest() if token else ""
    return (str(client[0]), str(scope.get("method", "")), path, chosen, player)


def _retry_after(headers: list[tuple[bytes, bytes]]) -> int:
    for name, value in headers:
        if name.lower() == b"retry-after":
            try:
                return max(0, int(value))
            except ValueError:
                return 0
    return 0


class Refusals:
    """ASGI middleware: remember marked refusals, answer their repeats."""

    def __init__(
        self,
        app: Any,
        clock: Callable[[], float] = time.monotonic,
        capacity: int = CAPACITY,
        pause: float = PAUSE,
        language_cookie: str = "taikai_language",
        language: Language = _no_choice,
        session_cookie: str = "sessionid",
    ) -> None:
        self.app = app
        self.language_cookie = language_cookie
        self.language = language
        self.session_cookie = session_cookie
        self.clock = clock
        self.capacity = capacity
        self.pause = pause
        self.remembered: OrderedDict[Key, Refusal] = OrderedDict()

    def _recall(self, key: Key) -> Refusal | None:
        refusal = self.remembered.get(key)
        if refusal is not None and refusal.until <= self.clock():
            del self.remembered[key]
            return None
        return refusal

    def _remember(self, key: Key, refusal: Refusal) -> None:
        self.remembered[key] = refusal
        self.remembered.move_to_end(key)
        while len(self.remembered) > self.capacity:
            self.remembered.popitem(last=False)  # the oldest refusal goes first

    async def _answer(self, refusal: Refusal, send: Any) -> None:
        if self.pause:
            await asyncio.sleep(self.pause)
        wait = str(max(1, math.ceil(max(refusal.until, refusal.retry_at) - self.clock()))).encode()
        headers = [(n, wait if n.lower() == b"retry-after" else v) for n, v in refusal.headers]
        await send({"type": "http.response.start", "status": refusal.status, "headers": headers})
        await send({"type": "http.response.body", "body": refusal.body, "more_body": False})

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cookies = _cookies(scope)
        if _signed_in(scope, cookies, self.session_cookie):
            await self.app(scope, receive, send)
            return
        key = _key(scope, cookies, self.language_cookie, self.language)
        refusal = self._recall(key)
        if refusal is not None:
            await self._answer(refusal, send)
            return
        started: dict[str, Any] = {}
        body: list[bytes] = []
        session = self.session_cookie.encode() + b"="

        async def watch(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if any(name.lower() == _MARK for name, _ in headers):
                    remember = _retry_after([(b"retry-after", v) for n, v in headers if n.lower() == _MARK_FOR])
                    headers = [(n, v) for n, v in headers if n.lower() not in (_MARK, _MARK_FOR)]
                    started["remember"] = remember
                    message = {**message, "headers": headers}
                    cookies = [v for n, v in headers if n.lower() == b"set-cookie"]
                    if not any(v.startswith(session) for v in cookies):  # a page that starts a session is theirs
                        kept = [(n, v) for n, v in headers if n.lower() != b"set-cookie"]  # said once, not again
                        started.update(status=message["status"], headers=kept)
            elif message["type"] == "http.response.body" and "status" in started:
                body.append(message.get("body", b""))
                wait = _retry_after(started["headers"])
                if not message.get("more_body", False) and wait:
                    now = self.clock()
                    until = now + (min(wait, started["remember"]) if started["remember"] else wait)
                    refusal = Refusal(until, started["status"], started["headers"], b"".join(body), now + wait)
                    self._remember(key, refusal)
            await send(message)

        await self.app(scope, receive, watch)
