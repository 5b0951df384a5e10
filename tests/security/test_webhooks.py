"""Hostile webhooks (issue 25, items 1 and 2), each reproduced with real local servers.

1. One organizer stopped every webhook: a URL with a TAB or a receiver answering a non-HTTP line raised an
   exception nothing caught (every later webhook never delivered, the bad one retried every second); a
   receiver dripping a byte at a time held the only delivery thread; hanging receivers delayed another event.
2. SSRF: loopback, 169.254.169.254, private and numeric addresses were accepted, the error told which internal
   ports were open, and a receiver's 302 made the server GET any URL.

Internal destinations are refused unless TAIKAI_WEBHOOK_ALLOW names them, so every test that needs a local
receiver allows 127.0.0.1 itself (``allow``).
"""

from __future__ import annotations

import datetime as dt
import socket
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.test import Client

from taikai.api import webhook_net, webhooks
from taikai.api.models import Webhook
from taikai.api.services import create_token
from taikai.audit.models import AuditEntry
from taikai.config import ConfigError, load_webhooks
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event
from taikai.events.services import clock as clock_services
from taikai.events.services import rounds as round_services
from taikai.messages import text
from tests.api.conftest import Api
from tests.security.conftest import make_user, new_event

pytestmark = pytest.mark.django_db


# --- local receivers ---------------------------------------------------------------------------------------------


class _Good(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.received.append((dict(self.headers), body, time.monotonic()))  # type: ignore[attr-defined]
        self.send_response(204)
        self.end_headers()

    def do_GET(self) -> None:  # noqa: N802
        self.server.received.append(({"method": "GET"}, b"", time.monotonic()))  # type: ignore[attr-defined]
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


class Receiver:
    """An HTTP server on 127.0.0.1 that takes every POST (204) and keeps it."""

    def __init__(self, handler: type[BaseHTTPRequestHandler] = _Good) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.received = []  # type: ignore[attr-defined]
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/hook"

    @property
    def received(self) -> list[tuple[dict[str, str], bytes, float]]:
        return self.server.received  # type: ignore[attr-defined, no-any-return]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Raw:
    """A TCP server on 127.0.0.1 that runs ``answer(conn)`` for each connection (or never accepts)."""

    def __init__(self, answer: Callable[[socket.socket], None] | None) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0), backlog=64)
        self.stop = threading.Event()
        self.answer = answer
        if answer is not None:
            threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        self.sock.settimeout(0.2)
        while not self.stop.is_set():
            try:
                conn, _addr = self.sock.accept()
            except OSError:
                continue
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        try:
            conn.settimeout(30)
            conn.recv(65536)
            assert self.answer is not None
            self.answer(conn)
        except OSError:
            pass
        finally:
            conn.close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/hook"

    def close(self) -> None:
        self.stop.set()
        self.sock.close()


def _not_http(conn: socket.socket) -> None:
    conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")


def _drip(conn: socket.socket) -> None:  # one byte every 0.3 s: each read succeeds, the whole never ends
    for byte in b"HTTP/1.1 200 OK\r\n\r\n" * 20:
        conn.sendall(bytes([byte]))
        time.sleep(0.3)


@pytest.fixture
def servers() -> Iterator[list[Any]]:
    started: list[Any] = []
    yield started
    for s in started:
        s.close()


def _serve(servers: list[Any], s: Any) -> Any:
    servers.append(s)
    return s


@pytest.fixture
def allow(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Short deadlines, no settling time, and the local destinations a test names (TAIKAI_WEBHOOK_ALLOW)."""
    monkeypatch.setattr(webhooks, "SETTLE", dt.timedelta(0))

    def set_policy(allowed: str = "127.0.0.1", **env: str) -> None:
        settings.WEBHOOKS = load_webhooks({"TAIKAI_WEBHOOK_ALLOW": allowed, "TAIKAI_WEBHOOK_TIMEOUT": "1", **env})

    set_policy()
    return set_policy


def _organizer(name: str = "org_hooks") -> Any:
    return make_user(name, organizer=True)


def _event_with_hooks(organizer: Any, *urls: str, name: str = "Webhook 大会") -> tuple[Event, list[Webhook]]:
    event = new_event(organizer, 4, name=name)
    hooks = [webhooks.create_webhook(event, by=Staff(organizer), url=u)[0] for u in urls]
    return event, hooks


def _stored(event: Event, organizer: Any, url: str) -> Webhook:
    """A webhook saved before URLs were checked (or by hand in the database): delivery must survive it."""
    last = AuditEntry.objects.filter(event_id=event.pk).order_by("-id").values_list("id", flat=True).first()
    return Webhook.objects.create(event=event, url=url, secret="s" * 64, created_by=organizer, last_entry_id=last or 0)


def _something_happens(event: Event, organizer: Any) -> None:
    round_services.pair_next_round(event, by=Staff(organizer))  # a "pairings" message


# --- item 1: one organizer cannot stop the others ------------------------------------------------------------


def test_a_url_with_a_tab_is_refused_when_saved_in_japanese_and_english(client: Client, allow: Any) -> None:
    organizer = _organizer()
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
            webhooks.create_webhook(event, by=Staff(organizer), url=bad)
        assert refused.value.problem.code == code, bad
    assert not Webhook.objects.filter(event=event).exists()  # nothing half-saved
    # Surrounding blanks from a paste are trimmed; a Japanese path is sent percent-encoded.
    hook, _secret = webhooks.create_webhook(event, by=Staff(organizer), url="  https://example.com/大会\n")
    assert hook.url == "https://example.com/大会"
    assert webhook_net._parse(hook.url).path == "/%E5%A4%A7%E4%BC%9A"


def test_a_bad_stored_url_or_a_non_http_answer_stops_no_other_webhook(servers: list[Any], allow: Any) -> None:
    organizer = _organizer()
    good = _serve(servers, Receiver())
    garbage = _serve(servers, Raw(_not_http))
    event = new_event(organizer, 4)
    tab = _stored(event, organizer, "http://127.0.0.1:1/a\tb")
    junk, _s = webhooks.create_webhook(event, by=Staff(organizer), url=garbage.url)
    later, _s = webhooks.create_webhook(event, by=Staff(organizer), url=good.url)  # made after the bad ones
    _something_happens(event, organizer)
    assert webhooks.deliver_due() >= 1
    assert len(good.received) >= 1  # the webhook made after the bad ones is delivered
    for bad in (tab, junk):
        bad.refresh_from_db()
        # Retried later with back-off, not every second; the organizer reads no connection detail.
        assert bad.failures == 1 and bad.next_attempt_at is not None and bad.last_error == webhook_net.NO_ANSWER
    later.refresh_from_db()
    assert later.failures == 0 and later.delivered >= 1
    assert webhooks.deliver_due() == 0  # the bad ones are backing off: nothing is tried again at once
    tab.refresh_from_db()
    assert tab.failures == 1


def test_anything_a_delivery_raises_is_caught_for_that_hook_alone(
    servers: list[Any], allow: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    organizer = _organizer()
    good = _serve(servers, Receiver())
    event = new_event(organizer, 4)
    cursed = _stored(event, organizer, "http://127.0.0.1:1/cursed")
    webhooks.create_webhook(event, by=Staff(organizer), url=good.url)
    real_send = webhook_net.send

    def send(url: str, *args: Any) -> str:
        if "cursed" in url:
            raise RuntimeError("a bug nobody foresaw")
        return real_send(url, *args)

    monkeypatch.setattr(webhook_net, "send", send)
    _something_happens(event, organizer)
    assert webhooks.deliver_due() >= 1 and good.received
    cursed.refresh_from_db()
    assert cursed.failures == 1 and cursed.last_error == webhook_net.NO_ANSWER


def test_a_receiver_dripping_one_byte_at_a_time_is_cut_at_the_deadline(servers: list[Any], allow: Any) -> None:
    organizer = _organizer()
    drip = _serve(servers, Raw(_drip))
    event, (hook,) = _event_with_hooks(organizer, drip.url)
    _something_happens(event, organizer)
    began = time.monotonic()
    assert webhooks.deliver_due() == 0
    took = time.monotonic() - began
    assert took < 2.5, took  # TAIKAI_WEBHOOK_TIMEOUT=1: the whole delivery, not each byte (was > 90 s)
    hook.refresh_from_db()
    assert hook.failures == 1 and hook.last_error == webhook_net.NO_ANSWER


def _tls_drip(conn: socket.socket) -> None:  # a TLS record header promising 16 KB, then a byte at a time
    conn.sendall(b"\x16\x03\x03\x40\x00")
    for _ in range(100):
        conn.sendall(b"\x00")
        time.sleep(0.3)


def test_a_tls_handshake_dripped_a_byte_at_a_time_is_cut_at_the_deadline(servers: list[Any], allow: Any) -> None:
    organizer = _organizer()
    drip = _serve(servers, Raw(_tls_drip))
    event, (hook,) = _event_with_hooks(organizer, drip.url.replace("http://", "https://"))
    _something_happens(event, organizer)
    began = time.monotonic()
    assert webhooks.deliver_due() == 0
    assert time.monotonic() - began < 2.5  # each byte came in time; the whole handshake did not
    hook.refresh_from_db()
    assert hook.last_error == webhook_net.NO_ANSWER


def test_a_dns_look_up_that_hangs_is_cut_at_the_deadline(allow: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    organizer = _organizer()
    event, (hook,) = _event_with_hooks(organizer, "http://slow-dns.example/hook")
    release = threading.Event()
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: release.wait(10) and [])
    _something_happens(event, organizer)
    began = time.monotonic()
    try:
        assert webhooks.deliver_due() == 0
        assert time.monotonic() - began < 2.0  # TAIKAI_WEBHOOK_TIMEOUT=1; getaddrinfo itself takes no timeout
    finally:
        release.set()
    hook.refresh_from_db()
    assert hook.last_error == webhook_net.NO_ANSWER


def test_hanging_receivers_do_not_hold_up_another_events_webhook(servers: list[Any], allow: Any) -> None:
    allow(TAIKAI_WEBHOOK_WORKERS="8", TAIKAI_WEBHOOK_TIMEOUT="2")
    organizer = _organizer()
    hanging = [_serve(servers, Raw(None)) for _ in range(12)]  # they accept the connection, never answer
    events = [_event_with_hooks(organizer, *[h.url for h in hanging[i : i + 4]], name=f"大会{i}")[0] for i in (0, 4, 8)]
    good = _serve(servers, Receiver())
    other, (good_hook,) = _event_with_hooks(organizer, good.url, name="別の大会")
    for event in events:
        _something_happens(event, organizer)
    dispatcher = webhooks.Dispatcher()
    try:
        dispatcher.tick()  # the hanging ones take their first attempts (they looked healthy)
        _something_happens(other, organizer)
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
    client: Client, servers: list[Any], allow: Any
) -> None:
    allow(TAIKAI_WEBHOOK_DISABLE_AFTER="2")
    organizer = _organizer()
    dead = _serve(servers, Raw(_not_http))
    event, (hook,) = _event_with_hooks(organizer, dead.url + "/secret-path")
    _something_happens(event, organizer)
    clock_services.start_round(event.rounds.get(), by=Staff(organizer))
    for _ in range(2 * webhooks.MAX_ATTEMPTS):
        hook.refresh_from_db()
        webhooks.deliver(hook, now=hook.next_attempt_at)
    hook.refresh_from_db()
    assert not hook.active and hook.disabled_at is not None and hook.skipped == 2
    entry = AuditEntry.objects.get(event_id=event.pk, action="taikai.api.webhook_disabled")
    assert entry.actor_label == "webhooks" and "secret-path" not in str(entry.after)
    assert webhooks.deliver(hook) == 0  # stopped: nothing more is tried
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
    client.force_login(_organizer("org_other"))
    Webhook.objects.filter(pk=hook.pk).update(active=False, disabled_at=hook.disabled_at)
    assert "停止した Webhook" not in client.get("/").content.decode()


def test_hooks_per_event_are_capped(client: Client, allow: Any) -> None:
    allow(TAIKAI_WEBHOOKS_PER_EVENT="2")
    organizer = _organizer()
    event = new_event(organizer, 4)
    token = create_token(event, by=Staff(organizer), username=organizer.username, role="organizer")[1]
    api = Api(client, token=token, lang="ja")
    for i in range(2):
        assert api.post(f"/events/{event.pk}/webhooks", {"url": f"https://example.com/{i}"}).status_code == 201
    r = api.post(f"/events/{event.pk}/webhooks", {"url": "https://example.com/3"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "webhook-limit"
    assert "2 件まで" in r.json()["error"]["message"]
    assert Webhook.objects.filter(event=event).count() == 2


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
def test_internal_and_numeric_destinations_are_refused_when_saved(url: str, settings: Any) -> None:
    settings.WEBHOOKS = load_webhooks({})
    organizer = _organizer()
    event = new_event(organizer, 4)
    with pytest.raises(ServiceError) as refused:
        webhooks.create_webhook(event, by=Staff(organizer), url=url)
    if url in NUMERIC:  # read by resolvers as 127.0.0.1: only the plain dotted form is accepted
        assert refused.value.problem.code == "webhook-url-host"
        assert "4つの10進数" in text(refused.value.problem, "ja")
    else:
        assert refused.value.problem.code == "webhook-url-internal"
        assert "内部のアドレス" in text(refused.value.problem, "ja")
        assert "TAIKAI_WEBHOOK_ALLOW" in text(refused.value.problem, "en")


def test_public_destinations_are_accepted(settings: Any) -> None:
    settings.WEBHOOKS = load_webhooks({})
    organizer = _organizer()
    event = new_event(organizer, 4)
    for url in ("https://discord.com/api/webhooks/1/x", "http://93.184.216.34/", "http://[2606:4700::1111]/"):
        assert webhooks.create_webhook(event, by=Staff(organizer), url=url)[0].url == url


def test_what_the_operator_allows_is_accepted(settings: Any) -> None:
    organizer = _organizer()
    event = new_event(organizer, 4)
    settings.WEBHOOKS = load_webhooks({"TAIKAI_WEBHOOK_ALLOW": "127.0.0.1, 10.0.0.0/8, hooks.lan, ::1"})
    for url in ("http://127.0.0.1:8000/", "http://10.1.2.3/", "http://hooks.lan/", "http://[::1]/"):
        webhooks.create_webhook(event, by=Staff(organizer), url=url)
    with pytest.raises(ServiceError):  # only what is named
        webhooks.create_webhook(event, by=Staff(organizer), url="http://192.168.1.1/")
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
    servers: list[Any], allow: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    allow("")
    organizer = _organizer()
    inside = _serve(servers, Receiver())
    port = inside.server.server_port
    real = socket.getaddrinfo
    answers = {"hooks.example": "127.0.0.1"}  # a public name that now answers with an internal address

    def getaddrinfo(host: str, *args: Any, **kwargs: Any) -> Any:
        if host in answers:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (answers[host], port))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    event, (hook,) = _event_with_hooks(organizer, f"http://hooks.example:{port}/hook")  # fine when saved
    stored = _stored(event, organizer, f"http://0x7f.1:{port}/old")  # saved before numeric forms were refused
    _something_happens(event, organizer)
    assert webhooks.deliver_due() == 0 and inside.received == []
    for h in (hook, stored):
        h.refresh_from_db()
        assert h.last_error == webhook_net.REFUSED
    # Allowed by the operator, the same name is delivered: to the address that was checked.
    allow("127.0.0.1")
    Webhook.objects.update(next_attempt_at=None, failures=0)
    assert webhooks.deliver_due() >= 2
    assert {r[0]["Host"] for r in inside.received} == {f"hooks.example:{port}", f"0x7f.1:{port}"}


def test_the_error_says_nothing_about_internal_ports(servers: list[Any], allow: Any) -> None:
    organizer = _organizer()
    listening = _serve(servers, Raw(None))
    closed = socket.create_server(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]
    closed.close()
    for allowed in ("", "127.0.0.1"):  # refused before connecting, or connected: one word either way
        allow(allowed)
        event = new_event(organizer, 4, name=f"ports{allowed}")
        open_hook = _stored(event, organizer, listening.url)
        closed_hook = _stored(event, organizer, f"http://127.0.0.1:{closed_port}/hook")
        _something_happens(event, organizer)
        webhooks.deliver_due()
        open_hook.refresh_from_db()
        closed_hook.refresh_from_db()
        assert open_hook.last_error == closed_hook.last_error
        assert open_hook.last_error == (webhook_net.REFUSED if not allowed else webhook_net.NO_ANSWER)


def test_a_redirect_is_not_followed(servers: list[Any], allow: Any) -> None:
    organizer = _organizer()
    target = _serve(servers, Receiver())

    def redirect(conn: socket.socket) -> None:
        conn.sendall(f"HTTP/1.1 302 Found\r\nLocation: {target.url}\r\nContent-Length: 0\r\n\r\n".encode())

    bouncer = _serve(servers, Raw(redirect))
    event, (hook,) = _event_with_hooks(organizer, bouncer.url)
    _something_happens(event, organizer)
    assert webhooks.deliver_due() == 0
    time.sleep(0.2)
    assert target.received == []  # no GET, no POST to where the 302 pointed
    hook.refresh_from_db()
    assert hook.last_error == "HTTP 302"


@pytest.mark.django_db(transaction=True)
def test_two_requests_at_once_cannot_both_take_the_last_place(settings: Any) -> None:
    from tests.security.test_concurrency import at_once

    settings.WEBHOOKS = load_webhooks({"TAIKAI_WEBHOOKS_PER_EVENT": "3"})
    organizer = _organizer()
    event = new_event(organizer, 2)
    webhooks.create_webhook(event, by=Staff(organizer), url="https://example.com/0")

    def add(i: int) -> Callable[[], Any]:
        return lambda: webhooks.create_webhook(
            Event.objects.get(pk=event.pk), by=Staff(organizer), url=f"https://example.com/{i}"
        )

    results = at_once(*(add(i) for i in range(1, 7)))
    refused = [r for r in results if isinstance(r, ServiceError)]
    assert len(refused) == 4 and all(r.problem.code == "webhook-limit" for r in refused), results
    assert Webhook.objects.filter(event=event).count() == 3


class _Slow(_Good):
    def do_POST(self) -> None:  # noqa: N802
        time.sleep(0.5)  # each answer in time, but many of them
        super().do_POST()


def test_a_slow_receiver_gives_its_pool_thread_back_after_two_deadlines(servers: list[Any], allow: Any) -> None:
    from taikai.events.services import registration

    organizer = _organizer()
    slow = _serve(servers, Receiver(_Slow))
    event, (hook,) = _event_with_hooks(organizer, slow.url)
    for i in range(10):  # ten "players" messages
        registration.register_player(event, by=Staff(organizer), name=f"遅刻{i}", card_game_id=f"77{i:08d}")
    began = time.monotonic()
    first = webhooks.deliver_due()
    assert time.monotonic() - began < 3.2  # TAIKAI_WEBHOOK_TIMEOUT=1: a pass ends after 2 s
    assert 2 <= first < 10
    hook.refresh_from_db()
    assert hook.failures == 0 and hook.next_attempt_at is None  # not a failure: the rest goes next pass
    assert first + webhooks.deliver_due() + webhooks.deliver_due() + webhooks.deliver_due() == 10
