"""Hostile webhooks (issue 25, item 1): one organizer cannot stop the others, each reproduced with real local servers.

One organizer stopped every webhook: a URL with a TAB or a receiver answering a non-HTTP line raised an exception
nothing caught (every later webhook never delivered, the bad one retried every second); a receiver dripping a byte
at a time held the only delivery thread; hanging receivers delayed another event. Internal destinations are refused
unless TAIKAI_WEBHOOK_ALLOW names them (item 2: test_webhook_destinations.py), so every test that needs a local
receiver allows 127.0.0.1 itself (``allow``).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from taikai.audit.models import AuditEntry
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.services import clock as clock_services
from taikai.tokens.services import create_token
from taikai.webhooks import delivery, net
from taikai.webhooks.models import Webhook
from tests.factories import Api, new_event
from tests.security.webhook_receivers import (
    Good,
    Raw,
    Receiver,
    answer_dripping,
    answer_not_http,
    event_with_hooks,
    hooks_organizer,
    keep,
    something_happens,
    stored_hook,
)

pytestmark = pytest.mark.django_db


# --- item 1: one organizer cannot stop the others ------------------------------------------------------------


def test_a_url_with_a_tab_is_refused_when_saved_in_japanese_and_english(
    client: Client, allow: Callable[..., None]
) -> None:
    organizer = hooks_organizer()
    event = new_event(organizer, 4)
    token = create_token(event, by=Staff(organizer), username=organizer.username, role="organizer")[1]
    for lang, words in (("ja", "空白や制御文字"), ("en", "spaces or control characters")):
        r = Api(client, token=token, lang=lang).post(f"/events/{event.pk}/webhooks", {"url": "http://ex\tample.com/"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "webhook-url-spaces"
        assert words in r.json()["error"]["message"]
    for bad, code in (
        ("http://example.com/a b", "webhook-url-spaces"),
        ("http://example.com/\x00", "webhook-url-spaces"),
        ("http://example.com/\u200b", "webhook-url-spaces"),
        ("http://example.com/" + "a" * 500, "webhook-url-too-long"),
        ("ftp://example.com/", "bad-webhook-url"),
        ("javascript:alert(1)", "bad-webhook-url"),
        ("http:///nohost", "webhook-url-host"),
        ("http://user:pw@example.com/", "webhook-url-host"),
        ("http://example.com:99999/", "webhook-url-host"),
    ):
        with pytest.raises(ServiceError) as refused:
            delivery.create_webhook(event, by=Staff(organizer), url=bad)
        assert refused.value.problem.code == code, bad
    assert not Webhook.objects.filter(event=event).exists()  # nothing half-saved
    # Surrounding blanks from a paste are trimmed; a Japanese path is sent percent-encoded.
    hook, _secret = delivery.create_webhook(event, by=Staff(organizer), url="  https://example.com/大会\n")
    assert hook.url == "https://example.com/大会"
    assert net._parse(hook.url).path == "/%E5%A4%A7%E4%BC%9A"


def test_a_bad_stored_url_or_a_non_http_answer_stops_no_other_webhook(
    servers: list[Any], allow: Callable[..., None]
) -> None:
    organizer = hooks_organizer()
    good = keep(servers, Receiver())
    garbage = keep(servers, Raw(answer_not_http))
    event = new_event(organizer, 4)
    tab = stored_hook(event, organizer, "http://127.0.0.1:1/a\tb")
    junk, _s = delivery.create_webhook(event, by=Staff(organizer), url=garbage.url)
    later, _s = delivery.create_webhook(event, by=Staff(organizer), url=good.url)  # made after the bad ones
    something_happens(event, organizer)
    assert delivery.deliver_due() >= 1
    assert len(good.received) >= 1  # the webhook made after the bad ones is delivered
    for bad in (tab, junk):
        bad.refresh_from_db()
        # Retried later with back-off, not every second; the organizer reads no connection detail.
        assert bad.failures == 1 and bad.next_attempt_at is not None and bad.last_error == net.NO_ANSWER
    later.refresh_from_db()
    assert later.failures == 0 and later.delivered >= 1
    assert delivery.deliver_due() == 0  # the bad ones are backing off: nothing is tried again at once
    tab.refresh_from_db()
    assert tab.failures == 1


def test_anything_a_delivery_raises_is_caught_for_that_hook_alone(
    servers: list[Any], allow: Callable[..., None], monkeypatch: pytest.MonkeyPatch
) -> None:
    organizer = hooks_organizer()
    good = keep(servers, Receiver())
    event = new_event(organizer, 4)
    cursed = stored_hook(event, organizer, "http://127.0.0.1:1/cursed")
    delivery.create_webhook(event, by=Staff(organizer), url=good.url)
    real_send = net.send

    def send(url: str, *args: Any) -> str:
        if "cursed" in url:
            raise RuntimeError("a bug nobody foresaw")
        return real_send(url, *args)

    monkeypatch.setattr(net, "send", send)
    something_happens(event, organizer)
    assert delivery.deliver_due() >= 1 and good.received
    cursed.refresh_from_db()
    assert cursed.failures == 1 and cursed.last_error == net.NO_ANSWER


def test_a_receiver_dripping_one_byte_at_a_time_is_cut_at_the_deadline(
    servers: list[Any], allow: Callable[..., None]
) -> None:
    organizer = hooks_organizer()
    drip = keep(servers, Raw(answer_dripping))
    event, (hook,) = event_with_hooks(organizer, drip.url)
    something_happens(event, organizer)
    began = time.monotonic()
    assert delivery.deliver_due() == 0
    took = time.monotonic() - began
    assert took < 2.5, took  # TAIKAI_WEBHOOK_TIMEOUT=1: the whole delivery, not each byte (was > 90 s)
    hook.refresh_from_db()
    assert hook.failures == 1 and hook.last_error == net.NO_ANSWER


def _tls_drip(conn: socket.socket) -> None:  # a TLS record header promising 16 KB, then a byte at a time
    conn.sendall(b"\x16\x03\x03\x40\x00")
    for _ in range(100):
        conn.sendall(b"\x00")
        time.sleep(0.3)


def test_a_tls_handshake_dripped_a_byte_at_a_time_is_cut_at_the_deadline(
    servers: list[Any], allow: Callable[..., None]
) -> None:
    organizer = hooks_organizer()
    drip = keep(servers, Raw(_tls_drip))
    event, (hook,) = event_with_hooks(organizer, drip.url.replace("http://", "https://"))
    something_happens(event, organizer)
    began = time.monotonic()
    assert delivery.deliver_due() == 0
    assert time.monotonic() - began < 2.5  # each byte came in time; the whole handshake did not
    hook.refresh_from_db()
    assert hook.last_error == net.NO_ANSWER


def test_a_dns_look_up_that_hangs_is_cut_at_the_deadline(
    allow: Callable[..., None], monkeypatch: pytest.MonkeyPatch
) -> None:
    organizer = hooks_organizer()
    event, (hook,) = event_with_hooks(organizer, "http://slow-dns.example/hook")
    release = threading.Event()
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: release.wait(10) and [])
    something_happens(event, organizer)
    began = time.monotonic()
    try:
        assert delivery.deliver_due() == 0
        assert time.monotonic() - began < 2.0  # TAIKAI_WEBHOOK_TIMEOUT=1; getaddrinfo itself takes no timeout
    finally:
        release.set()
    hook.refresh_from_db()
    assert hook.last_error == net.NO_ANSWER


def test_hanging_receivers_do_not_hold_up_another_events_webhook(
    servers: list[Any], allow: Callable[..., None]
) -> None:
    allow(TAIKAI_WEBHOOK_WORKERS="8", TAIKAI_WEBHOOK_TIMEOUT="2")
    organizer = hooks_organizer()
    hanging = [keep(servers, Raw(None)) for _ in range(12)]  # they accept the connection, never answer
    events = [event_with_hooks(organizer, *[h.url for h in hanging[i : i + 4]], name=f"大会{i}")[0] for i in (0, 4, 8)]
    good = keep(servers, Receiver())
    other, (good_hook,) = event_with_hooks(organizer, good.url, name="別の大会")
    for event in events:
        something_happens(event, organizer)
    dispatcher = delivery.Dispatcher()
    try:
        dispatcher.tick()  # the hanging ones take their first attempts (they looked healthy)
        something_happens(other, organizer)
        began = time.monotonic()
        while not good.received and time.monotonic() - began < 20:
            dispatcher.tick()
            time.sleep(0.02)
        # Was 12 × 5 s = 60 s, one after another; now about one deadline (2 s), whatever the 12 do.
        first = good.received[0][2] - began
        assert first < 4, first
        # Once they are failing they take at most half the pool: the next message goes out at once, while
        # the 12 are retried beside it.
        dispatcher.drain()
        assert all(h.failures == 1 for h in Webhook.objects.exclude(pk=good_hook.pk))
        Webhook.objects.exclude(pk=good_hook.pk).update(next_attempt_at=None)  # all 12 due again, now
        dispatcher.tick()
        assert len(dispatcher.out) == 4  # half of TAIKAI_WEBHOOK_WORKERS=8
        count = len(good.received)
        began = time.monotonic()
        clock_services.start_round(other.rounds.get(), by=Staff(organizer))
        while len(good.received) == count and time.monotonic() - began < 20:
            dispatcher.tick()
            time.sleep(0.02)
        assert time.monotonic() - began < 1.5  # with all 8 workers on the 12, it waited a deadline (2 s)
    finally:
        dispatcher.close()


def test_a_hook_that_keeps_failing_is_stopped_and_the_organizer_told(
    client: Client, servers: list[Any], allow: Callable[..., None]
) -> None:
    allow(TAIKAI_WEBHOOK_DISABLE_AFTER="2")
    organizer = hooks_organizer()
    dead = keep(servers, Raw(answer_not_http))
    event, (hook,) = event_with_hooks(organizer, dead.url + "/secret-path")
    something_happens(event, organizer)
    clock_services.start_round(event.rounds.get(), by=Staff(organizer))
    for _ in range(2 * delivery.MAX_ATTEMPTS):
        hook.refresh_from_db()
        delivery.deliver(hook, now=hook.next_attempt_at)
    hook.refresh_from_db()
    assert not hook.active and hook.disabled_at is not None and hook.skipped == 2
    entry = AuditEntry.objects.get(event_id=event.pk, action="taikai.api.webhook_disabled")
    assert entry.actor_label == "webhooks" and "secret-path" not in str(entry.after)
    assert delivery.deliver(hook) == 0  # stopped: nothing more is tried
    # The organizer's dashboard says so, in Japanese by default, without the URL's path.
    client.force_login(organizer)
    page = client.get("/").content.decode()
    assert "停止した Webhook" in page and "Webhook 大会" in page and "応答なし" in page
    assert "secret-path" not in page
    # Restarted through the API, it resumes.
    token = create_token(event, by=Staff(organizer), username=organizer.username, role="organizer")[1]
    r = Api(client, token=token).post(f"/events/{event.pk}/webhooks/{hook.pk}/enable")
    assert r.status_code == 200 and r.json()["active"] is True and r.json()["disabled_at"] is None
    assert AuditEntry.objects.filter(event_id=event.pk, action="taikai.api.webhook_enabled").exists()
    assert "停止した Webhook" not in client.get("/").content.decode()
    # Another organizer sees nothing of it.
    client.force_login(hooks_organizer("org_other"))
    Webhook.objects.filter(pk=hook.pk).update(active=False, disabled_at=hook.disabled_at)
    assert "停止した Webhook" not in client.get("/").content.decode()


def test_hooks_per_event_are_capped(client: Client, allow: Callable[..., None]) -> None:
    allow(TAIKAI_WEBHOOKS_PER_EVENT="2")
    organizer = hooks_organizer()
    event = new_event(organizer, 4)
    token = create_token(event, by=Staff(organizer), username=organizer.username, role="organizer")[1]
    api = Api(client, token=token, lang="ja")
    for i in range(2):
        assert api.post(f"/events/{event.pk}/webhooks", {"url": f"https://example.com/{i}"}).status_code == 201
    r = api.post(f"/events/{event.pk}/webhooks", {"url": "https://example.com/3"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "webhook-limit"
    assert "2 件まで" in r.json()["error"]["message"]
    assert Webhook.objects.filter(event=event).count() == 2


class _Slow(Good):
    def do_POST(self) -> None:  # noqa: N802
        time.sleep(0.5)  # each answer in time, but many of them
        super().do_POST()


def test_a_slow_receiver_gives_its_pool_thread_back_after_two_deadlines(
    servers: list[Any], allow: Callable[..., None]
) -> None:
    from taikai.events.services import registration

    organizer = hooks_organizer()
    slow = keep(servers, Receiver(_Slow))
    event, (hook,) = event_with_hooks(organizer, slow.url)
    for i in range(10):  # ten "players" messages
        registration.register_player(event, by=Staff(organizer), name=f"遅刻{i}", card_game_id=f"77{i:08d}")
    began = time.monotonic()
    first = delivery.deliver_due()
    assert time.monotonic() - began < 3.2  # TAIKAI_WEBHOOK_TIMEOUT=1: a pass ends after 2 s
    assert 2 <= first < 10
    hook.refresh_from_db()
    assert hook.failures == 0 and hook.next_attempt_at is None  # not a failure: the rest goes next pass
    assert first + delivery.deliver_due() + delivery.deliver_due() + delivery.deliver_due() == 10
