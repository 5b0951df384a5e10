"""The result report's path: how many statements one report costs, and how a round ends (END-4).

A phone's report is the write a venue sends most (every table, twice, within minutes of the round's end), so
its statements are counted here: a new read on this path is a decision, not an accident (issue 16).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from taikai.events.actors import Staff
from taikai.events.models import Match, Round
from taikai.events.services import clock as clock_services
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.links import issue_access
from taikai.events.services.result_input import ResultInput
from taikai.events.services.round_end import finish_round_if_complete
from tests.factories import make_event

A_WINS = {"duels": [{"winner": "A"}, {"winner": "A"}], "basis": "played"}
pytestmark = pytest.mark.django_db


def _round_with_links(organizer: User, players: int = 8) -> tuple[Round, dict[int, str]]:
    event = make_event(organizer, players)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    clock_services.start_round(rnd, by=Staff(organizer))
    links = {p.pk: issue_access(p, by=Staff(organizer)) for p in event.players.all()}
    return rnd, links


def _report(client: Client, m: Match, token: str, key: str) -> Any:
    return client.post(
        f"/api/v1/events/{m.round.event_id}/matches/{m.pk}/result",
        data=json.dumps({**A_WINS, "idempotency_key": key}),
        content_type="application/json",
        headers={"X-Player-Token": token},
    )


def _statements(queries: list[dict[str, str]]) -> list[str]:
    return [q["sql"].split()[0] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]


def test_end_4_a_report_and_its_confirmation_cost_a_bounded_number_of_statements(organizer: User) -> None:
    rnd, links = _round_with_links(organizer)
    m = rnd.matches.filter(is_bye=False).order_by("table").first()
    assert m is not None
    client = Client()
    with CaptureQueriesContext(connection) as first:
        assert _report(client, m, links[m.player_a_id], "a-1").status_code == 200
    with CaptureQueriesContext(connection) as second:
        answer = _report(client, m, links[m.player_b_id], "b-1")
    assert answer.status_code == 200 and answer.json()["status"] == "confirmed"  # END-4
    # the player with their event, the table with its round and players, the table again under the lock, then
    # its reports (after the lock, see results._lock_with_reports); then the report, the table and the audit
    # entry are written
    reads_and_writes = ["SELECT", "SELECT", "SELECT", "SELECT", "INSERT", "UPDATE", "INSERT"]
    assert [s for s in _statements(first.captured_queries) if s in ("SELECT", "INSERT", "UPDATE")] == reads_and_writes
    # the confirmation adds, after its commit, whether the round has a table left (a table that was never
    # disputed has no dispute call to close: the judges' receiver reads nothing)
    confirmed = [s for s in _statements(second.captured_queries) if s in ("SELECT", "INSERT", "UPDATE")]
    assert confirmed == [*reads_and_writes, "SELECT"]


def test_end_4_the_answer_is_the_saved_table_without_reading_it_again(organizer: User) -> None:
    rnd, links = _round_with_links(organizer)
    m = rnd.matches.filter(is_bye=False).order_by("table").first()
    assert m is not None
    client = Client()
    _report(client, m, links[m.player_a_id], "a-1")
    body = _report(client, m, links[m.player_b_id], "b-1").json()
    m.refresh_from_db()
    assert (body["status"], body["result"], body["version"]) == (m.status, m.result, m.version)
    assert body["player_a"]["name"] == m.player_a.name and body["player_b"]["name"] == m.player_b.name


def test_end_4_the_last_confirmed_table_finishes_the_round_and_a_retry_changes_nothing(organizer: User) -> None:
    rnd, links = _round_with_links(organizer, 4)
    client = Client()
    tables = list(rnd.matches.filter(is_bye=False).order_by("table"))
    for m in tables:
        _report(client, m, links[m.player_a_id], f"{m.pk}-a")
        _report(client, m, links[m.player_b_id], f"{m.pk}-b")
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.FINISHED
    version = rnd.version
    last = tables[-1]
    assert _report(client, last, links[last.player_b_id], f"{last.pk}-b").status_code == 200  # the phone retries
    rnd.refresh_from_db()
    assert (rnd.status, rnd.version) == (Round.Status.FINISHED, version)


def test_end_4_a_round_left_unfinished_by_a_stopped_server_is_finished_when_the_next_round_is_paired(
    organizer: User,
) -> None:
    """The round ends just after its last result commits; if the server stopped in between, every table is
    confirmed but the round still shows its clock: pairing the next round finishes it first."""
    rnd, _links = _round_with_links(organizer, 4)
    for m in rnd.matches.filter(is_bye=False):
        result_services.enter_result(m, by=Staff(organizer), result=ResultInput.from_json(A_WINS))
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.STARTED)  # as if the server had stopped
    nxt = round_services.pair_next_round(rnd.event, by=Staff(organizer))
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.FINISHED and nxt.number == 2


def test_end_4_a_round_with_a_table_still_open_does_not_finish(organizer: User) -> None:
    rnd, _links = _round_with_links(organizer, 4)
    first, *_rest = list(rnd.matches.filter(is_bye=False))
    result_services.enter_result(first, by=Staff(organizer), result=ResultInput.from_json(A_WINS))
    assert finish_round_if_complete(rnd.pk) is None
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.STARTED
