"""The event sheet (成績表): every entrant's record, computed once from the event's recorded facts.

This is the only place a result becomes points (like lila's ``SwissSheet.pointsFor``). Pairing,
standings, team standings and a correction's preview all read the sheet, so they cannot disagree.

Facts in: the entrants (a late entry's first round, the round after which one dropped — a
disqualification is a drop, PEN-1), and every round's tables by stage. A table's ``result`` is
"a", "b" or "draw" once confirmed, "" while it is not (a penalty that changes a result is just
that result). A table without ``b`` is a bye.

Records out, per entrant: Swiss points, wins/losses/draws, byes, missed rounds, the opponents met
(in round order; an unconfirmed table counts as met, for pairing, but gives no points), the
opponents of decided tables (for tiebreakers), and how far the entrant went in the bracket.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from taikai.core.pairing.types import PairingInput, PlayerId, PlayerState
from taikai.core.problems import Problem, ProblemError
from taikai.core.ruleset import Ruleset, Scoring


class SheetError(ProblemError):
    """Facts that make no sheet: unknown or duplicate players, bad results."""


class Stage(StrEnum):
    SWISS = "swiss"
    ELIMINATION = "elimination"


class Reached(StrEnum):
    """How far an entrant went: the Swiss rounds only, the bracket, or the title."""

    SWISS = "swiss"
    ELIMINATION = "elimination"
    CHAMPION = "champion"


RESULTS = ("a", "b", "draw")


@dataclass(frozen=True)
class Table:
    """One table: ``b`` None is a bye; ``result`` is "a", "b", "draw", or "" while unconfirmed."""

    a: PlayerId
    b: PlayerId | None = None
    result: str = ""

    @property
    def is_bye(self) -> bool:
        return self.b is None

    @property
    def decided(self) -> bool:
        return self.is_bye or self.result in RESULTS


@dataclass(frozen=True)
class RoundFacts:
    number: int
    stage: Stage
    tables: tuple[Table, ...]

    @property
    def complete(self) -> bool:
        """Every table decided; an elimination table only by a winner (MATCH-2: no match draws there)."""
        if self.stage == Stage.ELIMINATION:
            return all(t.is_bye or t.result in ("a", "b") for t in self.tables)
        return all(t.decided for t in self.tables)


@dataclass(frozen=True)
class Entrant:
    id: PlayerId
    first_round: int | None = None  # a late entry: the first round it could play
    dropped_after: int | None = None  # dropped (or disqualified, PEN-1) after this round
    ineligible: bool = False  # REG-2: without the right to take part (参加資格): never paired


@dataclass(frozen=True)
class EventFacts:
    entrants: tuple[Entrant, ...]
    rounds: tuple[RoundFacts, ...] = ()  # in round order

    def before(self, number: int) -> EventFacts:
        """The facts as they stood when round ``number`` was paired (its earlier rounds only)."""
        return EventFacts(self.entrants, tuple(r for r in self.rounds if r.number < number))


@dataclass(frozen=True)
class Line:
    """One entrant's record. ``wins`` include byes; ``losses`` include missed rounds scored as losses."""

    id: PlayerId
    points: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    missed: int = 0
    opponents: tuple[PlayerId, ...] = ()  # every Swiss opponent met, in round order (pairing avoids them)
    decided_opponents: tuple[PlayerId, ...] = ()  # opponents of decided Swiss tables (tiebreakers count them)
    dropped: bool = False
    ineligible: bool = False  # REG-2
    bracket_rounds: int = 0  # elimination rounds played in (0 = Swiss only)
    eliminated: bool = False
    reached: Reached = Reached.SWISS

    @property
    def matches(self) -> int:
        """Matches that count towards the win rate (byes and missed losses included)."""
        return self.wins + self.losses + self.draws


@dataclass(frozen=True)
class Sheet:
    lines: tuple[Line, ...]  # in entrant order
    advancing: tuple[PlayerId, ...] = ()  # still in the bracket after its last round, in table order
    _index: Mapping[PlayerId, int] = field(default_factory=dict, repr=False, compare=False)

    def line(self, entrant: PlayerId) -> Line:
        return self.lines[self._index[entrant]]

    def points(self) -> dict[PlayerId, int]:
        return {line.id: line.points for line in self.lines}


def pairing_input(table: Sheet, number: int, seed: int | str) -> PairingInput:
    """What the pairing engine sees for round ``number``: each entrant's points, opponents met and byes."""
    players = tuple(
        PlayerState(ln.id, ln.points, ln.opponents, ln.byes, ln.dropped or ln.ineligible) for ln in table.lines
    )
    return PairingInput(players=players, round=number, seed=seed)


def points_for(outcome: str, scoring: Scoring) -> int:
    """Match points for one side's outcome: "win", "loss", "draw", "bye" or "missed"."""
    if outcome == "missed":
        # A late entry's missed round (ruleset scoring.late_entry_missed_round).
        return scoring.loss if scoring.late_entry_missed_round == "loss" else 0
    return {"win": scoring.win, "loss": scoring.loss, "draw": scoring.draw, "bye": scoring.bye}[outcome]


def advancing(played: RoundFacts) -> tuple[PlayerId, ...]:
    """Who goes on from an elimination round, in table order: each table's winner, and a bye's player.

    A table without a decided winner holds its place by nobody (the round is not complete)."""
    out: list[PlayerId] = []
    for t in played.tables:
        if t.b is None or t.result == "a":
            out.append(t.a)
        elif t.result == "b":
            out.append(t.b)
    return tuple(out)


@dataclass(slots=True)
class _Tally:
    points: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    missed: int = 0
    opponents: list[PlayerId] = field(default_factory=list)
    decided: list[PlayerId] = field(default_factory=list)
    bracket_rounds: int = 0
    eliminated: bool = False


def sheet(facts: EventFacts, ruleset: Ruleset) -> Sheet:
    """Every entrant's record from the facts (Swiss rounds give points; elimination rounds, the stage)."""
    index: dict[PlayerId, int] = {}
    for k, e in enumerate(facts.entrants):
        if e.id in index:
            raise SheetError(Problem("duplicate-player", player=e.id))
        index[e.id] = k
    tally = [_Tally() for _ in facts.entrants]
    late = [e for e in facts.entrants if e.first_round is not None]
    last_bracket: RoundFacts | None = None
    for played in facts.rounds:
        seated = _check(played, index)
        if played.stage == Stage.SWISS:
            _swiss_round(played, seated, late, index, tally, ruleset)
        else:
            _elimination_round(played, index, tally)
            last_bracket = played
    left = advancing(last_bracket) if last_bracket is not None else ()
    champion = left[0] if last_bracket is not None and last_bracket.complete and len(left) == 1 else None
    lines = tuple(_line(e, t, champion) for e, t in zip(facts.entrants, tally, strict=True))
    return Sheet(lines, left, index)


def _check(played: RoundFacts, index: Mapping[PlayerId, int]) -> set[PlayerId]:
    seated: set[PlayerId] = set()
    for t in played.tables:
        a, b = t.a, t.b
        if a not in index:
            raise SheetError(Problem("unknown-player", player=a))
        if b is not None:
            if b not in index:
                raise SheetError(Problem("unknown-player", player=b))
            if a == b or t.result not in _RESULT_OR_OPEN:
                raise SheetError(Problem("bad-result", a=a, b=b, result=t.result))
            seated.add(b)
        seated.add(a)
    return seated


_RESULT_OR_OPEN = frozenset((*RESULTS, ""))


def _swiss_round(
    played: RoundFacts,
    seated: set[PlayerId],
    late: Sequence[Entrant],
    index: Mapping[PlayerId, int],
    tally: list[_Tally],
    ruleset: Ruleset,
) -> None:
    s = ruleset.scoring
    win, loss, draw, bye = (points_for(outcome, s) for outcome in ("win", "loss", "draw", "bye"))
    for t in played.tables:
        a = tally[index[t.a]]
        if t.b is None:
            a.points += bye
            a.wins += 1  # a bye counts as a match win
            a.byes += 1
            continue
        b = tally[index[t.b]]
        a.opponents.append(t.b)
        b.opponents.append(t.a)
        result = t.result
        if result == "draw":
            a.points += draw
            b.points += draw
            a.draws += 1
            b.draws += 1
        elif result == "a" or result == "b":
            winner, loser = (a, b) if result == "a" else (b, a)
            winner.points += win
            winner.wins += 1
            loser.points += loss
            loser.losses += 1
        else:
            continue  # met, for pairing; no points until confirmed
        a.decided.append(t.b)
        b.decided.append(t.a)
    for e in late:
        # A late entry holds a record for each Swiss round before its first that it did not play.
        if e.first_round is not None and played.number < e.first_round and e.id not in seated:
            record = tally[index[e.id]]
            record.missed += 1
            if s.late_entry_missed_round == "loss":
                record.losses += 1
                record.points += points_for("missed", s)


def _elimination_round(played: RoundFacts, index: Mapping[PlayerId, int], tally: list[_Tally]) -> None:
    for t in played.tables:
        for who in (t.a, t.b):
            if who is not None:
                tally[index[who]].bracket_rounds += 1
        if t.b is not None and t.result in ("a", "b"):
            tally[index[t.b if t.result == "a" else t.a]].eliminated = True


def _line(e: Entrant, t: _Tally, champion: PlayerId | None) -> Line:
    reached = Reached.CHAMPION if e.id == champion else Reached.ELIMINATION if t.bracket_rounds else Reached.SWISS
    return Line(
        id=e.id,
        points=t.points,
        wins=t.wins,
        losses=t.losses,
        draws=t.draws,
        byes=t.byes,
        missed=t.missed,
        opponents=tuple(t.opponents),
        decided_opponents=tuple(t.decided),
        dropped=e.dropped_after is not None,
        ineligible=e.ineligible,
        bracket_rounds=t.bracket_rounds,
        eliminated=t.eliminated,
        reached=reached,
    )
