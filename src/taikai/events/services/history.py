"""An event's results so far as plain data: what pairing and standings need, read in a few queries."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taikai.events.models import Event, Match, Round


@dataclass
class EventHistory:
    player_ids: list[int] = field(default_factory=list)
    dropped_after: dict[int, int | None] = field(default_factory=dict)
    late_entry: dict[int, int | None] = field(default_factory=dict)
    opponents: dict[int, set[int]] = field(default_factory=dict)
    opponent_list: dict[int, list[int]] = field(default_factory=dict)
    byes: dict[int, int] = field(default_factory=dict)
    points: dict[int, int] = field(default_factory=dict)
    rounds: list[list[dict[str, Any]]] = field(default_factory=list)  # the `taikai standings` input shape


def event_history(event: Event, before_round: int | None = None, stage: str = Round.Stage.SWISS) -> EventHistory:
    """Confirmed results of the event's rounds of one stage (Swiss by default), in round order."""
    scoring = event.ruleset.scoring
    h = EventHistory()
    for pid, dropped, late in event.players.values_list("id", "dropped_after_round", "late_entry_round"):
        h.player_ids.append(pid)
        h.dropped_after[pid] = dropped
        h.late_entry[pid] = late
        h.opponents[pid] = set()
        h.opponent_list[pid] = []
        h.byes[pid] = 0
        h.points[pid] = 0
    rounds = event.rounds.filter(stage=stage).order_by("number")
    if before_round is not None:
        rounds = rounds.filter(number__lt=before_round)
    matches = (
        Match.objects.filter(round__in=rounds)
        .order_by("round__number", "table", "seat")
        .values_list("round__number", "player_a_id", "player_b_id", "is_bye", "result", "status")
    )
    current: int | None = None
    for number, a, b, is_bye, result, status in matches:
        if number != current:
            h.rounds.append([])
            current = number
        if is_bye:
            h.byes[a] += 1
            h.points[a] += scoring.bye
            h.rounds[-1].append({"a": str(a), "bye": True})
            continue
        h.opponents[a].add(b)
        h.opponents[b].add(a)
        h.opponent_list[a].append(b)
        h.opponent_list[b].append(a)
        if status != Match.Status.CONFIRMED or not result:
            continue
        h.rounds[-1].append({"a": str(a), "b": str(b), "result": result})
        if result == "a":
            h.points[a] += scoring.win
            h.points[b] += scoring.loss
        elif result == "b":
            h.points[b] += scoring.win
            h.points[a] += scoring.loss
        else:
            h.points[a] += scoring.draw
            h.points[b] += scoring.draw
    return h
