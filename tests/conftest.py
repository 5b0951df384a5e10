from __future__ import annotations

import os
from collections.abc import Iterator
from types import TracebackType

import pytest
from django.conf import settings
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from pytest_django import Settings

# Playwright's sync API runs an event loop in the test thread; Django's ORM calls from that thread
# are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# CI machines are shared and noisy: judge property tests by their examples, never by wall time.
hypothesis_settings.register_profile(
    "taikai", deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
hypothesis_settings.load_profile("taikai")

# The shared fixtures (events, players, the API client, card data, servers, browsers), for every test.
pytest_plugins = ["tests.factories.fixtures"]


def pytest_report_header(config: pytest.Config) -> str:
    engine = str(settings.DATABASES["default"]["ENGINE"])
    return f"taikai database: {engine.rsplit('.', 1)[-1]}"


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

    def exit_and_commit(
        self: transaction.Atomic,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
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
def _plain_static_storage(settings: Settings) -> None:
    # Tests do not run collectstatic; serve static files straight from the apps.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
