"""Limits nobody else can spend (issue 25, items 3, 4, 6 and 7).

3. A player's own token on another player's deck-list URL spent that player's limit: 20 tries, and the victim
   got 429 for ten minutes on their page and the API. Now the permission is checked first and the count is
   the caller's.
4. The refusal memory answered before credentials were checked (an organizer got a refusal a player earned, a
   bad token a 429 instead of 401), replayed a signed-in page to the next visitor at the address, and was
   bypassed by a new Accept-Language on each try.
6. Anonymous caps closed self-registration and spectator reports for everyone: configurable per event, valid
   player links exempt, the organizer told on the console and able to lift a lockout.
7. Anonymous bodies and player links held the large-upload slots, so the organizer's upload got 503.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from taikai.bench._openloop import run_loop
from taikai.events.actors import Staff
from taikai.events.services import players as player_services
from taikai.security import rates
from taikai.security.models import RateHit
from taikai.security.refusals import MARK, Refusals
from taikai.web.middleware import language_for
from tests.security.conftest import make_user, new_event

DECK = {"text": "3 灰流うらら", "languages": ["ja"]}


# --- 3: a deck-list limit is the caller's ----------------------------------------------------------------------


def _two_players(name: str) -> tuple[Any, Any, str, str]:
    organizer = make_user(name, organizer=True)
    event = new_event(organizer, 2)
    victim, attacker = event.players.order_by("pk")
    return (
        event,
        victim,
        player_services.issue_access(victim, by=Staff(organizer)),
        player_services.issue_access(attacker, by=Staff(organizer)),
    )


def _put_deck(event: Any, player: Any, token: str) -> Any:
    return Client().put(
        f"/api/v1/events/{event.pk}/players/{player.pk}/deck",
        json.dumps(DECK),
        content_type="application/json",
        HTTP_X_PLAYER_TOKEN=token,
    )


@pytest.mark.django_db
def test_another_players_token_on_my_deck_url_does_not_spend_my_limit() -> None:
    event, victim, victim_token, attacker_token = _two_players("org_deck_limit")
    tries = [_put_deck(event, victim, attacker_token).status_code for _ in range(rates.DECK_PER_PLAYER.limit + 5)]
    assert tries == [403] * (rates.DECK_PER_PLAYER.limit + 5)  # before: 20 × 403, then 429 (the victim's limit)
    assert not RateHit.objects.exists()  # a refused caller counts nothing
    assert Client().post(f"/p/{victim_token}/deck/", DECK).status_code == 302  # before: 429 for ten minutes
    assert _put_deck(event, victim, victim_token).status_code == 200


@pytest.mark.django_db
def test_a_deck_list_loop_is_counted_against_the_player_who_sends_it() -> None:
    event, victim, victim_token, attacker_token = _two_players("org_deck_caller")
    attacker = event.players.exclude(pk=victim.pk).get()
    own = [_put_deck(event, attacker, attacker_token).status_code for _ in range(rates.DECK_PER_PLAYER.limit + 1)]
    assert own == [200] * rates.DECK_PER_PLAYER.limit + [429]
    assert _put_deck(event, victim, victim_token).status_code == 200  # the other player's limit is untouched


# --- 4: the refusal memory -----------------------------------------------------------------------------------


class App:
    """A stand-in for Django: a marked 429 (a rate limit's) with a CSRF cookie, counting its calls."""

    def __init__(self, set_cookie: bytes = b"csrftoken=x") -> None:
        self.calls = 0
        self.set_cookie = set_cookie

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.calls += 1
        headers = [(b"content-type", b"text/html"), (b"retry-after", b"60"), (b"set-cookie", self.set_cookie)]
        await send({"type": "http.response.start", "status": 429, "headers": [*headers, (MARK.lower().encode(), b"1")]})
        await send({"type": "http.response.body", "body": f"page {self.calls}".encode(), "more_body": False})


def _ask(app: Refusals, path: str = "/api/v1/events/1/players/2/deck", **headers: str) -> tuple[int, bytes]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    raw = [(name.replace("_", "-").lower().encode(), value.encode()) for name, value in headers.items()]
    scope = {"type": "http", "method": "PUT", "path": path, "client": ("10.0.0.7", 5000), "headers": raw}
    run_loop(lambda: app(scope, receive, send))
    return sent[0]["status"], sent[-1]["body"]


def _memory(inner: App) -> Refusals:
    return Refusals(inner, pause=0, language=language_for, session_cookie="sessionid")


def test_a_remembered_refusal_is_never_answered_to_other_credentials() -> None:
    inner = App()
    app = _memory(inner)
    _ask(app, x_player_token="hostile")
    _ask(app, x_player_token="hostile")
    assert inner.calls == 1  # the player's own loop is answered from memory
    _ask(app, authorization="Bearer organizers-token")  # before: the organizer got the player's 429 (6/6)
    _ask(app, x_player_token="made-up")  # before: 429 instead of Django's 401
    _ask(app, x_player_token="another-player")
    _ask(app)  # no credentials at all: not the player's refusal either
    assert inner.calls == 5


def test_a_signed_in_page_is_never_remembered_nor_replayed() -> None:
    inner = App()
    app = _memory(inner)
    for _ in range(3):
        _ask(app, path="/e/1/report/", cookie="sessionid=staff-session; csrftoken=secret")
    assert inner.calls == 3 and not app.remembered  # a signed-in person's 429 always comes from Django
    _ask(app, path="/e/1/report/")
    _ask(app, path="/e/1/report/", cookie="sessionid=staff-session")
    assert inner.calls == 5  # the next visitor is never shown it, nor the signed-in one a stranger's
    starts_session = App(set_cookie=b"sessionid=new; HttpOnly")
    app = _memory(starts_session)
    _ask(app, path="/e/1/report/")
    _ask(app, path="/e/1/report/")
    assert starts_session.calls == 2  # a refusal that starts a session is that visitor's alone


def test_a_new_accept_language_on_each_try_is_the_same_refused_request() -> None:
    inner = App()
    app = _memory(inner)
    for i in range(40):  # before: each a new key, so 570 → 9,655 requests in 35 s reached Django
        _ask(app, path="/p/tok/pin/", accept_language=f"x{i}-{i},en;q=0.{i % 9}")
    assert inner.calls == 1  # the page is Japanese whatever the header says (only the API reads it)
    for i in range(10):
        _ask(app, accept_language=f"en-GB;q=0.{i},fr")  # the API answers in English each time
        _ask(app, accept_language=f"zz-{i}")  # and in Japanese for a language taikai does not have
    assert inner.calls == 3
    _ask(app, cookie="taikai_language=en")  # the cookie's choice, the same English
    assert inner.calls == 3


# --- 7: the large-upload slots are staff's ---------------------------------------------------------------------


def test_anonymous_and_player_bodies_never_hold_the_organizers_upload_slots() -> None:
    import asyncio

    from taikai.security.bodies import BodyLimits, buffer_bodies

    seen: list[int] = []

    async def django(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append(len((await receive())["body"]))
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    async def staff(scope: dict[str, Any]) -> bool:
        return dict(scope["headers"]).get(b"authorization") == b"Bearer organizer"

    limits = BodyLimits(max_body=1024, max_upload=64 * 1024, timeout=1.0, min_rate=1, upload_slots=2)
    app = buffer_bodies(django, limits, staff)

    async def dribble() -> dict[str, Any]:  # a body that never ends
        await asyncio.sleep(0.2)
        return {"type": "http.request", "body": b"x", "more_body": True}

    def post(headers: list[tuple[bytes, bytes]], receive: Any, answers: list[int]) -> Any:
        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                answers.append(message["status"])

        scope = {"type": "http", "method": "POST", "path": "/cards/import/", "headers": headers}
        return app(scope, receive, send)

    async def attack() -> tuple[list[int], list[int]]:
        hostile: list[int] = []
        chunked = [(b"transfer-encoding", b"chunked")]
        player = [(b"x-player-token", b"a-real-link"), (b"content-length", b"40000")]
        hogs = [asyncio.ensure_future(post(h, dribble, hostile)) for h in (chunked, chunked, player, player)]
        await asyncio.sleep(0.1)  # every hostile body is being read (before: each held a slot)
        upload = b"c" * 40_000
        sent = False

        async def whole() -> dict[str, Any]:
            nonlocal sent
            if sent:
                await asyncio.sleep(10)
            sent = True
            return {"type": "http.request", "body": upload, "more_body": False}

        organizer: list[int] = []
        headers = [(b"authorization", b"Bearer organizer"), (b"content-length", str(len(upload)).encode())]
        await asyncio.wait_for(post(headers, whole, organizer), timeout=0.5)  # before: waited, then 503
        await asyncio.gather(*hogs)
        return organizer, hostile

    organizer, hostile = run_loop(attack)
    assert organizer == [200] and 40_000 in seen
    assert sorted(hostile) == [408, 408, 413, 413]  # the player's 40 KB is over the small cap; the rest too slow
