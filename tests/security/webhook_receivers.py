"""Local receivers for the hostile-webhook tests (test_webhooks.py, test_webhook_destinations.py): an HTTP server
that keeps every request, a raw TCP server that answers as told, and an organizer's event with its hooks.
Their fixtures (``servers``, ``allow``) are in tests/security/conftest.py."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from django.contrib.auth.models import User

from taikai.audit.models import AuditEntry
from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import rounds as round_services
from taikai.webhooks import delivery
from taikai.webhooks.models import Webhook
from tests.factories import make_user, new_event


class Server(ThreadingHTTPServer):
    received: list[tuple[dict[str, str], bytes, float]]  # (headers, body, when) of each request


class Good(BaseHTTPRequestHandler):
    def _keep(self, headers: dict[str, str], body: bytes) -> None:
        assert isinstance(self.server, Server)
        self.server.received.append((headers, body, time.monotonic()))

    def do_POST(self) -> None:  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self._keep(dict(self.headers), body)
        self.send_response(204)
        self.end_headers()

    def do_GET(self) -> None:  # noqa: N802
        self._keep({"method": "GET"}, b"")
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


class Receiver:
    """An HTTP server on 127.0.0.1 that takes every POST (204) and keeps it."""

    def __init__(self, handler: type[BaseHTTPRequestHandler] = Good) -> None:
        self.server = Server(("127.0.0.1", 0), handler)
        self.server.received = []
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/hook"

    @property
    def received(self) -> list[tuple[dict[str, str], bytes, float]]:
        return self.server.received

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


def answer_not_http(conn: socket.socket) -> None:
    conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")


def answer_dripping(conn: socket.socket) -> None:  # one byte every 0.3 s: each read succeeds, the whole never ends
    for byte in b"HTTP/1.1 200 OK\r\n\r\n" * 20:
        conn.sendall(bytes([byte]))
        time.sleep(0.3)


def keep(servers: list[Any], s: Any) -> Any:
    servers.append(s)
    return s


def hooks_organizer(name: str = "org_hooks") -> User:
    return make_user(name, organizer=True)


def event_with_hooks(organizer: User, *urls: str, name: str = "Webhook 大会") -> tuple[Event, list[Webhook]]:
    event = new_event(organizer, 4, name=name)
    hooks = [delivery.create_webhook(event, by=Staff(organizer), url=u)[0] for u in urls]
    return event, hooks


def stored_hook(event: Event, organizer: User, url: str) -> Webhook:
    """A webhook saved before URLs were checked (or by hand in the database): delivery must survive it."""
    last = AuditEntry.objects.filter(event_id=event.pk).order_by("-id").values_list("id", flat=True).first()
    return Webhook.objects.create(event=event, url=url, secret="s" * 64, created_by=organizer, last_entry_id=last or 0)


def something_happens(event: Event, organizer: User) -> None:
    round_services.pair_next_round(event, by=Staff(organizer))  # a "pairings" message
