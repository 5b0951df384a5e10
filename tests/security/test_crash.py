"""Crash safety: SIGKILL the server in the middle of a stream of result reports, then start it again.

Every report the server answered with a success is stored; the database passes its integrity check; the
round clock shows the right remaining time; phones retrying with the same idempotency key finish the round
without counting anything twice.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from typing import TypedDict

import httpx

from taikai.bench._live import Database, Server, seed
from taikai.bench._reports import Outcome, Report, report_jobs, send_reports
from taikai.events import actions


class _Clock(TypedDict):
    remaining: float
    at: float
    status: str


def _clock(server: Server, event_id: int) -> _Clock:
    data = httpx.get(f"{server.url}/e/{event_id}/clock.json", timeout=10).json()
    return {"remaining": float(data["remaining"]), "at": time.time(), "status": data["status"]}


def _killed_mid_stream(live_db: Database, event_id: int, jobs: list[Report]) -> tuple[_Clock, list[Outcome]]:
    """The clock before, and what the phones were answered, until the server was killed mid-stream."""
    server = Server(live_db).start()
    try:
        before = _clock(server, event_id)
        stop = threading.Event()
        outcomes: list[Outcome] = []

        def stream() -> None:
            send_reports([server.url], event_id, jobs, clients=4, stop=stop, into=outcomes)

        sender = threading.Thread(target=stream)
        sender.start()
        deadline = time.monotonic() + 60
        # Kill once a quarter of the stream has been answered, with requests still in flight.
        while sum(o.status == 200 for o in list(outcomes)) < len(jobs) // 4 and time.monotonic() < deadline:
            time.sleep(0.005)
        server.kill()
        stop.set()
        sender.join(timeout=60)
    finally:
        server.kill()
    return before, outcomes


def test_a_killed_server_loses_no_acknowledged_report_and_keeps_its_clock(live_db: Database) -> None:
    seeded = seed(live_db, 120)  # 60 tables
    event_id = seeded["event_id"]
    jobs = report_jobs(seeded)
    random.Random(5).shuffle(jobs)
    before, outcomes = _killed_mid_stream(live_db, event_id, jobs)
    acknowledged = [o.report for o in outcomes if o.status == 200]
    assert 0 < len(acknowledged) < len(jobs), Counter(o.status for o in outcomes)
    assert {o.status for o in outcomes} <= {0, 200}

    if live_db.vendor == "sqlite":
        assert live_db.query("PRAGMA integrity_check") == [("ok",)]
    stored = set(live_db.query("SELECT match_id, idempotency_key FROM events_resultreport WHERE idempotency_key != ''"))
    missing = [r for r in acknowledged if (int(r.match_id), r.key) not in stored]
    assert missing == []

    with Server(live_db) as again:
        after = _clock(again, event_id)
        elapsed = after["at"] - before["at"]
        assert after["status"] == "running"
        assert abs((before["remaining"] - elapsed) - after["remaining"]) < 2.0
        # The phones retry everything that was not acknowledged (and some that were): nothing counts twice.
        done = {r.key for r in acknowledged}
        retry = [j for j in jobs if j.key not in done] + acknowledged[:10]
        again_outcomes = send_reports([again.url], event_id, retry, clients=4)
        assert Counter(o.status for o in again_outcomes) == {200: len(retry)}
    ids = ",".join(m["id"] for m in seeded["matches"])
    assert live_db.query(f"SELECT status, COUNT(*) FROM events_match WHERE id IN ({ids}) GROUP BY status") == [
        ("confirmed", len(seeded["matches"]))
    ]
    assert {
        n
        for (n,) in live_db.query(
            f"SELECT COUNT(*) FROM events_resultreport WHERE match_id IN ({ids}) GROUP BY match_id"
        )
    } == {2}
    audit = dict(
        live_db.query(
            "SELECT action, COUNT(*) FROM audit_auditentry WHERE object_type = 'events.match' GROUP BY action"
        )
    )
    assert audit == {actions.RESULT_REPORTED: len(seeded["matches"]), actions.RESULT_CONFIRMED: len(seeded["matches"])}
    if live_db.vendor == "sqlite":
        assert live_db.query("PRAGMA integrity_check") == [("ok",)]
