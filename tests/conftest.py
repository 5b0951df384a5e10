from __future__ import annotations

import os

import pytest
from django.conf import settings


def pytest_report_header(config: pytest.Config) -> str:
    return f"taikai database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}"


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
