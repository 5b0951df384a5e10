from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

# Playwright's sync API runs an event loop in the test thread; Django's ORM calls from that thread
# are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# CI machines are shared and noisy: judge property tests by their examples, never by wall time.
hypothesis_settings.register_profile(
    "taikai", deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
hypothesis_settings.load_profile("taikai")

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}


def pytest_report_header(config: pytest.Config) -> str:
    return f"taikai database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}"


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    # Page and standings caches are keyed by ids, which repeat when a test's database is rolled back.
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _on_commit_runs_when_the_service_commits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run ``transaction.on_commit`` callbacks (the domain signals' receivers) when a service's outermost
    transaction ends, as it commits in production.

    A ``db`` test wraps everything in a transaction of its own that never commits, so without this no
    receiver would run; only blocks opened by the test case remain when the service's block has ended.
    """
    from django.db import transaction

    original = transaction.Atomic.__exit__

    def exit_and_commit(self: Any, exc_type: Any, exc_value: Any, traceback: Any) -> Any:
        result = original(self, exc_type, exc_value, traceback)
        connection = transaction.get_connection(self.using)
        outermost = connection.atomic_blocks and all(b._from_testcase for b in connection.atomic_blocks)
        if exc_type is None and outermost and connection.run_on_commit:
            callbacks, connection.run_on_commit = connection.run_on_commit, []
            for _savepoints, callback, _robust in callbacks:
                callback()
        return result

    monkeypatch.setattr(transaction.Atomic, "__exit__", exit_and_commit)


@pytest.fixture(autouse=True)
def _plain_static_storage(settings: Any) -> None:
    # Tests do not run collectstatic; serve static files straight from the apps.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Any, live_server: Any) -> Iterator[Any]:
    """Open pages in fresh browser contexts: new_page(viewport=PHONE, locale="ja-JP")."""
    contexts = []

    def make(viewport: dict[str, int] | None = None, locale: str = "ja-JP") -> Any:
        ctx = browser.new_context(viewport=viewport or {"width": 1280, "height": 900}, locale=locale)
        ctx.set_default_timeout(10_000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.base_url = live_server.url  # type: ignore[attr-defined]
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def screenshot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
