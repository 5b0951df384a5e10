"""Issue 16, under attack: a request a rate limit refused is answered from memory until its Retry-After.

A PIN loop on one player's link was refused (429) by the database's count on every try, but each refusal still
took a thread and a trip through Django, so the loop took most of a core from the phones reporting results.
"""

from __future__ import annotations

from typing import Any

from django.test import Client

from taikai.bench._openloop import run_loop
from taikai.events.actors import Staff
from taikai.events.services import links
from taikai.security import rates
from taikai.security.refusals import MARK, Refusals
from tests.factories import make_user, new_event


class App:
    """A stand-in for Django: answers ``status`` (marked as a rate limit's refusal when ``marked``)."""

    def __init__(self, status: int = 429, marked: bool = True, retry_after: str = "60") -> None:
        self.calls = 0
        self.status, self.marked, self.retry_after = status, marked, retry_after

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.calls += 1
        headers = [(b"content-type", b"text/html"), (b"retry-after", self.retry_after.encode())]
        headers += [(b"set-cookie", b"csrftoken=x")] + ([(MARK.lower().encode(), b"1")] if self.marked else [])
        await send({"type": "http.response.start", "status": self.status, "headers": headers})
        await send({"type": "http.response.body", "body": "待ってください".encode(), "more_body": False})


def _request(
    app: Refusals, address: str = "10.0.0.7", path: str = "/p/abc/pin/", cookie: str = ""
) -> tuple[int, dict[bytes, bytes]]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"pin=123456", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    headers = [(b"cookie", cookie.encode())] if cookie else []
    scope = {"type": "http", "method": "POST", "path": path, "client": (address, 5000), "headers": headers}
    run_loop(lambda: app(scope, receive, send))  # on a thread of its own where a browser test's loop runs
    return sent[0]["status"], dict(sent[0]["headers"])


def test_a_refused_request_repeated_is_answered_without_the_application_until_it_may_retry() -> None:
    now = [1000.0]
    inner = App()
    app = Refusals(inner, clock=lambda: now[0], pause=0)
    status, headers = _request(app)
    assert (status, inner.calls) == (429, 1) and MARK.lower().encode() not in headers  # the mark stays inside
    now[0] += 20
    status, headers = _request(app)
    assert (status, inner.calls) == (429, 1)  # answered from memory
    assert headers[b"retry-after"] == b"40" and b"set-cookie" not in headers
    assert _request(app, address="10.0.0.8")[0] == 429 and inner.calls == 2  # another phone is asked afresh
    assert _request(app, path="/p/other/pin/")[0] == 429 and inner.calls == 3  # another link too
    _request(app, cookie="csrftoken=x; taikai_language=en")
    assert inner.calls == 4  # the visitor switched to English: answered afresh, in English
    now[0] += 41
    _request(app)
    assert inner.calls == 5  # past its Retry-After the request reaches the application again


def test_only_a_rate_limits_marked_refusal_is_remembered() -> None:
    for inner in (App(marked=False), App(status=200, marked=False), App(retry_after="0")):
        app = Refusals(inner, pause=0)
        _request(app)
        _request(app)
        assert inner.calls == 2  # a sign-in throttle's 429 depends on the device's cookie: always asked


def test_at_most_capacity_refusals_are_remembered_the_oldest_forgotten_first() -> None:
    inner = App()
    app = Refusals(inner, capacity=2, pause=0)
    for address in ("10.0.0.1", "10.0.0.2", "10.0.0.3"):
        _request(app, address=address)
    assert len(app.remembered) == 2
    _request(app, address="10.0.0.1")
    assert inner.calls == 4  # forgotten, so asked again
    _request(app, address="10.0.0.3")
    assert inner.calls == 4


def test_the_pin_rate_limits_refusal_is_marked_for_the_memory(db: None) -> None:
    """The mark is what the memory keys on: the PIN rate's 429 carries it; a sign-in refusal does not."""
    organizer = make_user("org_refusal", organizer=True)
    event = new_event(organizer, 1)
    token = links.issue_access(event.players.get(), by=Staff(organizer))
    client = Client()
    answers = [client.post(f"/p/{token}/pin/", {"pin": f"86421{i}"}) for i in range(rates.PIN_PER_PLAYER.limit + 1)]
    assert [a.status_code for a in answers] == [302] * rates.PIN_PER_PLAYER.limit + [429]
    assert answers[-1].has_header(MARK) and int(answers[-1]["Retry-After"]) > 0
    for i in range(40):  # past every sign-in limit
        login = client.post("/login/", {"username": "org_refusal", "password": f"wrong-{i}"})
    assert login.status_code == 429 and not login.has_header(MARK)


def test_a_remembered_refusal_is_answered_after_a_pause_so_a_loop_slows_down() -> None:
    import time

    inner = App()
    app = Refusals(inner, pause=0.2)
    _request(app)
    started = time.monotonic()
    assert _request(app)[0] == 429 and inner.calls == 1
    assert time.monotonic() - started >= 0.2  # one such request per connection every PAUSE seconds, at most
