"""Concurrent changes end in one consistent state, on SQLite and PostgreSQL.

Threads act on the database at the same moment (each with its own connection, closed afterwards): two judges
correcting one match, both players reporting or confirming at once, pairing while the last result arrives.
Then a live server takes 1,000 result reports from 50 concurrent clients: each confirmed result is stored
exactly once and the audit log holds exactly one entry per change.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connections

from taikai.audit.models import AuditEntry
from taikai.audit.services import record
from taikai.bench._live import Database, Server, seed
from taikai.bench._reports import report_jobs, send_reports
from taikai.events import actions, reads
from taikai.events.actors import Staff
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Match, Player, ResultReport, Round
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from tests.factories import World, build_world

A_WINS = ResultInput(({"winner": "A"}, {"winner": "A"}))
B_WINS = ResultInput(({"winner": "B"}, {"winner": "B"}))


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together; each returns its value or the exception it raised."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = call()
        except Exception as exc:
            results[i] = exc
        finally:
            connections.close_all()  # each thread's own connection

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


@pytest.fixture
def world(transactional_db: None) -> World:
    return build_world()


def _finish_round_but_one(world: World) -> Match:
    assert world.round is not None
    matches = list(world.round.matches.filter(is_bye=False).order_by("table"))
    for m in matches[1:]:
        result_services.enter_result(m, by=Staff(world.organizer), result=A_WINS)
    return matches[0]


def test_two_organizers_correcting_one_match_at_once_one_wins_the_other_is_told(world: World) -> None:
    match = world.match()
    result_services.enter_result(match, by=Staff(world.organizer), result=A_WINS)
    match.refresh_from_db()
    version = match.version

    def correct(judge: User, result: ResultInput) -> Callable[[], Any]:
        return lambda: result_services.correct_result(
            Match.objects.get(pk=match.pk), by=Staff(judge), result=result, reason="slip misread", version=version
        )

    outcomes = at_once(correct(world.organizer, B_WINS), correct(world.admin, B_WINS))  # two organizer accounts
    conflicts = [o for o in outcomes if isinstance(o, Conflict)]
    saved = [o for o in outcomes if isinstance(o, Match)]
    assert len(saved) == 1 and len(conflicts) == 1, outcomes
    match.refresh_from_db()
    assert match.version == version + 1 and match.result == "b"
    assert AuditEntry.objects.filter(action=actions.RESULT_CORRECTED, object_id=str(match.pk)).count() == 1


def test_both_players_reporting_at_once_confirm_the_match_once(world: World) -> None:
    match = world.match()
    a, b = Player.objects.get(pk=match.player_a_id), Player.objects.get(pk=match.player_b_id)

    def report(p: Player, key: str) -> Callable[[], Any]:
        return lambda: result_services.report_result(
            Match.objects.get(pk=match.pk), player=p, result=A_WINS, idempotency_key=key
        )

    outcomes = at_once(report(a, "a1"), report(b, "b1"), report(a, "a1"), report(b, "b1"))  # each phone retries
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.result == "a"
    assert ResultReport.objects.filter(match=match).count() == 2
    audit = Counter(
        AuditEntry.objects.filter(object_type="events.match", object_id=str(match.pk)).values_list("action", flat=True)
    )
    assert audit == {actions.RESULT_REPORTED: 1, actions.RESULT_CONFIRMED: 1}


def test_a_report_that_waited_for_the_tables_lock_sees_the_opponents_report_written_meanwhile(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """END-4 with the table read as the API reads it (its round and players held). Player A's report holds the
    table's lock until it commits; B's report waits for the lock meanwhile and must then see A's report, so the
    matching reports confirm the table. Reading the reports in the same locked statement as the table lost
    this on PostgreSQL (it re-reads the locked row, not the rows joined to it): 66 of 250 tables in make bench."""
    match = world.match()
    event = match.round.event
    a, b = Player.objects.get(pk=match.player_a_id), Player.objects.get(pk=match.player_b_id)
    a_written, go = threading.Event(), threading.Event()
    real_record = record

    def record_then_hold(*args: Any, **kwargs: Any) -> Any:
        entry = real_record(*args, **kwargs)
        if kwargs.get("actor_label") == f"player:{a.pk}":
            a_written.set()  # A's report is written; its transaction has not committed yet
            go.wait(timeout=20)
        return entry

    monkeypatch.setattr(result_services, "record", record_then_hold)

    def report(p: Player) -> Callable[[], Any]:
        def call() -> Any:
            try:
                held = reads.match_for_result(event, match.pk)  # as the API's read: relations held
                return result_services.report_result(held, player=p, result=A_WINS, idempotency_key=f"k{p.pk}")
            finally:
                connections.close_all()

        return call

    outcomes: list[Any] = []
    first = threading.Thread(target=lambda: outcomes.append(report(a)()))
    first.start()
    assert a_written.wait(timeout=20)
    second = threading.Thread(target=lambda: outcomes.append(report(b)()))
    second.start()
    time.sleep(0.5)  # B is now waiting for the lock (PostgreSQL's row lock, or SQLite's write lock)
    go.set()
    first.join(timeout=30)
    second.join(timeout=30)
    assert len(outcomes) == 2 and not [o for o in outcomes if isinstance(o, Exception)], outcomes
    match.refresh_from_db()
    assert (match.status, match.result) == (Match.Status.CONFIRMED, "a")


def test_a_double_tapped_confirmation_confirms_once(world: World) -> None:
    match = world.match()
    a, b = Player.objects.get(pk=match.player_a_id), Player.objects.get(pk=match.player_b_id)
    result_services.report_result(match, player=a, result=A_WINS)
    seen = Match.objects.get(pk=match.pk).version
    confirm = lambda: result_services.confirm_result(Match.objects.get(pk=match.pk), player=b, version=seen)  # noqa: E731
    outcomes = at_once(confirm, confirm, confirm)
    assert all(isinstance(o, Match) for o in outcomes), outcomes
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    audit = Counter(
        AuditEntry.objects.filter(object_type="events.match", object_id=str(match.pk)).values_list("action", flat=True)
    )
    assert audit == {actions.RESULT_REPORTED: 1, actions.RESULT_CONFIRMED: 1}


def test_the_last_two_tables_confirmed_at_once_finish_the_round_once(world: World) -> None:
    """END-4: the round ends when its last table is confirmed, checked after each result commits (no round
    lock while the result is written): of two last tables at once, the later commit sees the earlier one."""
    assert world.round is not None
    matches = list(world.round.matches.filter(is_bye=False).order_by("table"))
    for m in matches[2:]:
        result_services.enter_result(m, by=Staff(world.organizer), result=A_WINS)

    def enter(m: Match) -> Callable[[], Any]:
        return lambda: result_services.enter_result(
            Match.objects.get(pk=m.pk), by=Staff(world.organizer), result=A_WINS
        )

    outcomes = at_once(enter(matches[0]), enter(matches[1]))
    assert all(isinstance(o, Match) for o in outcomes), outcomes
    rnd = Round.objects.get(pk=world.round.pk)
    assert rnd.status == Round.Status.FINISHED
    finished = AuditEntry.objects.filter(action=actions.ROUND_FINISHED, object_id=str(rnd.pk))
    assert finished.count() == 1


def test_pairing_while_the_last_result_arrives_either_waits_for_it_or_counts_it(world: World) -> None:
    last = _finish_round_but_one(world)
    pair = lambda: round_services.pair_next_round(world.event, by=Staff(world.organizer))  # noqa: E731
    enter = lambda: result_services.enter_result(  # noqa: E731
        Match.objects.get(pk=last.pk), by=Staff(world.admin), result=A_WINS
    )
    paired, entered = at_once(pair, enter)
    assert isinstance(entered, Match) and entered.status == Match.Status.CONFIRMED
    if isinstance(paired, ServiceError):
        assert paired.problem.code == "round-not-finished"  # it came first: the organizer pairs again
        paired = round_services.pair_next_round(world.event, by=Staff(world.organizer))
    assert isinstance(paired, Round) and paired.number == 2
    points = {p["id"]: p["points"] for p in paired.pairing_input["players"]}
    assert points[last.player_a_id] == 3 and points[last.player_b_id] == 0  # the late result is in round 2's input
    assert Round.objects.filter(event=world.event).count() == 2


def test_a_round_cannot_be_paired_twice_by_two_clicks(world: World) -> None:
    _finish_round_but_one(world)
    result_services.enter_result(world.match(), by=Staff(world.organizer), result=A_WINS)
    pair = lambda: round_services.pair_next_round(world.event, by=Staff(world.organizer))  # noqa: E731
    outcomes = at_once(pair, pair)
    assert sum(isinstance(o, Round) for o in outcomes) == 1, outcomes
    assert Round.objects.filter(event=world.event).count() == 2


def test_a_thousand_reports_from_fifty_clients_are_each_stored_once(live_db: Database) -> None:
    seeded = seed(live_db, 250)  # 125 tables
    jobs = report_jobs(seeded, repeat=4)  # both players of every table, each sent four times (a phone's retries)
    random.Random(8).shuffle(jobs)
    assert len(jobs) == 1000
    with Server(live_db, workers=1 if live_db.vendor == "sqlite" else 2) as server:
        outcomes = send_reports([server.url], seeded["event_id"], jobs, clients=50)
    statuses = Counter(o.status for o in outcomes)
    assert statuses == {200: 1000}, statuses
    ids = ",".join(m["id"] for m in seeded["matches"])
    rows = live_db.query(f"SELECT status, COUNT(*) FROM events_match WHERE id IN ({ids}) GROUP BY status")
    assert rows == [("confirmed", 125)]
    per_match = live_db.query(
        f"SELECT match_id, COUNT(*) FROM events_resultreport WHERE match_id IN ({ids}) GROUP BY match_id"
    )
    assert len(per_match) == 125 and {n for _, n in per_match} == {2}
    audit = live_db.query(
        f"SELECT action, COUNT(*) FROM audit_auditentry WHERE object_type = 'events.match' AND object_id IN "
        f"({','.join(repr(m['id']) for m in seeded['matches'])}) GROUP BY action ORDER BY action"
    )
    assert dict(audit) == {actions.RESULT_CONFIRMED: 125, actions.RESULT_REPORTED: 125}
