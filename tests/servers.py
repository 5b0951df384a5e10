"""A real taikai server in a test's own process: the ASGI application on uvicorn, as `taikai serve` runs it
(pytest-django's live_server speaks WSGI only, where the event stream never opens)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.db import connections
from django.http import FileResponse, HttpRequest, HttpResponse
from playwright.sync_api import Browser


class StaticFilesRead(ASGIStaticFilesHandler):
    """Django's static files for the test server, each read whole before it is answered.

    Django's handler answers with a FileResponse whose file is closed only once its body is sent: when the
    browser leaves a page while one of its scripts is on the way (or the server stops), the request is cancelled
    between the two, and the open file is found later by the garbage collector, as a ResourceWarning in whatever
    test runs next. Read whole, nothing is left open. (`taikai serve` serves static files through WhiteNoise on
    the WSGI side, which closes them in a finally; this handler exists only here.)
    """

    def serve(self, request: HttpRequest) -> HttpResponse | FileResponse:
        response = super().serve(request)
        if not response.streaming:
            return response
        try:
            body = b"".join(response)
        finally:
            response.close()
        read = HttpResponse(body, status=response.status_code)
        for name, value in response.items():
            read[name] = value
        return read


class VenueServer:
    """Start, stop (the venue Wi-Fi or the laptop goes away) and start again on the same address."""

    def __init__(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        from taikai.asgi import application

        config = uvicorn.Config(
            StaticFilesRead(application), host="127.0.0.1", port=self.port, log_level="warning", lifespan="off"
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self._server.started

    def stop(self) -> None:
        """As `taikai serve` stopping does: the open streams end (it gives them 5 s), then the server."""
        from taikai.api import stream

        if self._server is not None and self._thread is not None:
            for loop, hub in list(stream._hubs.items()):
                if not loop.is_closed():
                    loop.call_soon_threadsafe(hub.end)
            self._server.should_exit = True
            self._thread.join(10)
        self._server = self._thread = None


@contextmanager
def serving(before_stop: Callable[[], None] = lambda: None) -> Iterator[VenueServer]:
    """A started server, stopped afterwards once its own stream pollers have seen their clients leave.

    ``before_stop`` closes what still holds a stream (a test's own browser contexts). Only this server's pollers
    are waited for: a hub left by an earlier server, whose loop is closed, is forgotten, so it never delays
    the next test.
    """
    from taikai.api import stream

    db = connections["default"].settings_dict
    kept_age, db["CONN_MAX_AGE"] = db["CONN_MAX_AGE"], 0  # request threads must not keep connections open
    earlier_hubs = set(stream._hubs)
    server = VenueServer()
    server.start()
    try:
        yield server
    finally:
        before_stop()
        ours = [hub for loop, hub in stream._hubs.items() if loop not in earlier_hubs]
        deadline = time.monotonic() + 5
        while any(hub.tails for hub in ours) and time.monotonic() < deadline:
            time.sleep(0.05)
        server.stop()
        for loop in [loop for loop in stream._hubs if loop.is_closed()]:
            del stream._hubs[loop]
        db["CONN_MAX_AGE"] = kept_age
        with ThreadPoolExecutor(1) as pool:  # the streams' shared sync thread keeps one connection: close it
            pool.submit(lambda: asyncio.run(stream.shared(connections.close_all))).result()


def close_contexts(browser: Browser) -> Callable[[], None]:
    """What ``serving`` runs before it stops: every open context of the session's browser closed."""

    def close() -> None:
        for ctx in list(browser.contexts):
            ctx.close()

    return close
