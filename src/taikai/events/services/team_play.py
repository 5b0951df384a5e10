"""Team events at the tables (CS 1.1, JUDGE-2): teams paired as units, team standings. Who is on a team:
``teams``; a team match settles from its seats when its last seat is decided (``round_end``).

Team points, opponents and byes come from the team sheet (taikai.core.sheet over the team matches)."""

from __future__ import annotations

import secrets
from typing import Any

from taikai.audit.services import record
from taikai.core import standings as core_standings
from taikai.core.pairing import team as team_pairing
from taikai.core.pairing.types import PairingError, PlayerId
from taikai.core.sheet import pairing_input
from taikai.events import actions
from taikai.events.actors import Actor
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Round, TeamMatch, bye, create_round
from taikai.events.permissions import require_organizer
from taikai.events.services.history import team_sheet
from taikai.events.services.standings import figures
from taikai.events.signals import for_round, round_paired


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
            bye(rnd, table, pid, seat=seat_name, team_match=tm).save(force_insert=True)
    record(actions.ROUND_PAIRED, actor=by, obj=rnd, announce=[for_round(round_paired, rnd, by)], seed=seed, teams=True)
    return rnd


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
            "figures": figures(s.values),
            "code": s.code,
        }
        for s in rows
    ]
