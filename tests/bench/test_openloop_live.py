"""The open-loop generator against a real `taikai serve` for about 2 s (issue 16), on the database under test."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest
from django.db import connection

from taikai.bench._live import Server, database, seed
from taikai.bench._openloop import get, offer


def test_the_pairings_page_at_a_fixed_offered_rate(tmp_path: Path) -> None:
    url = os.environ.get("TAIKAI_DATABASE_URL", "") if connection.vendor == "postgresql" else ""
    with database(tmp_path / "var", url) as db:
        seeded = seed(db, 16)
        with Server(db) as server:
            host = f"127.0.0.1:{server.port}"
            page = get(f"/e/{seeded['event_id']}/pairings/", host)
            warm, step = offer(server.url, [(20.0, [page] * 10), (50.0, [page] * 100)], limit=32, warm=4)
    assert warm.statuses() == Counter({200: 10})
    assert step.statuses() == Counter({200: 100})
    dues = [s.due for s in step.samples]
    assert dues[-1] - dues[0] == pytest.approx(99 / 50)  # on the schedule, whatever the answers took
    assert 25 < step.achieved <= 51
    assert all(s.done >= s.sent >= s.due for s in step.samples)
