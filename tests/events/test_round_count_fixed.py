"""The Swiss-round count and the top-cut size are decided when round 1 is paired (issue 22, finding 6).

Left blank, they come from the ruleset's attendance table (`[[tournament.swiss_rounds]]`,
`[[tournament.top_cut]]`) for the players checked in at that moment, and stay: a no-show, a drop or a late
entry later changes nothing unless the organizer decides again.
"""

from __future__ import annotations

from typing import Any

import pytest

from taikai.events.actors import Staff
from taikai.events.models import Event, Round
from taikai.events.services import players as player_services
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.results import ResultInput
from tests.events.conftest import make_event

pytestmark = pytest.mark.django_db

A_WINS = ResultInput(({"winner": "A"}, {"winner": "A"}))


def _play(organizer: Any, rnd: Round) -> None:
    for m in rnd.matches.filter(is_bye=False).order_by("table"):
        result_services.enter_result(m, by=Staff(organizer), result=A_WINS)


def _event_with_no_shows(organizer: Any, registered: int, no_shows: int, **kwargs: Any) -> Event:
    event = make_event(organizer, registered, checked_in=False, **kwargs)
    for player in event.players.order_by("id")[no_shows:]:  # REG-3: only players who checked in are paired
        player_services.check_in(player, by=Staff(organizer))
    return event


def test_a_no_show_does_not_add_a_round(organizer: Any) -> None:
    # 17 registered, 16 checked in: the table's 16-player line is 4 rounds (17 would be 5).
    event = _event_with_no_shows(organizer, 17, 1)
    round_services.pair_next_round(event, by=Staff(organizer))
    event.refresh_from_db()
    assert round_services.plan(event).swiss_rounds == 4
    assert event.swiss_rounds == 4


def test_a_drop_after_round_one_does_not_take_a_round_away(organizer: Any) -> None:
    # A 9-player side event is 4 rounds; one player dropping after round 1 leaves 8, still 4 rounds.
    event = make_event(organizer, 9)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    _play(organizer, rnd)
    player_services.drop_player(event.players.order_by("id").first(), by=Staff(organizer))
    plan = round_services.plan(event)
    assert (plan.swiss_rounds, plan.next_action) == (4, "pair-swiss")
    for _ in range(3):
        _play(organizer, round_services.pair_next_round(event, by=Staff(organizer)))
    assert round_services.plan(event).next_action == "finished"
    assert event.rounds.count() == 4


def test_the_top_cut_is_fixed_from_the_checked_in_count(organizer: Any) -> None:
    # 9 registered, 8 checked in: the table gives no cut for 8 (4 for 9); a late entry after round 1 keeps it.
    event = _event_with_no_shows(organizer, 9, 1, format=Event.Format.SWISS_CUT)
    round_services.pair_next_round(event, by=Staff(organizer))
    event.refresh_from_db()
    assert (event.swiss_rounds, event.top_cut) == (3, 0)
    late = event.players.order_by("id").first()
    player_services.check_in(late, by=Staff(organizer))
    plan = round_services.plan(event)
    assert (plan.swiss_rounds, plan.top_cut) == (3, 0)
