"""The event's log read by people (issue 22): who may read it, the filters, and a correction in words."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from taikai.audit.models import AuditEntry
from taikai.events.actors import PlayerSelf, Staff, Visitor
from taikai.events.errors import PermissionDenied
from taikai.events.models import Event, Match, StaffRole
from taikai.events.services import players as player_services
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.judging.services import penalties
from taikai.web.log.reads import LogFilter, read_log
from taikai.web.log.words import lines
from tests.events.conftest import make_event, organizer  # noqa: F401  (fixture)
from tests.judging.conftest import staff

pytestmark = pytest.mark.django_db

A_WINS = result_services.ResultInput(({"winner": "A"}, {"winner": "B"}, {"winner": "A"}))
B_WINS = result_services.ResultInput(({"winner": "B"}, {"winner": "B"}))


class World:
    """Round 1 of eight players with a corrected table, a reported one and a penalty; round 2 paired."""

    def __init__(self, organizer: Any) -> None:  # noqa: F811
        self.organizer = organizer
        self.event = make_event(organizer, 8)
        self.head = staff(self.event, "head", StaffRole.Role.HEAD_JUDGE)
        self.floor = staff(self.event, "floor", StaffRole.Role.JUDGE)
        by = Staff(organizer)
        rnd = round_services.pair_next_round(self.event, by=by)
        round_services.start_round(rnd, by=by)
        self.corrected, self.reported, *rest = rnd.matches.filter(is_bye=False).order_by("table")
        result_services.enter_result(self.corrected, by=by, result=A_WINS)
        result_services.correct_result(self.corrected, by=by, result=B_WINS, reason="伝票の読み違い")
        result_services.report_result(self.reported, player=self.reported.player_a, result=A_WINS)
        penalties.issue_penalty(
            self.event, by=Staff(self.floor), player=self.reported.player_b, infraction="INF-2", reason="遅刻"
        )
        for m in rest:
            result_services.enter_result(m, by=by, result=A_WINS)
        self.corrected.refresh_from_db()
        self.reported.refresh_from_db()
        self.me = self.corrected.player_a  # a player at the corrected table
        self.other = self.reported.player_a  # a player at another table


@pytest.fixture
def world(organizer: Any) -> World:  # noqa: F811
    return World(organizer)


def _actions(page: Any) -> list[str]:
    return [e.action for e in page.entries]


def test_the_organizer_and_the_head_judge_read_the_whole_log_newest_first(world: World) -> None:
    everything = AuditEntry.objects.filter(event_id=world.event.pk).count()
    for user in (world.organizer, world.head):
        page = read_log(world.event, by=Staff(user), limit=200)
        assert page.count == everything
        ids = [e.pk for e in page.entries]
        assert ids == sorted(ids, reverse=True)


@pytest.mark.parametrize("who", ["floor", "visitor", "signed-out"])
def test_a_floor_judge_and_a_visitor_are_refused(world: World, who: str) -> None:
    from django.contrib.auth.models import AnonymousUser

    actor = {"floor": Staff(world.floor), "visitor": Visitor(), "signed-out": Staff(AnonymousUser())}[who]
    with pytest.raises(PermissionDenied):
        read_log(world.event, by=actor)


def test_a_player_reads_only_what_happened_at_their_own_tables(world: World) -> None:
    page = read_log(world.event, by=PlayerSelf(world.me), limit=200)
    assert page.count > 0
    assert {(e.object_type, e.object_id) for e in page.entries} == {("events.match", str(world.corrected.pk))}
    assert "taikai.match.result_corrected" in _actions(page)
    theirs = read_log(world.event, by=PlayerSelf(world.other), limit=200)
    assert {e.object_id for e in theirs.entries} == {str(world.reported.pk)}


def test_a_player_of_another_event_is_refused(world: World, organizer: Any) -> None:  # noqa: F811
    elsewhere = make_event(organizer, 2, name="別の大会")
    with pytest.raises(PermissionDenied):
        read_log(world.event, by=PlayerSelf(elsewhere.players.first()))
