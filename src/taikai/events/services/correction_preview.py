"""A correction's preview: what a corrected result would change, before it is saved (END-3)."""

from __future__ import annotations

from typing import Any

from taikai.core.sheet import sheet
from taikai.events.models import Event, Match, Round
from taikai.events.services import engine
from taikai.events.services.history import event_facts
from taikai.events.services.result_input import ResultInput, outcome_of
from taikai.events.services.standings import standings_for, what_if


def correction_impact(match: Match, result: ResultInput) -> dict[str, Any]:
    """What a correction would change, before it is saved: standings now, and later rounds' pairings."""
    outcome = outcome_of(match, result)
    event: Event = match.round.event
    before = standings_for(event)
    after = what_if(event, {match.pk: outcome.result})
    moved = []
    old_rank = {r.player_id: r for r in before}
    for row in after:
        old = old_rank.get(row.player_id)
        if old is not None and (old.rank != row.rank or old.points != row.points):
            moved.append(
                {
                    "name": row.name,
                    "rank_before": old.rank,
                    "rank_after": row.rank,
                    "points_before": old.points,
                    "points_after": row.points,
                }
            )
    later = list(
        event.rounds.filter(number__gt=match.round.number, stage=match.round.stage).values_list("number", flat=True)
    )
    differing = _later_pairings_that_differ(event, match, outcome.result, later)
    return {"result": outcome.result, "moved": moved, "later_rounds": later, "differing_rounds": differing}


def _later_pairings_that_differ(event: Event, match: Match, new_result: str, later: list[int]) -> list[int]:
    """Re-run the stored pairing input of each later round with the points the corrected sheet gives."""
    if match.round.stage != Round.Stage.SWISS or new_result == match.result:
        return []
    corrected = event_facts(event, overrides={match.pk: new_result})
    differing = []
    for number in later:
        rnd = event.rounds.get(number=number)
        request = dict(rnd.pairing_input)
        if not request.get("players"):
            continue
        points = sheet(corrected.before(number), event.ruleset).points()
        request["players"] = [{**p, "points": points.get(p["id"], p["points"])} for p in request["players"]]
        answer = engine.pair_swiss(request)
        old = {frozenset(x) for x in rnd.pairing_input.get("_pairings", [])} or {
            frozenset((m.player_a_id, m.player_b_id)) for m in rnd.matches.filter(is_bye=False)
        }
        new = {frozenset(p) for p in answer["pairings"]}
        if old != new:
            differing.append(number)
    return differing
