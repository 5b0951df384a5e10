"""Signed-in endpoints: each one finds the objects, calls one service, and shapes the answer.

Permissions are the services' own (taikai.events.permissions), seen through the token's role cap.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from ninja import Status

from taikai.api import public, serialize
from taikai.api import schemas as s
from taikai.api.base import (
    PLAYER,
    TOKEN,
    WRITE_ERRORS,
    acting_player,
    errors,
    player_or_staff_actor,
    staff_actor,
    too_many,
)
from taikai.api.routes import SignedInRoutes
from taikai.core.ids import parse_id
from taikai.decks.archetypes import set_archetype
from taikai.events import reads
from taikai.events.actors import PlayerSelf
from taikai.events.errors import PermissionDenied, ServiceError
from taikai.events.models import Event, Match, Player, Round
from taikai.events.permissions import require_player_or_staff, require_staff
from taikai.events.services import clock as clock_services
from taikai.events.services import pairing_edits, participation, registration
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from taikai.security import rates

router = public.router  # one router: GET and POST of a path must share it
TAGS = ["staff and players"]
routes = SignedInRoutes(router, TAGS)


def _event(event_id: s.Id) -> Event:
    return get_object_or_404(Event, pk=event_id)


def _player(event: Event, player_id: s.Id) -> Player:
    return get_object_or_404(Player.objects.select_related("event"), pk=player_id, event=event)


def _match(event: Event, match_id: s.Id) -> Match:
    """The table, its round and its players' names (a result's answer shows no more); the event is the
    caller's, read once. One hand-written statement (taikai.events.reads): this is the busiest read."""
    match = reads.match_for_result(event, match_id)
    if match is None:
        raise Http404
    return match


def _event_of_caller(request: HttpRequest, event_id: s.Id) -> Event:
    """The path's event: a player's token was read together with the player's event, so reuse that one."""
    auth = getattr(request, "auth", None)
    if isinstance(auth, Player) and auth.event_id == event_id:
        return auth.event
    return _event(event_id)


@routes.post("/events/{event_id}/players", s.PlayerOut, status=201)
def register_player(request: HttpRequest, event_id: s.Id, body: s.RegisterIn) -> Status[dict[str, Any]]:
    """Register a player (staff)."""
    event = _event(event_id)
    player = registration.register_player(event, by=staff_actor(request, event), **body.dict())
    return Status(201, serialize.player_row(player))


@routes.post("/events/{event_id}/players/{player_id}/check-in", s.CheckInOut)
def check_in(request: HttpRequest, event_id: s.Id, player_id: s.Id, body: s.CheckInIn) -> dict[str, Any]:
    """Check a player in (staff): returns the player's personal link token once."""
    event = _event(event_id)
    player, token = registration.check_in(
        _player(event, player_id), by=staff_actor(request, event), id_card_shown=body.id_card_shown
    )
    return {"player": serialize.player_row(player, serialize.archetype_of(player)), "player_token": token}


@routes.post("/events/{event_id}/players/{player_id}/drop", s.PlayerOut, auth=[TOKEN, PLAYER])
def drop(request: HttpRequest, event_id: s.Id, player_id: s.Id) -> dict[str, Any]:
    """Drop a player: staff drop anyone; a player drops themself."""
    event = _event(event_id)
    player = _player(event, player_id)
    player = participation.drop_player(player, by=player_or_staff_actor(request, event, player))
    return serialize.player_row(player, serialize.archetype_of(player))


@routes.put("/events/{event_id}/players/{player_id}/archetype", s.PlayerOut, auth=[TOKEN, PLAYER])
def put_archetype(request: HttpRequest, event_id: s.Id, player_id: s.Id, body: s.ArchetypeIn) -> dict[str, Any]:
    """Set the deck archetype a player registered (staff, or the player themself), for the metagame."""
    event = _event(event_id)
    player = _player(event, player_id)
    row = set_archetype(player, name=body.name, by=player_or_staff_actor(request, event, player))
    return serialize.player_row(player, row.name)


@routes.post("/events/{event_id}/rounds", s.RoundOut, status=201)
def pair_round(request: HttpRequest, event_id: s.Id, body: s.PairRoundIn | None = None) -> Status[dict[str, Any]]:
    """Pair the next round (organizer): Swiss (players or teams), the top cut, or the next elimination round.
    `seed` replays a draw: the round stores the seed it was drawn from (`seed` in the answer)."""
    event = _event(event_id)
    seed = int(body.seed) if body is not None and body.seed is not None else None
    rnd = round_services.pair_next_round(event, by=staff_actor(request, event), seed=seed)
    return Status(201, serialize.round_rows(event.rounds.filter(pk=rnd.pk))[0])


def _pairings(rnd: Round) -> dict[str, Any]:
    state = pairing_edits.pairing_state(rnd)
    kept = {m.pk for m in state.kept}
    tables = [
        {
            "table": m.table,
            "player_a": {"id": str(m.player_a_id), "name": m.player_a.name},
            "player_b": {"id": str(m.player_b_id), "name": m.player_b.name} if m.player_b else None,
            "is_bye": m.is_bye,
            "status": m.status,
            "has_result": m.pk in kept,
        }
        for m in state.tables
    ]
    return {"round": rnd.number, "version": state.version, "tables": tables}


def _player_id(value: str) -> int:
    number = parse_id(value)
    if number is None:
        raise ServiceError("bad-choice", field="player", value=value[:20])
    return number


@routes.get("/events/{event_id}/rounds/{number}/pairings", s.PairingsOut)
def get_pairings(request: HttpRequest, event_id: s.Id, number: s.RoundNumber) -> dict[str, Any]:
    """A round's tables and the version an edit or a re-pair is made on (staff)."""
    event = _event(event_id)
    require_staff(staff_actor(request, event), event)
    return _pairings(get_object_or_404(Round, event=event, number=number))


@routes.put("/events/{event_id}/rounds/{number}/pairings", s.PairingsOut)
def edit_pairings(request: HttpRequest, event_id: s.Id, number: s.RoundNumber, body: s.PairingsIn) -> dict[str, Any]:
    """Edit the pairings by hand before the round starts (organizer), on the `version` you saw: a table with a
    result must be sent as it is (it is kept: `table-has-result` otherwise); a stale version is a 409 whose
    params carry the current `version` (and `tables`, those with a result now)."""
    event = _event(event_id)
    rnd = get_object_or_404(Round, event=event, number=number)
    pairs = [(_player_id(p.a), _player_id(p.b) if p.b is not None else None) for p in body.pairs]
    by = staff_actor(request, event)
    pairing_edits.edit_pairing(rnd, by=by, pairs=pairs, allow_rematch=body.allow_rematch, version=body.version)
    return _pairings(rnd)


@routes.post("/events/{event_id}/rounds/{number}/repair", s.PairingsOut)
def repair(request: HttpRequest, event_id: s.Id, number: s.RoundNumber, body: s.PairingsVersionIn) -> dict[str, Any]:
    """Pair a Swiss round again from a new seed (organizer), on the `version` you saw: refused once it started
    (`round-started`), in the bracket (`repair-not-swiss`) or while a table has a result (`repair-result-in`);
    a stale version is a 409 with the current one."""
    event = _event(event_id)
    rnd = get_object_or_404(Round, event=event, number=number)
    return _pairings(pairing_edits.repair_round(rnd, by=staff_actor(request, event), version=body.version))


CLOCK = {
    "start": clock_services.start_round,
    "pause": clock_services.pause_round,
    "resume": clock_services.resume_round,
}


@routes.post("/events/{event_id}/rounds/{number}/clock/{action}", s.RoundOut)
def clock(
    request: HttpRequest, event_id: s.Id, number: s.RoundNumber, action: str, body: s.ClockAction
) -> dict[str, Any]:
    """Start, pause or resume the round clock (staff). `action` is start, pause or resume."""
    event = _event(event_id)
    rnd = get_object_or_404(Round, event=event, number=number)
    change = CLOCK.get(action)
    if change is None:
        raise ServiceError("bad-round-action", action=action)
    change(rnd, by=staff_actor(request, event), version=body.version)
    return serialize.round_rows(event.rounds.filter(pk=rnd.pk))[0]


@routes.post("/events/{event_id}/matches/{match_id}/result", s.MatchOut, auth=[TOKEN, PLAYER])
def report(request: HttpRequest, event_id: s.Id, match_id: s.Id, body: s.ResultIn) -> dict[str, Any]:
    """Report a result. A player (X-Player-Token) reports and the opponent's matching report confirms it;
    staff (Bearer) enter the result slip, confirmed at once."""
    event = _event_of_caller(request, event_id)
    match = _match(event, match_id)
    data = ResultInput.from_json(body.dict(exclude={"idempotency_key", "version"}))
    me = acting_player(request, event)
    if me is not None:
        match = result_services.report_result(
            match, player=me, result=data, idempotency_key=body.idempotency_key, version=body.version
        )
    else:
        match = result_services.enter_result(match, by=staff_actor(request, event), result=data, version=body.version)
    return serialize.match_row(match)  # the service's own copy, as saved


@routes.post("/events/{event_id}/matches/{match_id}/confirm", s.MatchOut, auth=PLAYER)
def confirm(request: HttpRequest, event_id: s.Id, match_id: s.Id, body: s.ConfirmIn) -> dict[str, Any]:
    """The opponent confirms the reported result as it stands (X-Player-Token)."""
    event = _event_of_caller(request, event_id)
    me = acting_player(request, event)
    if me is None:
        raise PermissionDenied("player-token-required")
    match = result_services.confirm_result(_match(event, match_id), player=me, version=body.version)
    return serialize.match_row(match)


@router.put(
    "/events/{event_id}/players/{player_id}/deck",
    response={200: s.DeckOut, **WRITE_ERRORS, **errors(429)},
    auth=[TOKEN, PLAYER],
    tags=TAGS,
)
def put_deck(request: HttpRequest, event_id: s.Id, player_id: s.Id, body: s.DeckIn) -> dict[str, Any] | HttpResponse:
    """Submit a deck list (the player themself, or staff for them) until the deadline locks it (DECK-9)."""
    from taikai.decks import services as deck_services
    from taikai.decks.models import DeckRegistration

    event = _event(event_id)
    player = _player(event, player_id)
    actor = player_or_staff_actor(request, event, player)
    if isinstance(actor, PlayerSelf):  # issue 16: a loop of deck lists is refused (staff enter many players' lists)
        # Another player's list is refused before anything is counted, and the count is the caller's: a
        # player's own token on someone else's URL spent that person's limit (issue 25).
        require_player_or_staff(actor, player)
        wait = rates.take((rates.DECK_PER_PLAYER, actor.player.pk))
        if wait:
            return too_many(request, wait)
    deck = deck_services.DeckInput(text=body.text, languages=tuple(body.languages))
    sent = deck_services.submit_deck(player, deck, by=actor)
    registration = sent if isinstance(sent, DeckRegistration) else sent.registration  # a rejected list keeps it
    return {
        "player": str(player.pk),
        "legal": sent.legal,
        "counts": sent.counts,
        "problems": sent.problems,
        "mixed_languages": sent.mixed_languages,
        "locked": registration.locked_at is not None,
        "accepted": sent is registration,
        "registered": {"version": registration.version, "legal": registration.legal, "counts": registration.counts},
    }
