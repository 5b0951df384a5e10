"""Team events (CS 1.1, JUDGE-2): three named seats a team, registered together or formed from players
already registered, before round 1. At the tables (pairing teams, settling team matches, team standings):
``team_play``."""

from __future__ import annotations

from django.db import transaction

from taikai.audit.services import record, save_and_log
from taikai.events import actions
from taikai.events.actors import Actor
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Event, Player, Team
from taikai.events.permissions import require_staff
from taikai.events.services import registration


def register_team(event: Event, *, by: Actor, name: str, members: list[dict[str, str]]) -> Team:
    """A team and its players, seat by seat in the ruleset's seat order (A, B, C)."""
    require_staff(by, event)
    if not event.is_team_event:
        raise ServiceError("not-team-event")
    seats = event.ruleset.team.seats
    if not name.strip():
        raise ServiceError("required", field="name")
    if len(members) != len(seats):
        raise ServiceError("team-needs-three", seats=len(seats))
    with transaction.atomic():
        if Team.objects.filter(event=event, name=name.strip()).exists():
            raise ServiceError("team-name-taken", name=name.strip())
        team = Team.objects.create(event=event, name=name.strip())
        for seat, member in zip(seats, members, strict=True):
            player = registration.register_row(event, by, member)
            Player.objects.filter(pk=player.pk).update(team=team, seat=seat)
        record(
            actions.TEAM_REGISTERED,
            actor=by,
            obj=team,
            after={"name": team.name, "members": [m.get("card_game_id") for m in members]},
        )
    return team


def form_team(event: Event, *, by: Actor, name: str, players: list[Player]) -> Team:
    """A team of players already registered, seat by seat in the ruleset's seat order (A, B, C), before
    round 1 (CS 1.1: the team is its members; a member's DQ or worse is the team's, PEN-4)."""
    require_staff(by, event)
    seats = event.ruleset.team.seats
    if not name.strip():
        raise ServiceError("required", field="name")
    if len(players) != len(seats):
        raise ServiceError("team-needs-three", seats=len(seats))
    if len({p.pk for p in players}) != len(players):
        raise ServiceError("team-member-twice")
    with transaction.atomic():
        _require_teams_open(event)
        locked = list(Player.objects.select_for_update().filter(pk__in=[p.pk for p in players], event=event))
        by_id = {p.pk: p for p in locked}
        for p in players:
            if p.pk not in by_id:
                raise ServiceError("not-in-event")
            current = by_id[p.pk].team
            if current is not None:
                raise ServiceError("player-has-team", name=by_id[p.pk].name, team=current.name)
        if Team.objects.filter(event=event, name=name.strip()).exists():
            raise ServiceError("team-name-taken", name=name.strip())
        team = Team.objects.create(event=event, name=name.strip())
        for seat, p in zip(seats, players, strict=True):
            member = by_id[p.pk]
            member.team, member.seat, member.version = team, seat, member.version + 1
            member.save(update_fields=["team", "seat", "version"])
        record(
            actions.TEAM_REGISTERED,
            actor=by,
            obj=team,
            after={"name": team.name, "members": [by_id[p.pk].card_game_id for p in players]},
        )
    return team


def seat_player(player: Player, *, by: Actor, team: Team | None, seat: str = "", version: int | None = None) -> Player:
    """Put a registered player in a team's free seat, or (``team`` None) take them off their team, before
    round 1; on the player's ``version`` the organizer saw. A team is paired only with every seat filled."""
    event = player.event
    require_staff(by, event)
    if team is not None and team.event_id != event.pk:
        raise ServiceError("not-in-event")
    if team is not None and seat not in event.ruleset.team.seats:
        raise ServiceError("bad-choice", field="seat", value=seat)
    with transaction.atomic():
        _require_teams_open(event)
        locked = Player.objects.select_for_update().get(pk=player.pk)
        if version is not None and version != locked.version:
            raise Conflict("player-changed", name=locked.name, version=locked.version)
        if team is not None and team.members.filter(seat=seat).exclude(pk=locked.pk).exists():
            raise ServiceError("seat-taken", team=team.name, seat=seat)
        before = {"team": locked.team_id, "seat": locked.seat}
        locked.team, locked.seat = team, seat if team is not None else ""
        save_and_log(
            locked,
            actions.TEAM_MEMBER_SEATED,
            actor=by,
            fields=["team", "seat"],
            before=before,
            after={"team": locked.team_id, "seat": locked.seat},
        )
    return locked


def _require_teams_open(event: Event) -> None:
    """Teams are formed before round 1: afterwards a team's record is its members' (CS 1.1)."""
    if not event.is_team_event:
        raise ServiceError("not-team-event")
    if event.rounds.exists():
        raise ServiceError("teams-fixed")
