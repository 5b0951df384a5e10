"""The seats a pairing message carries (taikai.events.seating): the latest round's tables, nothing else."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from taikai.events import seating
from taikai.events.actors import Staff
from taikai.events.models import Round
from taikai.events.services import rounds as round_services
from taikai.events.services import teams as team_services
from tests.factories import make_event
from tests.factories.rounds import pair, play

pytestmark = pytest.mark.django_db


def _ref(rnd: Round) -> str:
    return f"{Round._meta.label_lower}:{rnd.pk}"


def test_the_latest_round_lists_every_table_with_both_players_and_no_bye(organizer: User) -> None:
    event = make_event(organizer, 9)  # an odd field: one bye
    matches = pair(event, organizer)
    rnd = matches[0].round
    got = seating.seats(event.pk, _ref(rnd))
    assert got is not None
    assert got["round"] == rnd.number == 1
    assert got["tables"] == [[m.table, m.player_a_id, m.player_b_id] for m in matches]
    seated = {p for _, a, b in got["tables"] for p in (a, b)}
    bye = rnd.matches.get(is_bye=True).player_a_id
    assert len(seated) == 8 and bye not in seated
    assert got["spread"] == round(8 / seating.REFRESHES_PER_SECOND, 1)


def test_a_round_taken_back_or_an_older_round_names_no_tables(organizer: User) -> None:
    event = make_event(organizer, 8)
    first = pair(event, organizer)
    play(event, organizer, first)
    second = pair(event, organizer)[0].round
    assert seating.seats(event.pk, _ref(first[0].round)) is None  # not the latest: a stale message
    assert seating.seats(event.pk, _ref(second)) is not None
    round_services.undo_round(second, by=Staff(organizer))
    assert seating.seats(event.pk, _ref(second)) is None  # gone
    assert seating.seats(event.pk, f"events.event:{event.pk}") is None
    assert seating.seats(event.pk, None) is None and seating.seats(event.pk, "events.round:x") is None


def test_another_events_round_is_not_this_events(organizer: User) -> None:
    event, other = make_event(organizer, 4), make_event(organizer, 4)
    rnd = pair(other, organizer)[0].round
    pair(event, organizer)
    assert seating.seats(event.pk, _ref(rnd)) is None


def test_a_team_round_has_no_seats_its_pages_refresh_as_before(organizer: User) -> None:
    event = make_event(organizer, 0, is_team_event=True)
    for t in range(2):
        members = [{"name": f"T{t}{s}", "card_game_id": f"{3000000000 + t * 10 + i}"} for i, s in enumerate("ABC")]
        team_services.register_team(event, by=Staff(organizer), name=f"チーム{t}", members=members)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    assert seating.seats(event.pk, _ref(rnd)) is None
