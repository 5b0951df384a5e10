"""A reported result: read once from every shape it arrives in, and what the match rules make of it.

``ResultInput`` holds core's one record type from the edge to storage (the form, the API, a one-tap choice, a
penalty, the time procedure); ``outcome_of`` applies the match rules to it. Storing it is ``results``.

What a player's page sends (the form or a one-tap choice, from the player's side) is read here alone,
``from_page``, for the venue's page and for the reports a follower hands back alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from taikai.core import match_json, penalty_duels
from taikai.core.match import MatchRecordError, evaluate, intentional_draw, intentional_draw_allowed
from taikai.core.match_json import RecordFormatError, Report
from taikai.core.match_record import MatchRecord
from taikai.core.match_record import Player as Side
from taikai.core.quick_results import quick_outcome
from taikai.events.errors import ServiceError
from taikai.events.models import Match, Player

BASES = match_json.BASES  # END-1, END-2


class ResultInput:
    """A reported result, held as core's one record type, ``Report`` (END-1/END-2), from the edge to storage.

    Every shape it arrives in is read by ``taikai.core.match_json`` once, where it is built: ``from_post`` (the
    result form), ``from_json`` (the API, a stored report), ``from_report`` / ``from_record`` (what core
    produced: a one-tap choice, a penalty, the time procedure), or the duels in the `taikai match result` JSON
    shape (``ResultInput(({"winner": "A"}, ...), basis=...)``, for scripts and tests). ``stored()`` is what
    ``Match.record`` and ``ResultReport.record`` keep, written by ``match_json`` too.
    """

    __slots__ = ("report",)
    report: Report

    def __init__(
        self,
        duels: Iterable[Mapping[str, Any]] = (),
        time_called_between_duels: bool = False,
        basis: str = "played",
        *,
        opening: Mapping[str, str] | None = None,
        report: Report | None = None,
    ) -> None:
        if report is None:
            shape: dict[str, Any] = {"duels": list(duels), "time_called_between_duels": time_called_between_duels}
            report = _read(match_json.parse_report, {**shape, "basis": basis, "opening": opening})
        object.__setattr__(self, "report", report)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("ResultInput is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ResultInput) and other.report == self.report

    def __hash__(self) -> int:
        return hash(self.report)

    def __repr__(self) -> str:
        return f"ResultInput({self.report!r})"

    @property
    def basis(self) -> str:
        return self.report.basis

    def stored(self) -> dict[str, Any]:
        """What Match.record and ResultReport.record keep (the record without its format, with its basis)."""
        return match_json.report_json(self.report)

    @classmethod
    def from_report(cls, report: Report) -> ResultInput:
        return cls(report=report)

    @classmethod
    def from_record(cls, record: MatchRecord, basis: str = "played") -> ResultInput:
        return cls.from_report(Report.of(record, basis))

    @classmethod
    def from_post(cls, post: Mapping[str, Any], *, flip: bool = False) -> ResultInput:
        """Read the duel-by-duel form (``request.POST`` or a dict); ``flip``: filled in by player B ("me")."""
        return cls.from_report(_read(match_json.report_from_form, post, flip=flip))

    @classmethod
    def from_json(cls, data: Any) -> ResultInput:
        return cls.from_report(_read(match_json.parse_report, data))

    @classmethod
    def from_page(cls, post: Mapping[str, Any], match: Match, player: Player) -> ResultInput:
        """What ``player``'s page sends for ``match``: a one-tap choice (``quick``) or the duel-by-duel form."""
        code = post.get("quick", "")
        if not code:
            return cls.from_post(post, flip=match.side_of(player) == "b")
        return cls.from_choice(code, match, player)

    @classmethod
    def from_choice(cls, code: str, match: Match, player: Player) -> ResultInput:
        """A one-tap choice (``core.quick_results``) on ``player``'s phone, around the table's penalty duels."""
        fixed = penalty_duels.read(match.penalty_duels)
        outcome = quick_outcome(code, match.round.event.ruleset, match.round.format, fixed)
        if outcome is None:  # a choice the format, or the table's penalty duels (PEN-1), do not allow
            raise ServiceError("quick-not-allowed")
        return cls.from_report(outcome.report(Side.B if match.side_of(player) == "b" else Side.A, fixed))


def _read(reader: Any, data: Any, **options: Any) -> Report:
    try:
        report: Report = reader(data, **options)
    except RecordFormatError as exc:
        raise ServiceError(exc.problem.code, **exc.problem.params) from exc
    return report


@dataclass(frozen=True)
class Outcome:
    result: str  # "a", "b", "draw"
    duel_wins_a: int
    duel_wins_b: int
    duel_draws: int
    rules: tuple[str, ...]
    readings: tuple[str, ...] = ()  # taikai's readings where the text is silent (core.match.READINGS)


def outcome_of(match: Match, data: ResultInput) -> Outcome:
    """Apply the match rules to a reported record; refuse one that is unfinished or impossible."""
    event = match.round.event
    if data.basis == "intentional-draw" and not intentional_draw_allowed(match.round.format, event.ruleset):
        raise ServiceError("id-not-in-elimination")  # END-2
    judge = intentional_draw if data.basis == "intentional-draw" else evaluate  # END-2: the duels must agree
    r = data.report
    try:
        state = judge(MatchRecord(match.round.format, r.duels, r.time_called_between_duels, r.opening), event.ruleset)
    except (MatchRecordError, RecordFormatError) as exc:
        raise ServiceError(exc.problem.code, **exc.problem.params) from exc
    if not state.finished:
        raise ServiceError("match-not-finished", next=str(state.next) if state.next else "duel")
    result = "draw" if state.draw else ("a" if str(state.winner) == "A" else "b")
    return Outcome(result, state.score.a, state.score.b, state.score.draws, tuple(state.rules), state.readings)
