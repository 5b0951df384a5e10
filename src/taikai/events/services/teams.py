"""Team events (CS 1.1, JUDGE-2): three named seats a team, teams paired as units, team standings.

Team points, opponents and byes come from the team sheet (taikai.core.sheet over the team matches)."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction

from taikai.audit.services import record
from taikai.core import standings as core_standings
from taikai.core.pairing import team as team_pairing
from taikai.core.pairing.types import PairingError, PlayerId
from taikai.core.sheet import pairing_input
from taikai.events import actions
from taikai.events.actors import Actor
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Event, Match, Player, Round, Team, TeamMatch, create_round
from taikai.events.permissions import require_organizer, require_staff
from taikai.events.services import players as player_services
from taikai.events.services.history import team_sheet


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
            player = player_services.register_player(
                event,
                by=by,
                name=member.get("name", ""),
                card_game_id=member.get("card_game_id", ""),
                name_kana=member.get("name_kana", ""),
                contact=member.get("contact", ""),
            )
            Player.objects.filter(pk=player.pk).update(team=team, seat=seat)
        record(
            actions.TEAM_REGISTERED,
            actor=by,
            event_id=event.pk,
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
            event_id=event.pk,
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
        locked.version += 1
        locked.save(update_fields=["team", "seat", "version"])
        record(
            actions.TEAM_MEMBER_SEATED,
            actor=by,
            event_id=event.pk,
            obj=locked,
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


def pair_team_round(event: Event, by: Actor, number: int, seed: int | None = None) -> Round:
    require_organizer(by, event)
    records = team_sheet(event)
    teams = list(event.teams.order_by("id").prefetch_related("members"))
    seats = event.ruleset.team.seats
    for team in teams:
        if sorted(p.seat for p in team.members.all()) != sorted(seats):
            raise ServiceError("team-incomplete", team=team.name, seats=len(seats))
    members: dict[PlayerId, list[PlayerId]] = {
        t.pk: [p.pk for p in sorted(t.members.all(), key=lambda p: p.seat)] for t in teams
    }
    seed = secrets.randbits(62) if seed is None else seed
    inp = pairing_input(records, number, seed)
    try:
        result = team_pairing.pair(inp, members, event.ruleset)
    except PairingError as exc:
        raise ServiceError("pairing-failed", detail=exc.problem.code) from exc
    rnd = create_round(
        event=event,
        number=number,
        stage=Round.Stage.SWISS,
        seed=seed,
        pairing_input={
            "teams": [
                {"id": p.id, "points": p.points, "opponents": list(p.opponents), "byes": p.byes, "dropped": p.dropped}
                for p in inp.players
            ],
            "members": members,
            "seed": seed,
            "round": number,
        },
        time_limit_seconds=event.ruleset.time.match_minutes * 60,
    )
    table = 0
    for t in result.tables:
        table += 1
        tm = TeamMatch.objects.create(round=rnd, table=table, team_a_id=t.team_a, team_b_id=t.team_b)
        for seat in t.seats:
            Match.objects.create(
                round=rnd, table=table, seat=seat.seat, team_match=tm, player_a_id=seat.a, player_b_id=seat.b
            )
    for team_id in result.teams.byes:
        table += 1
        tm = TeamMatch.objects.create(round=rnd, table=table, team_a_id=team_id, result="bye")
        for pid, seat_name in zip(members[team_id], event.ruleset.team.seats, strict=True):
            Match.objects.create(
                round=rnd,
                table=table,
                seat=seat_name,
                team_match=tm,
                player_a_id=pid,
                is_bye=True,
                status=Match.Status.CONFIRMED,
                result="a",
                basis="bye",
            )
    record(actions.ROUND_PAIRED, actor=by, event_id=event.pk, obj=rnd, seed=seed, teams=True)
    return rnd


def settle_team_match(match: Match) -> None:
    """After a seat result is confirmed: the team match is decided once every seat is (ruleset rule).

    Runs inside the seat's result service. A decided or corrected team result is logged as its own entry (the team
    standings read it); TeamMatch has no version of its own: the seat whose result moved it bumped its version.
    """
    if match.team_match_id is None:
        return
    tm = TeamMatch.objects.select_for_update().get(pk=match.team_match_id)
    seats = list(tm.seats.all())
    if tm.team_b_id is None or any(s.status != Match.Status.CONFIRMED for s in seats):
        return
    before = tm.result
    tm.result = team_pairing.team_result([s.result for s in seats], match.round.event.ruleset)
    if tm.result == before:
        return
    tm.save(update_fields=["result"])
    record(
        actions.TEAM_MATCH_SETTLED,
        actor_label="taikai",
        event_id=match.round.event_id,
        obj=tm,
        before={"result": before},
        after={"result": tm.result, "seats": {s.seat: s.result for s in seats}},
        table=tm.table,
    )


def team_standings(event: Event) -> list[dict[str, Any]]:
    teams = {t.pk: t for t in event.teams.all()}
    if not teams:
        return []
    rows = core_standings.rank(team_sheet(event), event.ruleset, seed=event.tiebreak_seed)
    return [
        {
            "rank": s.rank,
            "team": teams[int(s.id)],
            "points": s.points,
            "wins": s.wins,
            "losses": s.losses,
            "draws": s.draws,
            "omw": f"{float(s.omw) * 100:.2f}%",
            "oomw": f"{float(s.oomw) * 100:.2f}%",
            "code": s.code,
        }
        for s in rows
    ]
