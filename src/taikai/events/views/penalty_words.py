"""A table's result changed by a penalty, a disqualification or a player leaving, said to each player from
their own side (「対戦相手の失格により、このマッチはあなたの勝ちです。」), on their page for as long as it shows the
table: the notices say it once and can be closed, these stay with the result."""

from __future__ import annotations

from django.utils.translation import gettext as _

from taikai.core import penalty_duels
from taikai.core.open_match import Ruling
from taikai.events.models import Match


def _mine(loser: str, side: str | None) -> bool:
    return loser.lower() == (side or "").lower()


def penalty_duel_lines(match: Match, side: str | None) -> list[str]:
    """One line per duel a penalty decided (PEN-1: a duel loss), from ``side``'s point of view."""
    lines = []
    for fixed in penalty_duels.read(match.penalty_duels):
        if _mine(fixed.loser.value, side):
            text = _("Duel %(n)d: you lost it by a penalty (a duel loss).")
        else:
            text = _("Duel %(n)d: your opponent lost it by a penalty (a duel loss), so it counts as your win.")
        lines.append(text % {"n": fixed.duel})
    return lines


def ruling_line(match: Match, side: str | None) -> str:
    """What decided the match instead of the duels (``core.open_match.Ruling``), from ``side``'s point of view."""
    if match.ruling not in set(Ruling) or match.result not in ("a", "b"):
        return ""
    lost = match.result != side
    texts = {
        Ruling.MATCH_LOSS: (
            _("Your opponent lost this match by a penalty (a match loss): the match is your win."),
            _("You lost this match by a penalty (a match loss)."),
        ),
        Ruling.DQ_FORFEIT: (
            _("Your opponent was disqualified: the match is your win."),
            _("You were disqualified, so this match is your loss."),
        ),
        Ruling.DROP_CONCESSION: (
            _("Your opponent dropped during the match: the match is your win."),
            _("You dropped during the match, so it is your loss."),
        ),
        Ruling.INELIGIBLE_FORFEIT: (
            _("Your opponent lost the right to take part: the match is your win."),
            _("You lost the right to take part, so this match is your loss."),
        ),
    }
    assert set(texts) == set(Ruling)
    return texts[Ruling(match.ruling)][1 if lost else 0]


def decided_lines(match: Match | None, side: str | None) -> list[str]:
    """Everything a penalty or a ruling decided at the player's table, in words (empty for a bye)."""
    if match is None or match.is_bye:
        return []
    ruling = ruling_line(match, side)
    return penalty_duel_lines(match, side) + ([ruling] if ruling else [])
