"""Final placings through the services: a Swiss + top 4 event, then a disqualification (PEN-1)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from taikai.core.placings import Stage
from taikai.events.actors import Staff
from taikai.events.models import Event, Player, StaffRole
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services import rulings
from taikai.events.services.placings import champion, placings_for
from taikai.events.services.standings import standings_for
from tests.factories import A_WINS, make_event, staff

pytestmark = pytest.mark.django_db


def _play_round(event: Event, by: Any) -> None:
    rnd = round_services.pair_next_round(event, by=Staff(by))
    for m in rnd.matches.filter(is_bye=False):
        result_services.enter_result(m, by=Staff(by), result=A_WINS())


def test_after_the_top_cut_the_bracket_decides_the_top_and_the_rest_keep_swiss_order(organizer: User) -> None:
    event = make_event(organizer, 8, format=Event.Format.SWISS_CUT, swiss_rounds=3, top_cut=4)
    for _ in range(3):
        _play_round(event, organizer)
    swiss = [row.player_id for row in standings_for(event)]
    _play_round(event, organizer)  # semifinals: seed 1 v 4, 2 v 3; player A (the higher seed) wins
    _play_round(event, organizer)  # the final
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    rows = placings_for(event)
    assert [r.player_id for r in rows[:2]] == [swiss[0], swiss[1]]
    assert [(r.rank, r.stage) for r in rows[:4]] == [
        (1, Stage.CHAMPION),
        (2, Stage.FINALIST),
        (3, Stage.BEST),
        (3, Stage.BEST),
    ]
    assert {r.player_id for r in rows[2:4]} == {swiss[2], swiss[3]}
    assert [r.player_id for r in rows[4:]] == swiss[4:]
    assert champion(event) is not None and champion(event).player_id == swiss[0]


def test_a_disqualified_player_is_placed_last_and_marked(organizer: User) -> None:
    # PEN-1: disqualification is a drop that places the player after everyone else.
    event = make_event(organizer, 6)
    head = staff(event, "head", StaffRole.Role.HEAD_JUDGE)
    _play_round(event, organizer)
    leader = standings_for(event)[0].player_id
    rulings.disqualify_player(Player.objects.get(pk=leader), by=Staff(head))
    rows = placings_for(event)
    assert rows[-1].player_id == leader and rows[-1].disqualified
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    assert not any(r.disqualified for r in rows[:-1])


def test_only_the_head_judge_disqualifies(organizer: User) -> None:
    # PEN-6: a floor judge (or an organizer who is not the head judge) cannot disqualify.
    event = make_event(organizer, 4)
    judge = staff(event, "floor", StaffRole.Role.JUDGE)
    target = event.players.first()
    from taikai.events.errors import PermissionDenied

    with pytest.raises(PermissionDenied):
        rulings.disqualify_player(target, by=Staff(judge))
    assert not Player.objects.get(pk=target.pk).disqualified
