"""Public, read-only endpoints (no sign-in): what a stream overlay, a bot or a league site needs."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Field, Query, Router, Schema

from taikai.api import schemas as s
from taikai.api import serialize
from taikai.api.base import READ_ERRORS, optional_staff
from taikai.core.ids import parse_id
from taikai.core.placings import Stage
from taikai.events.models import Event, Match, Round
from taikai.events.permissions import is_staff
from taikai.events.services.placings import PlacingRow, placings_for, prizes_of
from taikai.events.services.standings import standings_for
from taikai.judging.clock_feed import clock_feed

router = Router()
PUBLIC = ["public"]

MAX_LIMIT = 200


class Paging(Schema):
    limit: int = Field(50, ge=1, le=MAX_LIMIT)
    offset: int = Field(0, ge=0, le=1_000_000)


def _page(items: list[Any], paging: Paging, count: int | None = None) -> dict[str, Any]:
    return {
        "count": len(items) if count is None else count,
        "limit": paging.limit,
        "offset": paging.offset,
        "items": items,
    }


def _event(event_id: s.Id) -> Event:
    return get_object_or_404(Event, pk=event_id)


@router.get(tags=PUBLIC, path="/events", response={200: s.EventPage, **READ_ERRORS}, summary="Events, newest first")
def list_events(request: HttpRequest, paging: Query[Paging]) -> dict[str, Any]:
    events = Event.objects.order_by("-date", "-id")
    window = events[paging.offset : paging.offset + paging.limit]
    ids = list(window.values_list("pk", flat=True))
    rows = serialize.event_rows(Event.objects.filter(pk__in=ids).order_by("-date", "-id"))
    return _page(rows, paging, events.count())


@router.get(tags=PUBLIC, path="/events/{event_id}", response={200: s.EventOut, **READ_ERRORS}, summary="One event")
def get_event(request: HttpRequest, event_id: s.Id) -> dict[str, Any]:
    _event(event_id)
    return serialize.event_rows(Event.objects.filter(pk=event_id))[0]


@router.get(
    tags=PUBLIC,
    path="/events/{event_id}/players",
    response={200: s.PlayerPage, **READ_ERRORS},
    summary="Registered players",
)
def list_players(request: HttpRequest, event_id: s.Id, paging: Query[Paging]) -> dict[str, Any]:
    """Each player's `archetype` is null until the event has finished or the organizer published them
    (`archetypes_public` on the event); the event's staff see them with their token at any time."""
    event = _event(event_id)
    players = event.players.order_by("id")
    window = list(players[paging.offset : paging.offset + paging.limit])
    rows = serialize.player_rows(window, archetypes=_archetypes_shown(request, event))
    return _page(rows, paging, players.count())


def _archetypes_shown(request: HttpRequest, event: Event) -> bool:
    if serialize.archetypes_public(event):
        return True
    by = optional_staff(request, event)
    return by is not None and is_staff(by, event)


@router.get(tags=PUBLIC, path="/events/{event_id}/rounds", response={200: s.RoundPage, **READ_ERRORS}, summary="Rounds")
def list_rounds(request: HttpRequest, event_id: s.Id, paging: Query[Paging]) -> dict[str, Any]:
    event = _event(event_id)
    rounds = event.rounds.order_by("number")
    numbers = list(rounds.values_list("number", flat=True)[paging.offset : paging.offset + paging.limit])
    return _page(serialize.round_rows(rounds.filter(number__in=numbers)), paging, rounds.count())


@router.get(
    tags=PUBLIC,
    path="/events/{event_id}/rounds/{number}",
    response={200: s.RoundOut, **READ_ERRORS},
    summary="One round",
)
def get_round(request: HttpRequest, event_id: s.Id, number: s.RoundNumber) -> dict[str, Any]:
    event = _event(event_id)
    get_object_or_404(Round, event=event, number=number)
    return serialize.round_rows(event.rounds.filter(number=number))[0]


@router.get(
    tags=PUBLIC,
    path="/events/{event_id}/rounds/{number}/matches",
    response={200: s.MatchPage, **READ_ERRORS},
    summary="Pairings and results of a round, by table",
)
def list_matches(request: HttpRequest, event_id: s.Id, number: s.RoundNumber, paging: Query[Paging]) -> dict[str, Any]:
    rnd = get_object_or_404(Round, event_id=event_id, number=number)
    matches = rnd.matches.select_related("round", "player_a", "player_b").order_by("table", "seat")
    window = matches[paging.offset : paging.offset + paging.limit]
    return _page([serialize.match_row(m) for m in window], paging, matches.count())


@router.get(
    tags=PUBLIC,
    path="/events/{event_id}/matches/{match_id}",
    response={200: s.MatchOut, **READ_ERRORS},
    summary="One match",
)
def get_match(request: HttpRequest, event_id: s.Id, match_id: s.Id) -> dict[str, Any]:
    m = get_object_or_404(
        Match.objects.select_related("round", "player_a", "player_b"), pk=match_id, round__event_id=event_id
    )
    return serialize.match_row(m)


@router.get(
    tags=PUBLIC,
    path="/events/{event_id}/standings",
    response={200: s.StandingPage, **READ_ERRORS},
    summary="Swiss standings with tiebreakers (OMW%, OOMW%) and the KTS code",
)
def list_standings(request: HttpRequest, event_id: s.Id, paging: Query[Paging]) -> dict[str, Any]:
    rows = standings_for(_event(event_id))
    window = rows[paging.offset : paging.offset + paging.limit]
    return _page([serialize.standing_row(r) for r in window], paging, len(rows))


class PlacingOut(Schema):
    rank: int = Field(..., description="The final place; players who went out in the same bracket round share it.")
    player: s.PlayerRef
    stage: str = Field(
        ...,
        description="How far the player went: `champion`, `finalist`, `top-4`, `top-8`, ... (lost in the bracket "
        "round of that many players), `in-bracket` (still playing) or `swiss` (did not reach the top cut).",
    )
    points: int = Field(..., description="Swiss match points.")
    disqualified: bool
    prize: str = Field(
        "",
        description="The prize in words, as the prize page and the placings page say it, once the prize list is "
        "published (empty: none or not published; PEN-2, PEN-8).",
    )


class PlacingPage(s.Page):
    items: list[PlacingOut]


def placing_stage(row: PlacingRow) -> str:
    if row.stage == Stage.BEST:
        return f"top-{row.best}"
    return str(row.stage.value)


@router.get(
    tags=PUBLIC,
    path="/events/{event_id}/placings",
    response={200: PlacingPage, **READ_ERRORS},
    summary="Final placings: the top cut decides the top, then Swiss order, disqualified players last",
)
def list_placings(request: HttpRequest, event_id: s.Id, paging: Query[Paging]) -> dict[str, Any]:
    event = _event(event_id)
    rows = placings_for(event)
    prizes = prizes_of(event, public=True)
    window = rows[paging.offset : paging.offset + paging.limit]
    items = [
        {
            "rank": r.rank,
            "player": {"id": str(r.player_id), "name": r.name},
            "stage": placing_stage(r),
            "points": r.points,
            "disqualified": r.disqualified,
            "prize": prizes.get(r.player_id, ""),
        }
        for r in window
    ]
    return _page(items, paging, len(rows))


@router.get(
    tags=PUBLIC,
    path="/events/{event_id}/bracket",
    response={200: s.BracketOut, **READ_ERRORS},
    summary="Top-cut bracket",
)
def get_bracket(request: HttpRequest, event_id: s.Id) -> dict[str, Any]:
    event = _event(event_id)
    out = []
    for rnd in event.rounds.filter(stage=Round.Stage.ELIMINATION).order_by("number"):
        matches = rnd.matches.select_related("round", "player_a", "player_b").order_by("table")
        out.append({"number": rnd.number, "matches": [serialize.match_row(m) for m in matches]})
    return {"rounds": out}


@router.get(
    tags=PUBLIC,
    path="/events/{event_id}/clock",
    response={200: s.ClockOut, **READ_ERRORS},
    summary="The round clock: server time, end time, paused, the tables still playing after time",
)
def get_clock(request: HttpRequest, event_id: s.Id, table: str = "") -> dict[str, Any]:
    """The same payload as the projector's clock.json (``taikai.judging.clock_feed``); ``?table=N`` adds that
    table's own clock."""
    return clock_feed(_event(event_id), table=parse_id(table, digits=5))
