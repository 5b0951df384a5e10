"""A real venue server for browser tests that need the live stream: taikai's ASGI application on uvicorn
(the stream is an async view; pytest-django's live_server speaks WSGI only, where a stream never opens)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.db import connections


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
            ASGIStaticFilesHandler(application), host="127.0.0.1", port=self.port, log_level="warning", lifespan="off"
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self._server.started

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(10)
        self._server = self._thread = None


@pytest.fixture
def venue(transactional_db: Any) -> Iterator[VenueServer]:
    from taikai.api import stream

    db = connections["default"].settings_dict
    kept_age, db["CONN_MAX_AGE"] = db["CONN_MAX_AGE"], 0  # request threads must not keep connections open
    server = VenueServer()
    server.start()
    yield server
    deadline = time.monotonic() + 5  # let the stream pollers notice their clients left
    while any(h.tails for h in stream._hubs.values()) and time.monotonic() < deadline:
        time.sleep(0.05)
    server.stop()
    db["CONN_MAX_AGE"] = kept_age
    with ThreadPoolExecutor(1) as pool:  # the streams' shared sync thread keeps one connection: close it
        pool.submit(lambda: asyncio.run(stream.shared(connections.close_all))).result()


@pytest.fixture
def venue_page(browser: Any, venue: VenueServer) -> Iterator[Any]:
    """venue_page(viewport=PHONE, locale="ja-JP", session=None): a page in a fresh context on the venue server."""
    contexts = []

    def make(viewport: dict[str, int] | None = None, locale: str = "ja-JP", session: str | None = None) -> Any:
        ctx = browser.new_context(viewport=viewport or {"width": 1280, "height": 900}, locale=locale)
        ctx.set_default_timeout(10_000)
        if session:
            ctx.add_cookies([{"name": "sessionid", "value": session, "url": venue.url}])
        contexts.append(ctx)
        page = ctx.new_page()
        page.base_url = venue.url  # type: ignore[attr-defined]
        return page

    yield make
    for ctx in contexts:
        ctx.close()
