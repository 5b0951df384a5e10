"""A match's result in words, for people: 「山田 太郎 の勝ち 2–1」, 「引き分け 1–1」, never "a 0-1" or a record."""

from __future__ import annotations

from django.utils.translation import gettext as _

from taikai.core.match_json import BASES
from taikai.events.errors import ServiceError
from taikai.events.models import Match, Player
from taikai.events.services.results import ResultInput, outcome_of


def score_text(first: int, second: int, draws: int = 0) -> str:
    return f"{first}–{second}" + (f"–{draws}" if draws else "")


def outcome_text(winner: Player | None, wins_winner: int, wins_other: int, draws: int = 0, basis: str = "") -> str:
    """The winner's name and the duel score from the winner's side; a draw names no one."""
    if basis == "intentional-draw":
        return _("Intentional draw")
    if winner is None:
        return _("Draw %(score)s") % {"score": score_text(wins_winner, wins_other, draws)}
    return _("%(name)s wins %(score)s") % {"name": winner.name, "score": score_text(wins_winner, wins_other, draws)}


def result_text(match: Match) -> str:
    """The stored outcome of a decided table in words; empty while it has none."""
    if match.is_bye:
        return _("%(name)s: bye (win)") % {"name": match.player_a.name}
    a, b, d = match.duel_wins_a, match.duel_wins_b, match.duel_draws
    if match.result == "a":
        return outcome_text(match.player_a, a, b, d, match.basis)
    if match.result == "b":
        return outcome_text(match.player_b, b, a, d, match.basis)
    if match.result == "draw":
        return outcome_text(None, a, b, d, match.basis)
    return ""


def basis_text(basis: str) -> str:
    """How the match ended (END-1, END-2), in words."""
    texts = {
        "played": _("Played out (or time)"),
        "concession-consent": _("Concession with both players' consent"),
        "concession-own-turn": _("Concession at the end of the conceder's own turn"),
        "intentional-draw": _("Intentional draw"),
    }
    assert set(texts) == set(BASES)
    return texts.get(basis, "")


def report_text(match: Match, record: dict[str, object] | None) -> str:
    """What a report (or a stored record) says, in words: the outcome the rules make of it; a record the rules
    refuse is said to be unreadable rather than shown raw."""
    if not record:
        return ""
    try:
        data = ResultInput.from_json(record)
        outcome = outcome_of(match, data)
    except ServiceError:
        return _("A result the rules do not allow")
    a, b, d = outcome.duel_wins_a, outcome.duel_wins_b, outcome.duel_draws
    if outcome.result == "a":
        return outcome_text(match.player_a, a, b, d, data.basis)
    if outcome.result == "b":
        return outcome_text(match.player_b, b, a, d, data.basis)
    return outcome_text(None, a, b, d, data.basis)
