"""What the server log may say: no player's link, and not the same client error thousands of times.

A player's page is opened by the token in its address (`/p/<token>/`); whoever reads the log (a shared
laptop's terminal, a hosting provider's log store) could open it. Every log line, Django's (``Not Found:
/p/…/``) and uvicorn's access log, has the token replaced by ``…``. A loop of refused requests (a PIN
guesser: 2,809 lines in the attack run) writes the first few lines of each kind, then one line a minute
saying how many were left out.
"""

from __future__ import annotations

import copy
import logging
import re
import threading
import time
from collections.abc import Callable
from typing import Any

LINK = re.compile(r"/p/[^/\s?#\"'<>]+")
PER_KIND = 5  # lines of one kind (status, logger, address without its token) a minute
PER_MINUTE = 100  # client-error lines of all kinds a minute
WINDOW = 60.0


def masked(text: str) -> str:
    return LINK.sub("/p/…", text)


class PrivateLinks(logging.Filter):
    """Masks players' links in every record and thins out repeated 4xx lines (a logging filter: on a handler,
    it sees the records of every logger that reaches it)."""

    def __init__(self, name: str = "", clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(name)
        self._clock = clock
        self._lock = threading.Lock()
        self._start = clock()
        self._kinds: dict[tuple[str, int, str], int] = {}
        self._total = 0
        self._left_out = 0

    def filter(self, record: logging.LogRecord) -> bool:
        status = _status(record)
        line = _mask(record)
        if status is None or not 400 <= status < 500:
            return True
        return self._counted((record.name, status, line.split("?", 1)[0]), record)

    def _counted(self, kind: tuple[str, int, str], record: logging.LogRecord) -> bool:
        with self._lock:
            now = self._clock()
            note = ""
            if now - self._start >= WINDOW:
                if self._left_out:
                    note = f" ({self._left_out} similar client-error lines left out in the last minute)"
                self._start, self._kinds, self._total, self._left_out = now, {}, 0, 0
            seen = self._kinds.get(kind, 0)
            if seen >= PER_KIND or self._total >= PER_MINUTE:
                self._left_out += 1
                return False
            if len(self._kinds) < 10_000:
                self._kinds[kind] = seen + 1
            self._total += 1
        if note:
            record.msg, record.args = f"{record.getMessage()}{note}", None
        return True


def _status(record: logging.LogRecord) -> int | None:
    code = getattr(record, "status_code", None)  # django.request sets it
    if isinstance(code, int):
        return code
    args = record.args
    if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5 and isinstance(args[4], int):
        return args[4]
    return None


def _mask(record: logging.LogRecord) -> str:
    """Replace the record's text by its masked text, keeping uvicorn's access-log arguments in their shape."""
    args = record.args
    if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
        record.args = (args[0], args[1], masked(str(args[2])), args[3], args[4])
        return str(record.args[2])
    line = record.getMessage()
    hidden = masked(line)
    if hidden != line:
        record.msg, record.args = hidden, None
    if record.exc_text:
        record.exc_text = masked(record.exc_text)
    request = getattr(record, "request", None)  # Django's handlers may format the request again
    if request is not None and LINK.search(getattr(request, "path", "") or ""):
        record.request = None
    return hidden


def uvicorn_log_config() -> dict[str, Any]:
    """uvicorn's own logging configuration with the filter on its handlers (each worker applies it)."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["private_links"] = {"()": "taikai.security.logs.PrivateLinks"}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("private_links")
    return config
