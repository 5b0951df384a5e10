"""A match's result in words, for people: 「山田 太郎 の勝ち 2–1」, 「引き分け 1–1」, never "a 0-1" or a record."""

from __future__ import annotations

from django.utils.translation import gettext as _

from taikai.core.match_json import BASES
from taikai.core.open_match import Ruling
from taikai.events.errors import ServiceError
from taikai.events.models import Match, Player
from taikai.events.services.result_input import ResultInput, outcome_of


def score_text(first: int, second: int, draws: int = 0) -> str:
    return f"{first}–{second}" + (f"–{draws}" if draws else "")


def outcome_text(winner: Player | None, wins_winner: int, wins_other: int, draws: int = 0, basis: str = "") -> str:
    """The winner's name and the duel score from the winner's side; a draw names no one."""
    if basis == "intentional-draw":
        return _("Intentional draw")  # 合意の引き分け, never 「引き分け 0–0」
    if winner is None:
        return _("Draw %(score)s") % {"score": score_text(wins_winner, wins_other, draws)}
    words = _("%(name)s wins %(score)s") % {"name": winner.name, "score": score_text(wins_winner, wins_other, draws)}
    return conceded(words, basis)


def conceded(words: str, basis: str) -> str:
    """「… の勝ち 2–0（投了）」: a match one player conceded (END-1) says so."""
    return _("%(result)s (conceded)") % {"result": words} if basis.startswith("concession") else words


def side_text(match: Match, side: str | None) -> str:
    """The table's result from one player's side: 「勝ち 2–1」, 「負け 0–2（投了）」, 「合意の引き分け」."""
    if match.basis == "intentional-draw":
        return _("Intentional draw")
    mine, theirs = (match.duel_wins_a, match.duel_wins_b) if side == "a" else (match.duel_wins_b, match.duel_wins_a)
    score = score_text(mine, theirs, match.duel_draws)
    if match.result == "draw":
        return _("Draw %(score)s") % {"score": score}
    won = _("Win %(score)s") if match.result == side else _("Loss %(score)s")
    return conceded(won % {"score": score}, match.basis)


def result_text(match: Match) -> str:
    """The stored outcome of a decided table in words, with the ruling that ended it where one did
    (「佐藤 花子 の勝ち 2–0（山田 太郎 の失格による）」); empty while it has none."""
    if match.is_bye:
        return _("%(name)s: bye (win)") % {"name": match.player_a.name}
    a, b, d = match.duel_wins_a, match.duel_wins_b, match.duel_draws
    if match.result == "a":
        words = outcome_text(match.player_a, a, b, d, match.basis)
    elif match.result == "b":
        words = outcome_text(match.player_b, b, a, d, match.basis)
    elif match.result == "draw":
        words = outcome_text(None, a, b, d, match.basis)
    else:
        return ""
    why = ruling_text(match)
    return _("%(result)s (%(why)s)") % {"result": words, "why": why} if why else words


def ruling_text(match: Match) -> str:
    """What ended the match instead of the duels (``core.open_match.Ruling``), naming the player who lost it."""
    loser = match.player_b if match.result == "a" else match.player_a if match.result == "b" else None
    if match.ruling not in set(Ruling) or loser is None:
        return ""
    texts = {
        Ruling.MATCH_LOSS: _("%(name)s lost the match by a penalty"),
        Ruling.DQ_FORFEIT: _("%(name)s was disqualified"),
        Ruling.DROP_CONCESSION: _("%(name)s dropped during the match and conceded it"),
        Ruling.INELIGIBLE_FORFEIT: _("%(name)s lost the right to take part"),
    }
    assert set(texts) == set(Ruling)
    return texts[Ruling(match.ruling)] % {"name": loser.name}


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


# --- a decision made on a page drawn before the table changed (END-4, STYLE 17): what it holds now -------------


def stale_confirm_text(match: Match, side: str | None) -> str:
    """What the table holds now, said to the player whose confirmation came from an older page."""
    if match.status == Match.Status.CONFIRMED:
        return _("This result is already final: %(result)s.") % {"result": result_text(match)}
    if match.status == Match.Status.DISPUTED:
        return _("The reports changed and now disagree. A judge is coming to your table.")
    if match.status == Match.Status.REPORTED:
        return _(
            "Your opponent changed their report to: %(result)s. Check it, and if it is right, press Confirm again."
        ) % {"result": result_text(match)}
    return _("The report you saw was withdrawn. Report your result below.")


def stale_report_text(match: Match, player: Player) -> str:
    """What the table holds now, said to the player whose report came from a page drawn before it changed (a
    follower's copy behind the venue): nothing of it was recorded."""
    if match.status in (Match.Status.CONFIRMED, Match.Status.DISPUTED):
        return stale_confirm_text(match, match.side_of(player))
    if match.status == Match.Status.REPORTED:
        last = match.reports.filter(by_player__isnull=False).last()
        if last is not None and last.by_player_id == player.pk:
            return _("Your report is already in: %(result)s. Waiting for your opponent to confirm.") % {
                "result": result_text(match)
            }
        return _(
            "Your opponent reported first: %(result)s. Check it, and if it is right, press Confirm; "
            "if not, report what happened yourself."
        ) % {"result": result_text(match)}
    return _(
        "Your table changed after this page was shown (a judge's ruling or a penalty). Nothing was recorded: "
        "check your table and report again."
    )
