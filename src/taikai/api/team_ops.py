"""Team events over the API (CS 1.1, PEN-4): register a team with new players or form one from registered
players, seat a player, read the teams and the team standings — through the events' team services
(taikai.events.services.teams), as the teams page does. A team DQ is a penalty (POST .../penalties)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Query, Status

from taikai.api import public, serialize
from taikai.api import schemas as s
from taikai.api import schemas_teams as st
from taikai.api.base import READ_ERRORS, staff_actor
from taikai.api.public import Paging, _page
from taikai.api.routes import SignedInRoutes
from taikai.core.ids import parse_id
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player, Team
from taikai.events.services import team_play
from taikai.events.services import teams as team_services

router = public.router
TAGS = ["teams"]
routes = SignedInRoutes(router, TAGS)


def _event(event_id: s.Id) -> Event:
    return get_object_or_404(Event, pk=event_id)


def _team_row(team: Team) -> dict[str, Any]:
    members = sorted(team.members.all(), key=lambda p: p.seat)
    return {
        "id": str(team.pk),
        "name": team.name,
        "dropped_after_round": team.dropped_after_round,
        "members": [{"id": str(p.pk), "name": p.name, "seat": p.seat, "version": p.version} for p in members],
    }


def _ids(raw: list[str], field: str) -> list[int]:
    ids = [parse_id(r) for r in raw]
    for r, i in zip(raw, ids, strict=True):
        if i is None:
            raise ServiceError("bad-choice", field=field, value=r)
    return [i for i in ids if i is not None]


@router.get(
    "/events/{event_id}/teams", response={200: st.TeamPage, **READ_ERRORS}, tags=TAGS, summary="Teams and seats"
)
def list_teams(request: HttpRequest, event_id: s.Id, paging: Query[Paging]) -> dict[str, Any]:
    """The event's teams, their members seat by seat, and whether the team was dropped (a team DQ, PEN-4)."""
    teams = _event(event_id).teams.order_by("id").prefetch_related("members")
    window = teams[paging.offset : paging.offset + paging.limit]
    return _page([_team_row(t) for t in window], paging, teams.count())


@routes.post("/events/{event_id}/teams", st.TeamOut, status=201)
def create_team(request: HttpRequest, event_id: s.Id, body: st.TeamIn) -> Status[dict[str, Any]]:
    """Register a team (staff), before round 1: `members`, new players registered with it, or `players`,
    the IDs of registered players on no team; either way one a seat in the ruleset's seat order."""
    event = _event(event_id)
    by = staff_actor(request, event)
    if (body.members is None) == (body.players is None):
        raise ServiceError("team-members-or-players")
    if body.members is not None:
        members = [m.dict() for m in body.members]
        team = team_services.register_team(event, by=by, name=body.name, members=members)
    else:
        ids = _ids(body.players or [], "players")
        found = {p.pk: p for p in Player.objects.filter(event=event, pk__in=ids)}
        if len(found) != len(set(ids)):
            raise ServiceError("not-in-event")
        team = team_services.form_team(event, by=by, name=body.name, players=[found[i] for i in ids])
    return Status(201, _team_row(Team.objects.prefetch_related("members").get(pk=team.pk)))


@routes.put("/events/{event_id}/players/{player_id}/team", s.PlayerOut)
def seat_player(request: HttpRequest, event_id: s.Id, player_id: s.Id, body: st.SeatIn) -> dict[str, Any]:
    """Put a player in a team's free seat, or take them off their team (`team` null), before round 1 (staff);
    on the player's `version`. A team is paired only with every seat filled (`team-incomplete`)."""
    event = _event(event_id)
    player = get_object_or_404(Player.objects.select_related("event"), pk=player_id, event=event)
    team = None
    if body.team is not None:
        team = get_object_or_404(Team, pk=_ids([body.team], "team")[0], event=event)
    by = staff_actor(request, event)
    player = team_services.seat_player(player, by=by, team=team, seat=body.seat, version=body.version)
    return serialize.player_row(player, serialize.archetype_of(player))


@router.get(
    "/events/{event_id}/team-standings",
    response={200: st.TeamStandingsOut, **READ_ERRORS},
    tags=TAGS,
    summary="Team standings",
)
def team_standings(request: HttpRequest, event_id: s.Id) -> dict[str, Any]:
    """Team standings from the team matches (team points, OMW%, OOMW%), as on the teams page."""
    rows = team_play.team_standings(_event(event_id))
    return {
        "items": [
            {
                **r,
                "team": str(r["team"].pk),
                "name": r["team"].name,
                **{f.name: f.text for f in r["figures"]},  # omw, oomw as shown, as before the list
                "tiebreakers": [serialize.figure(f) for f in r["figures"]],
            }
            for r in rows
        ]
    }
