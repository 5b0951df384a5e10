"""The security suite's database-specific marks, and the webhook tests' local receivers and policy (``servers``,
``allow``: tests/security/webhook_receivers.py); its world and users are built in tests.factories."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection
from pytest_django import Settings

from taikai.config import load_webhooks
from taikai.webhooks import delivery


@pytest.fixture(autouse=True)
def _only_on_its_database(request: pytest.FixtureRequest) -> None:
    vendor = connection.vendor
    if request.node.get_closest_marker("postgres_only") and vendor != "postgresql":
        pytest.skip("needs PostgreSQL (TAIKAI_DATABASE_URL=postgresql://...)")
    if request.node.get_closest_marker("sqlite_only") and vendor != "sqlite":
        pytest.skip("SQLite-specific")


@pytest.fixture
def servers() -> Iterator[list[Any]]:
    """The local receivers a webhook test started (``keep(servers, s)``), closed when it ends."""
    started: list[Any] = []
    yield started
    for s in started:
        s.close()


@pytest.fixture
def allow(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Short deadlines, no settling time, and the local destinations a test names (TAIKAI_WEBHOOK_ALLOW)."""
    monkeypatch.setattr(delivery, "SETTLE", dt.timedelta(0))

    def set_policy(allowed: str = "127.0.0.1", **env: str) -> None:
        settings.WEBHOOKS = load_webhooks({"TAIKAI_WEBHOOK_ALLOW": allowed, "TAIKAI_WEBHOOK_TIMEOUT": "1", **env})

    set_policy()
    return set_policy
