"""An event for reading the log (issue 22): round 1 of eight players with a corrected table, a reported table with
a judge call and a penalty, every other table entered."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from taikai.events.actors import Staff
from taikai.events.models import StaffRole
from taikai.events.services import clock as clock_services
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from taikai.judging.services import calls, penalties
from tests.factories import make_event, staff

A_WINS = ResultInput(({"winner": "A"}, {"winner": "B"}, {"winner": "A"}))
B_WINS = ResultInput(({"winner": "B"}, {"winner": "B"}))


class World:
    """The organizer, the head judge and a floor judge; ``me`` sits at the corrected table, ``other`` at the
    reported one."""

    def __init__(self, organizer: User) -> None:
        self.organizer = organizer
        self.event = make_event(organizer, 8)
        self.head = staff(self.event, "head", StaffRole.Role.HEAD_JUDGE)
        self.floor = staff(self.event, "floor", StaffRole.Role.JUDGE)
        by = Staff(organizer)
        rnd = round_services.pair_next_round(self.event, by=by)
        clock_services.start_round(rnd, by=by)
        self.corrected, self.reported, *rest = rnd.matches.filter(is_bye=False).order_by("table")
        result_services.enter_result(self.corrected, by=by, result=A_WINS)
        result_services.correct_result(self.corrected, by=by, result=B_WINS, reason="伝票の読み違い")
        result_services.report_result(self.reported, player=self.reported.player_a, result=A_WINS)
        call = calls.raise_call(self.event, table=self.reported.table, by=Staff(self.floor), description="遅延")
        penalties.issue_penalty(
            self.event,
            by=Staff(self.floor),
            player=self.reported.player_b,
            infraction="INF-2",
            reason="遅刻",
            call=call,
        )
        for m in rest:
            result_services.enter_result(m, by=by, result=A_WINS)
        self.corrected.refresh_from_db()
        self.reported.refresh_from_db()
        self.me = self.corrected.player_a  # a player at the corrected table
        self.other = self.reported.player_a  # a player at another table


@pytest.fixture(name="world")
def world_fixture(organizer: User) -> World:
    return World(organizer)
