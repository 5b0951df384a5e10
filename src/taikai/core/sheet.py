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
from dataclasses import dataclass, field, fields
from enum import StrEnum
from functools import cached_property
from operator import add
from typing import Any

from taikai.core.columns import instances
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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, eq=False, repr=False)
class Sheet:
    """Every entrant's record, kept as ``columns``: each of ``Line``'s fields, one tuple in entrant order.

    ``lines`` are made from the columns the first time they are read (``columns.instances``), then kept: the
    standings read the columns themselves and need no ``Line``, which at 4,096 entrants cost a third of the sheet.
    Two sheets are equal when their lines and bracket are."""

    columns: Mapping[str, tuple[Any, ...]]  # Line's field name -> its value for each entrant, in entrant order
    advancing: tuple[PlayerId, ...] = ()  # still in the bracket after its last round, in table order
    _index: Mapping[PlayerId, int] = field(default_factory=dict)

    @cached_property
    def lines(self) -> tuple[Line, ...]:
        """The records, in entrant order."""
        return tuple(instances(Line, *(self.columns[name] for name in _LINE_FIELDS)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sheet):
            return NotImplemented
        return (self.lines, self.advancing) == (other.lines, other.advancing)

    def __hash__(self) -> int:
        return hash((self.lines, self.advancing))

    def __repr__(self) -> str:
        return f"Sheet(lines={self.lines!r}, advancing={self.advancing!r})"

    def line(self, entrant: PlayerId) -> Line:
        return self.lines[self._index[entrant]]

    def points(self) -> dict[PlayerId, int]:
        return dict(zip(self.columns["id"], self.columns["points"], strict=True))


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
    """Every entrant's counts, one list a count (indexed by entrant): a round's tables add to them in one
    pass, and points are made from the counts at the end (``_points``), the only sums over results."""

    size: int
    wins: list[int] = field(init=False)  # real wins (byes apart)
    losses: list[int] = field(init=False)  # real losses (missed rounds apart)
    draws: list[int] = field(init=False)
    byes: list[int] = field(init=False)
    missed: list[int] = field(init=False)
    opponents: list[list[PlayerId]] = field(init=False)
    undecided: dict[int, set[int]] = field(default_factory=dict)  # entrant -> positions in opponents not decided
    bracket_rounds: list[int] = field(init=False)
    eliminated: list[bool] = field(init=False)

    def __post_init__(self) -> None:
        n = self.size
        self.wins, self.losses, self.draws, self.byes, self.missed = [0] * n, [0] * n, [0] * n, [0] * n, [0] * n
        self.opponents = [[] for _ in range(n)]
        self.bracket_rounds, self.eliminated = [0] * n, [False] * n


def sheet(facts: EventFacts, ruleset: Ruleset) -> Sheet:
    """Every entrant's record from the facts (Swiss rounds give points; elimination rounds, the stage)."""
    index: dict[PlayerId, int] = {}
    for k, e in enumerate(facts.entrants):
        if e.id in index:
            raise SheetError(Problem("duplicate-player", player=e.id))
        index[e.id] = k
    tally = _Tally(len(facts.entrants))
    late = [e for e in facts.entrants if e.first_round is not None]
    last_bracket: RoundFacts | None = None
    for played in facts.rounds:
        if played.stage == Stage.SWISS:
            _swiss_round(played, index, tally)
            if late:
                _missed(played, late, index, tally)
        else:
            _check(played, index)
            _elimination_round(played, index, tally)
            last_bracket = played
    left = advancing(last_bracket) if last_bracket is not None else ()
    champion = left[0] if last_bracket is not None and last_bracket.complete and len(left) == 1 else None
    return Sheet(_lines(facts.entrants, tally, champion, ruleset), left, index)


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


class _Unfit(Exception):
    """A table ``_check`` refuses (a player against themself, a bad result), met on the fast path."""


def _swiss_round(played: RoundFacts, index: Mapping[PlayerId, int], tally: _Tally) -> None:
    """One pass over a Swiss round's tables; a table that does not fit (an unknown player, a player against
    themself, a bad result) sends the round to ``_check``, which names the first such table. (A plain loop: read
    field by field for every table at once, with ``map`` and ``compress``, it cost three times as much.)"""
    wins, losses, draws, byes, opponents = tally.wins, tally.losses, tally.draws, tally.byes, tally.opponents
    try:
        for t in played.tables:
            a, b = t.a, t.b
            ia = index[a]
            if b is None:
                byes[ia] += 1  # a bye counts as a match win (_lines)
                continue
            ib = index[b]
            if ia == ib:
                raise _Unfit
            opponents[ia].append(b)
            opponents[ib].append(a)
            result = t.result
            if result == "a":
                wins[ia] += 1
                losses[ib] += 1
            elif result == "b":
                wins[ib] += 1
                losses[ia] += 1
            elif result == "draw":
                draws[ia] += 1
                draws[ib] += 1
            elif result == "":  # met, for pairing; no points until confirmed
                tally.undecided.setdefault(ia, set()).add(len(opponents[ia]) - 1)
                tally.undecided.setdefault(ib, set()).add(len(opponents[ib]) - 1)
            else:
                raise _Unfit
    except (KeyError, _Unfit):
        _check(played, index)  # names the first table that does not fit
        raise


def _missed(played: RoundFacts, late: Sequence[Entrant], index: Mapping[PlayerId, int], tally: _Tally) -> None:
    """A late entry holds a record for each Swiss round before its first that it did not play."""
    seated = {t.a for t in played.tables} | {t.b for t in played.tables}
    for e in late:
        if e.first_round is not None and played.number < e.first_round and e.id not in seated:
            tally.missed[index[e.id]] += 1


def _elimination_round(played: RoundFacts, index: Mapping[PlayerId, int], tally: _Tally) -> None:
    for t in played.tables:
        for who in (t.a, t.b):
            if who is not None:
                tally.bracket_rounds[index[who]] += 1
        if t.b is not None and t.result in ("a", "b"):
            tally.eliminated[index[t.b if t.result == "a" else t.a]] = True


def _lines(
    entrants: Sequence[Entrant], t: _Tally, champion: PlayerId | None, ruleset: Ruleset
) -> dict[str, tuple[Any, ...]]:
    """Every entrant's line as columns (``Sheet.columns``), each field computed for all entrants at once."""
    s = ruleset.scoring
    win, loss, draw, bye, missed = (points_for(o, s) for o in ("win", "loss", "draw", "bye", "missed"))
    # a missed round is a loss, worth points_for("missed"), when the ruleset says so
    lost = t.missed if s.late_entry_missed_round == "loss" else [0] * len(entrants)
    points = [
        w * win + b * bye + lo * loss + d * draw + m * missed
        for w, b, lo, d, m in zip(t.wins, t.byes, t.losses, t.draws, lost, strict=True)
    ]
    opponents = list(map(tuple, t.opponents))
    decided = opponents[:]
    for k, skip in t.undecided.items():
        decided[k] = tuple(o for at, o in enumerate(opponents[k]) if at not in skip)
    ids = [e.id for e in entrants]
    reached = [Reached.ELIMINATION if rounds else Reached.SWISS for rounds in t.bracket_rounds]
    if champion is not None:
        reached[ids.index(champion)] = Reached.CHAMPION
    columns: tuple[Sequence[Any], ...] = (
        ids,
        points,
        list(map(add, t.wins, t.byes)),
        list(map(add, t.losses, lost)),
        t.draws,
        t.byes,
        t.missed,
        opponents,
        decided,
        [e.dropped_after is not None for e in entrants],
        [e.ineligible for e in entrants],
        t.bracket_rounds,
        t.eliminated,
        reached,
    )
    return {name: tuple(column) for name, column in zip(_LINE_FIELDS, columns, strict=True)}


_LINE_FIELDS = tuple(f.name for f in fields(Line))
