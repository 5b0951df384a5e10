"""Rounds paired and played through the services."""

from __future__ import annotations

from django.contrib.auth.models import User

from taikai.events.actors import Staff
from taikai.events.models import Event, Match
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput

from .events import make_event

ARCHETYPES = [
    "スネークアイ",
    "ティアラメンツ",
    "Snake-Eye",
    "スネークアイ",
    "R-ACE",
    "ティアラメンツ",
    "天盃龍",
    "スネークアイ",
]


def A_WINS(n: int = 2) -> ResultInput:
    return ResultInput(tuple({"winner": "A"} for _ in range(n)))


def pair(event: Event, by: User) -> list[Match]:
    rnd = round_services.pair_next_round(event, by=Staff(by))
    return list(rnd.matches.filter(is_bye=False).select_related("player_a", "player_b").order_by("table"))


def play(event: Event, by: User, matches: list[Match]) -> None:
    for m in matches:
        result_services.enter_result(m, by=Staff(by), result=A_WINS())


def played_event(organizer: User, players: int = 8) -> Event:
    """A finished Swiss-then-top-4 event, played through the services: archetypes, a drop, every result."""
    from taikai.decks.archetypes import set_archetype
    from taikai.events.services import clock as clock_services
    from taikai.events.services import participation

    event = make_event(organizer, players, name="チャート杯", format="swiss_cut", swiss_rounds=3, top_cut=4)
    for player, name in zip(event.players.order_by("id"), ARCHETYPES, strict=False):
        set_archetype(player, name=name, by=Staff(organizer))
    win = {"a": [{"winner": "A"}, {"winner": "A"}], "b": [{"winner": "B"}, {"winner": "B"}]}
    while True:
        try:
            rnd = round_services.pair_next_round(event, by=Staff(organizer))
        except Exception:  # all rounds played
            break
        clock_services.start_round(rnd, by=Staff(organizer))
        for k, match in enumerate(rnd.matches.filter(is_bye=False).order_by("table")):
            side = "a" if (match.player_a_id + rnd.number + k) % 3 else "b"
            data = ResultInput.from_json({"duels": win[side]})
            result_services.enter_result(match, by=Staff(organizer), result=data)
        if rnd.number == 1:
            participation.drop_player(event.players.order_by("-id").first(), by=Staff(organizer))
    event.refresh_from_db()
    return event
