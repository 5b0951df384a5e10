"""Helpers shared by the judging services."""

from __future__ import annotations

from typing import Any

from taikai.audit.services import fields_of
from taikai.events.models import Event, Match, current_match, current_round
from taikai.events.permissions import require_head_judge, require_judge
from taikai.judging.models import Penalty

# current_match and current_round live in taikai.events.models; judging/views/penalties.py, judging/views/queue.py
# and api/judging_ops.py still import them from here (owned by other helpers in this session: move those three
# imports when their work lands, then drop these two names).
__all__ = [
    "current_match",
    "current_round",
    "match_at_table",
    "penalty_rules",
    "penalty_state",
    "require_head_judge",
    "require_judge",
]

MATCH_FIELDS = ("status", "result", "record", "basis", "duel_wins_a", "duel_wins_b", "duel_draws")


def match_at_table(event: Event, table: int) -> Match | None:
    rnd = current_round(event)
    if rnd is None:
        return None
    return Match.objects.filter(round=rnd, table=table).select_related("player_a", "player_b").first()


def fmt_of(match: Match) -> str:
    return match.round.format.value


def penalty_rules(event: Event) -> Any:
    return event.ruleset.penalties


def penalty_state(p: Penalty) -> dict[str, Any]:
    """What the log keeps of a penalty (its issue, its effects landing, its withdrawal)."""
    return fields_of(p, _PENALTY_FIELDS)


_PENALTY_FIELDS: list[str | tuple[str, str]] = [
    ("player", "player_id"),
    "card_game_id",
    "infraction",
    "rung",
    "default_rung",
    "downgrade_steps",
    "prize_loss",
    "effects",
    "overturned",
    "lands_on",  # PEN-1: the judge's choice, or the rule's default
    ("match", "match_id"),
    "waiting_for_next_match",
]
