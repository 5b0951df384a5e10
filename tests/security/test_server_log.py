"""Issue 25 item 9: players' links were written in clear to the server log (2,809 lines from one PIN loop).
The log masks `/p/<token>/` in Django's lines and uvicorn's access log, and thins out repeated 4xx lines."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import httpx
import pytest

from taikai.bench._live import Database, Server, seed
from taikai.security.logs import PER_KIND, WINDOW, PrivateLinks, uvicorn_log_config

TOKEN = "HVT8g5lks2wZb9ty6ullmnIK"


class Clock:
    now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def log() -> Iterator[tuple[logging.Logger, io.StringIO, Clock]]:
    clock = Clock()
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(PrivateLinks(clock=clock))
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    try:
        yield logger, out, clock
    finally:
        logger.removeHandler(handler)


def test_a_players_link_never_reaches_the_log(log: tuple[logging.Logger, io.StringIO, Clock]) -> None:
    logger, out, _clock = log
    logger.warning("Not Found: %s", f"/p/{TOKEN}/pin/", extra={"status_code": 404})
    logger.error("Internal Server Error: %s", f"/p/{TOKEN}/", extra={"status_code": 500})
    access = logging.getLogger("uvicorn.access")
    record = access.makeRecord(
        "uvicorn.access",
        logging.INFO,
        "x",
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("10.0.0.7:5000", "GET", f"/p/{TOKEN}/?x=1", "1.1", 200),
        None,
    )
    PrivateLinks().filter(record)
    text = out.getvalue() + record.getMessage()
    assert TOKEN not in text
    assert "Not Found: /p/…/pin/" in text and "/p/…/?x=1" in text
    assert isinstance(record.args, tuple) and len(record.args) == 5  # uvicorn's formatter unpacks them


def test_repeated_client_errors_are_thinned_out_and_counted(log: tuple[logging.Logger, io.StringIO, Clock]) -> None:
    logger, out, clock = log
    for _ in range(500):
        logger.warning("Too Many Requests: %s", f"/p/{TOKEN}/pin/", extra={"status_code": 429})
    logger.error("Internal Server Error: %s", "/x/", extra={"status_code": 500})  # never thinned
    assert out.getvalue().count("Too Many Requests") == PER_KIND
    clock.now = WINDOW + 1
    logger.warning("Not Found: %s", "/e/1/", extra={"status_code": 404})
    lines = out.getvalue().splitlines()
    assert "Internal Server Error: /x/" in lines
    assert lines[-1] == "Not Found: /e/1/ (495 similar client-error lines left out in the last minute)"


def test_uvicorn_handlers_carry_the_filter() -> None:
    config = uvicorn_log_config()
    assert all("private_links" in h["filters"] for h in config["handlers"].values())


def test_a_pin_loop_on_a_real_server_leaves_a_short_log_without_the_link(
    live_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Server(live_db, workers=1) as server:
        token = seed(live_db, 2)["matches"][0]["a_token"]
        with httpx.Client(timeout=10) as client:
            for i in range(200):
                client.get(f"{server.url}/p/{token}/no-such-page-{i % 3}/")
                client.get(f"{server.url}/p/made-up-{i}/")
        log_file = live_db.var_dir / f"server-{server.port}.log"
        text = log_file.read_text(errors="replace")
    assert token not in text and "made-up-" not in text
    assert 0 < text.count("Not Found") <= 100, text[-2000:]
