"""Through the database: the points stored with each round's pairing are the standings' points.

Random events are played through the services (late entries, drops, draws, byes); before every
round the standings are read, the round is paired, and its stored pairing input must carry the
same points for every player (and, in a team event, for every team).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taikai.core.ruleset import builtin
from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import events as event_services
from taikai.events.services import participation, progress, registration, team_play
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services import teams as team_services
from taikai.events.services.result_input import ResultInput
from taikai.events.services.standings import standings_for

pytestmark = pytest.mark.django_db

RESULTS = {
    "a": ResultInput(({"winner": "A"}, {"winner": "A"})),
    "b": ResultInput(({"winner": "B"}, {"winner": "A"}, {"winner": "B"})),
    "draw": ResultInput((), basis="intentional-draw"),
}
DB_EXAMPLES = settings(max_examples=5, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _event(organizer: User, players: int, rounds: int, **kwargs: Any) -> Event:
    # A loss worth a point, so a late entry's missed rounds change its points.
    document = builtin("harajuku-cs-1.2").to_dict()
    document["scoring"]["loss"] = 1
    event = event_services.create_event(
        by=Staff(organizer),
        name="同点検証",
        date=dt.date(2026, 12, 6),
        ruleset_name="harajuku-cs-1.2",
        ruleset_document=document,
        swiss_rounds=rounds,
        **kwargs,
    )
    for i in range(players):
        player = registration.register_player(
            event, by=Staff(organizer), name=f"選手{i}", card_game_id=f"{1000000000 + i}"
        )
        registration.check_in(player, by=Staff(organizer))
    return event


def _play(rnd: Any, organizer: User, data: st.DataObject) -> None:
    for m in rnd.matches.filter(is_bye=False).order_by("table", "seat"):
        outcome = data.draw(st.sampled_from(sorted(RESULTS)), label=f"R{rnd.number} T{m.table}{m.seat}")
        result_services.enter_result(m, by=Staff(organizer), result=RESULTS[outcome])


@DB_EXAMPLES
@given(data=st.data(), size=st.integers(3, 7), rounds=st.integers(2, 4))
def test_pairing_and_standings_see_the_same_points(
    organizer: User, data: st.DataObject, size: int, rounds: int
) -> None:
    event = _event(organizer, size, rounds)
    for number in range(1, rounds + 1):
        late = None
        if number > 1 and data.draw(st.booleans(), label="late entry"):
            late = registration.register_player(
                event,
                by=Staff(organizer),
                name=f"遅刻{number}",
                card_game_id=f"2{event.pk:05d}{number:04d}",
                late_entry=True,
            )
            late, _token = registration.check_in(late, by=Staff(organizer))
            assert late.late_entry_round == number
        active = list(event.players.filter(dropped_after_round__isnull=True).order_by("id"))
        if number > 1 and len(active) > 3 and data.draw(st.booleans(), label="drop"):
            participation.drop_player(data.draw(st.sampled_from(active), label="who drops"), by=Staff(organizer))
        ranked = {row.player_id: row.points for row in standings_for(event)}
        rnd = round_services.pair_next_round(event, by=Staff(organizer))
        paired = {p["id"]: p["points"] for p in rnd.pairing_input["players"]}
        assert paired == ranked, f"round {number}"
        if late is not None:  # a loss (worth 1 here) for each round it missed, in both
            assert paired[late.pk] == number - 1
        _play(rnd, organizer, data)
    assert progress.plan(event).next_action == "finished"


@DB_EXAMPLES
@given(data=st.data(), teams=st.integers(2, 5), rounds=st.integers(2, 3))
def test_team_pairing_and_team_standings_see_the_same_points(
    organizer: User, data: st.DataObject, teams: int, rounds: int
) -> None:
    event = _event(organizer, 0, rounds, is_team_event=True)
    for t in range(teams):
        members = [{"name": f"T{t}{s}", "card_game_id": f"3{event.pk:05d}{t:03d}{i}"} for i, s in enumerate("ABC")]
        team_services.register_team(event, by=Staff(organizer), name=f"チーム{t}", members=members)
    for number in range(1, rounds + 1):
        ranked = {row["team"].pk: row["points"] for row in team_play.team_standings(event)}
        rnd = round_services.pair_next_round(event, by=Staff(organizer))
        paired = {p["id"]: p["points"] for p in rnd.pairing_input["teams"]}
        assert paired == ranked, f"round {number}"
        _play(rnd, organizer, data)


def test_a_pure_elimination_event_is_drawn_from_its_stored_seed_and_ends_with_one_champion(organizer: User) -> None:
    from taikai.core.pairing import elimination
    from taikai.core.sheet import Reached
    from taikai.events.services.history import event_sheet

    event = _event(organizer, 6, 0, format=Event.Format.ELIMINATION)
    first = round_services.pair_next_round(event, by=Staff(organizer))
    stored = first.pairing_input
    drawn = elimination.first_round(elimination.random_bracket(stored["seeds"], stored["seed"]))
    assert [(m.player_a_id, m.player_b_id) for m in first.matches.order_by("table")] == list(drawn.tables)
    rnd = first
    while True:
        for m in rnd.matches.filter(is_bye=False):
            result_services.enter_result(m, by=Staff(organizer), result=RESULTS["b"])
        if progress.plan(event).next_action == "finished":
            break
        rnd = round_services.pair_next_round(event, by=Staff(organizer))
        assert rnd.pairing_input["advancing"] == [
            m.player_b_id or m.player_a_id for m in event.rounds.get(number=rnd.number - 1).matches.order_by("table")
        ]
    assert rnd.number == 3  # 6 players: a bracket of 8, two byes to the first drawn
    final = rnd.matches.get()
    champions = [line.id for line in event_sheet(event).lines if line.reached == Reached.CHAMPION]
    assert champions == [final.player_b_id]
