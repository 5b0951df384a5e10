"""Hostile webhooks (issue 25, item 2): no way inside, each reproduced with real local servers.

SSRF: loopback, 169.254.169.254, private and numeric addresses were accepted, the error told which internal ports
were open, and a receiver's 302 made the server GET any URL. Internal destinations are refused unless
TAIKAI_WEBHOOK_ALLOW names them, so every test that needs a local receiver allows 127.0.0.1 itself (``allow``).
One organizer stopping the others (item 1) is test_webhooks.py."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from typing import Any

import pytest
from pytest_django import Settings

from taikai.config import ConfigError, load_webhooks
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event
from taikai.messages import text
from taikai.webhooks import delivery, net
from taikai.webhooks.models import Webhook
from tests.factories import new_event
from tests.security.webhook_receivers import (
    Raw,
    Receiver,
    event_with_hooks,
    hooks_organizer,
    keep,
    something_happens,
    stored_hook,
)

pytestmark = pytest.mark.django_db


# --- item 2: no way inside -----------------------------------------------------------------------------------

INTERNAL = [
    "http://127.0.0.1:8000/",
    "http://localhost/",
    "http://app.localhost/",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.5/",
    "http://172.16.0.1/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",
    "http://0.0.0.0/",
    "http://224.0.0.1/",
    "http://240.0.0.1/",
    "http://[::1]/",
    "http://[::]/",
    "http://[fe80::1]/",
    "http://[fd00::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:169.254.169.254]/",
    "http://[2002:7f00:1::]/",  # 6to4 around 127.0.0.1
]
NUMERIC = ["http://2130706433/", "http://0x7f.1/", "http://127.1/", "http://0177.0.0.1/", "http://0x7f000001/"]


@pytest.mark.parametrize("url", INTERNAL + NUMERIC)
def test_internal_and_numeric_destinations_are_refused_when_saved(url: str, settings: Settings) -> None:
    settings.WEBHOOKS = load_webhooks({})
    organizer = hooks_organizer()
    event = new_event(organizer, 4)
    with pytest.raises(ServiceError) as refused:
        delivery.create_webhook(event, by=Staff(organizer), url=url)
    if url in NUMERIC:  # read by resolvers as 127.0.0.1: only the plain dotted form is accepted
        assert refused.value.problem.code == "webhook-url-host"
        assert "4つの10進数" in text(refused.value.problem, "ja")
    else:
        assert refused.value.problem.code == "webhook-url-internal"
        assert "内部のアドレス" in text(refused.value.problem, "ja")
        assert "TAIKAI_WEBHOOK_ALLOW" in text(refused.value.problem, "en")


def test_public_destinations_are_accepted(settings: Settings) -> None:
    settings.WEBHOOKS = load_webhooks({})
    organizer = hooks_organizer()
    event = new_event(organizer, 4)
    for url in ("https://discord.com/api/webhooks/1/x", "http://93.184.216.34/", "http://[2606:4700::1111]/"):
        assert delivery.create_webhook(event, by=Staff(organizer), url=url)[0].url == url


def test_what_the_operator_allows_is_accepted(settings: Settings) -> None:
    organizer = hooks_organizer()
    event = new_event(organizer, 4)
    settings.WEBHOOKS = load_webhooks({"TAIKAI_WEBHOOK_ALLOW": "127.0.0.1, 10.0.0.0/8, hooks.lan, ::1"})
    for url in ("http://127.0.0.1:8000/", "http://10.1.2.3/", "http://hooks.lan/", "http://[::1]/"):
        delivery.create_webhook(event, by=Staff(organizer), url=url)
    with pytest.raises(ServiceError):  # only what is named
        delivery.create_webhook(event, by=Staff(organizer), url="http://192.168.1.1/")
    for bad in ("http://x/", "0x7f.1", "a b"):
        with pytest.raises(ConfigError) as wrong:
            load_webhooks({"TAIKAI_WEBHOOK_ALLOW": bad})
        assert wrong.value.setting == "TAIKAI_WEBHOOK_ALLOW"
    defaults = load_webhooks({})
    assert (defaults.allow_hosts, defaults.allow_networks) == ((), ())  # nothing internal unless named
    assert (defaults.per_event, defaults.timeout, defaults.workers, defaults.disable_after) == (5, 5, 8, 5)
    for name, value in (
        ("TAIKAI_WEBHOOK_TIMEOUT", "0"),
        ("TAIKAI_WEBHOOK_WORKERS", "x"),
        ("TAIKAI_WEBHOOKS_PER_EVENT", "0"),
    ):
        with pytest.raises(ConfigError) as wrong:
            load_webhooks({name: value})
        assert wrong.value.setting == name


def test_the_resolved_address_is_checked_at_delivery_and_is_the_one_connected_to(
    servers: list[Any], allow: Callable[..., None], monkeypatch: pytest.MonkeyPatch
) -> None:
    allow("")
    organizer = hooks_organizer()
    inside = keep(servers, Receiver())
    port = inside.server.server_port
    real = socket.getaddrinfo
    answers = {"hooks.example": "127.0.0.1"}  # a public name that now answers with an internal address

    def getaddrinfo(host: str, *args: Any, **kwargs: Any) -> Any:
        if host in answers:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (answers[host], port))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    event, (hook,) = event_with_hooks(organizer, f"http://hooks.example:{port}/hook")  # fine when saved
    stored = stored_hook(event, organizer, f"http://0x7f.1:{port}/old")  # saved before numeric forms were refused
    something_happens(event, organizer)
    assert delivery.deliver_due() == 0 and inside.received == []
    for h in (hook, stored):
        h.refresh_from_db()
        assert h.last_error == net.REFUSED
    # Allowed by the operator, the same name is delivered: to the address that was checked.
    allow("127.0.0.1")
    Webhook.objects.update(next_attempt_at=None, failures=0)
    assert delivery.deliver_due() >= 2
    assert {r[0]["Host"] for r in inside.received} == {f"hooks.example:{port}", f"0x7f.1:{port}"}


def test_the_error_says_nothing_about_internal_ports(servers: list[Any], allow: Callable[..., None]) -> None:
    organizer = hooks_organizer()
    listening = keep(servers, Raw(None))
    closed = socket.create_server(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]
    closed.close()
    for allowed in ("", "127.0.0.1"):  # refused before connecting, or connected: one word either way
        allow(allowed)
        event = new_event(organizer, 4, name=f"ports{allowed}")
        open_hook = stored_hook(event, organizer, listening.url)
        closed_hook = stored_hook(event, organizer, f"http://127.0.0.1:{closed_port}/hook")
        something_happens(event, organizer)
        delivery.deliver_due()
        open_hook.refresh_from_db()
        closed_hook.refresh_from_db()
        assert open_hook.last_error == closed_hook.last_error
        assert open_hook.last_error == (net.REFUSED if not allowed else net.NO_ANSWER)


def test_a_redirect_is_not_followed(servers: list[Any], allow: Callable[..., None]) -> None:
    organizer = hooks_organizer()
    target = keep(servers, Receiver())

    def redirect(conn: socket.socket) -> None:
        conn.sendall(f"HTTP/1.1 302 Found\r\nLocation: {target.url}\r\nContent-Length: 0\r\n\r\n".encode())

    bouncer = keep(servers, Raw(redirect))
    event, (hook,) = event_with_hooks(organizer, bouncer.url)
    something_happens(event, organizer)
    assert delivery.deliver_due() == 0
    time.sleep(0.2)
    assert target.received == []  # no GET, no POST to where the 302 pointed
    hook.refresh_from_db()
    assert hook.last_error == "HTTP 302"


@pytest.mark.django_db(transaction=True)
def test_two_requests_at_once_cannot_both_take_the_last_place(settings: Settings) -> None:
    from tests.security.test_concurrency import at_once

    settings.WEBHOOKS = load_webhooks({"TAIKAI_WEBHOOKS_PER_EVENT": "3"})
    organizer = hooks_organizer()
    event = new_event(organizer, 2)
    delivery.create_webhook(event, by=Staff(organizer), url="https://example.com/0")

    def add(i: int) -> Callable[[], Any]:
        return lambda: delivery.create_webhook(
            Event.objects.get(pk=event.pk), by=Staff(organizer), url=f"https://example.com/{i}"
        )

    results = at_once(*(add(i) for i in range(1, 7)))
    refused = [r for r in results if isinstance(r, ServiceError)]
    assert len(refused) == 4 and all(r.problem.code == "webhook-limit" for r in refused), results
    assert Webhook.objects.filter(event=event).count() == 3
