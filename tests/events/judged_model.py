"""An independent model of what the rules say a table holds after the judges' decisions (issue 22), for the
property in ``test_decision_histories_judged.py``.

Tables are the current round's, plus every earlier round's (an overturn reaches back). A record is the tuple of
duel winners ("A"/"B"), or LOST for the record a match loss or a DQ's forfeit writes (its duels are core's).
Rules: END-3 (corrections), END-4 (reports, confirmations, slips), PEN-1 (a duel loss appends a lost duel to the
match being played, else waits for the player's next match; a match loss decides the match being played, or a
finished one by the judge's choice; a DQ forfeits the match being played and drops the player), PEN-6 (an
overturn: a table confirmed before the penalty gets that result back; one being played, reported or disputed
when it landed goes back to that while its round is the last; otherwise the result stays), and the pairings'
rules (a re-pair or an edit only while no table has a result, never on a stale version).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

LOST = ("lost",)
RECORDS = {
    "a20": ("A", "A"),
    "a21": ("B", "A", "A"),
    "b20": ("B", "B"),
    "b12": ("A", "B", "B"),
}


def other(side: str) -> str:
    return "b" if side == "a" else "a"


def winner_of(duels: tuple[str, ...]) -> str:
    for side in "AB":
        if duels.count(side) >= 2:  # MATCH-1: first to two duel wins
            return side.lower()
    return ""


@dataclass
class Table:
    pk: int
    number: int  # the round's number
    a: int
    b: int | None
    status: str = "pending"
    result: str = ""
    duels: tuple[str, ...] | None = None
    facts: list[tuple[int, str, int]] = field(default_factory=list)  # (duel, loser side, penalty pk)
    reports: dict[str, str] = field(default_factory=dict)  # side -> the record key of their latest report
    last_by: str = ""
    stored_reports: bool = False  # any ResultReport row (a player's, a slip, a ruling)

    @property
    def bye(self) -> bool:
        return self.b is None

    def side_of(self, player: int) -> str | None:
        return "a" if player == self.a else "b" if player == self.b else None

    def keeps_facts(self, duels: tuple[str, ...]) -> bool:
        """PEN-1: a record holds every duel a penalty decided, won by the other side."""
        return all(n <= len(duels) and duels[n - 1] == other(loser).upper() for n, loser, _ in self.facts)

    def has_result(self) -> bool:
        return not self.bye and (self.status != "pending" or self.duels is not None or self.stored_reports)

    def decide(self, duels: tuple[str, ...], result: str | None = None) -> None:
        self.status, self.duels, self.stored_reports = "confirmed", duels, True
        self.result = result if result is not None else winner_of(duels)


@dataclass
class Penalty:
    pk: int
    player: int
    kind: str  # "duel", "match", "dq"
    head: bool  # issued by the head judge: not appealable (CS 3)
    landed: int | None = None  # the table's pk
    before: Table | None = None
    waiting: bool = False
    overturned: bool = False


@dataclass
class Model:
    tables: dict[int, Table] = field(default_factory=dict)
    current: list[int] = field(default_factory=list)  # the current round's table pks, in table order
    number: int = 1
    rounds: int = 3
    finished: bool = False  # the event (its last planned round finished)
    penalties: list[Penalty] = field(default_factory=list)
    met: set[frozenset[int]] = field(default_factory=set)
    dq: set[int] = field(default_factory=set)

    # --- the players' and the desk's decisions (END-3, END-4) ------------------------------------------

    def report(self, t: Table, side: str, key: str) -> bool:
        if t.status == "confirmed" or not t.keeps_facts(RECORDS[key]):
            return False
        t.reports[side], t.last_by, t.stored_reports = key, side, True
        theirs = t.reports.get(other(side))
        if theirs is None:
            t.status, t.duels, t.result = "reported", RECORDS[key], winner_of(RECORDS[key])
        elif theirs == key:
            t.status, t.duels, t.result = "confirmed", RECORDS[key], winner_of(RECORDS[key])
        else:
            t.status = "disputed"
        return True

    def confirm(self, t: Table, side: str, stale: bool) -> bool:
        if stale or t.status != "reported" or t.last_by == side:
            return False
        key = t.reports[other(side)]
        return self.report(t, side, key)

    def correct(self, t: Table, key: str, stale: bool) -> bool:
        if stale or not t.keeps_facts(RECORDS[key]):
            return False
        t.decide(RECORDS[key])
        return True

    def slip(self, t: Table, key: str, stale: bool) -> bool:
        if stale or t.status == "confirmed" or not t.keeps_facts(RECORDS[key]):
            return False
        t.decide(RECORDS[key])
        return True

    # --- penalties (PEN-1) --------------------------------------------------------------------------------

    def seat_of(self, player: int) -> Table | None:
        return next((self.tables[pk] for pk in self.current if self.tables[pk].side_of(player)), None)

    def issue(self, pk: int, player: int, kind: str, on_current: bool = False) -> bool:
        t = self.seat_of(player)
        pen = Penalty(pk, player, kind, head=kind == "dq")
        open_ = t is not None and not t.bye and t.status == "pending"
        if kind == "match" and on_current and (t is None or t.bye):
            return False  # a match loss on "this round's match" needs one
        self.penalties.append(pen)
        if kind == "dq":
            if open_:
                assert t is not None
                self._lose_match(pen, t)
            self.dq.add(player)
        elif open_ or (kind == "match" and on_current):
            assert t is not None
            self._land(pen, t)
        else:
            pen.waiting = True
        return True

    def _land(self, pen: Penalty, t: Table) -> None:
        if pen.kind == "duel":
            side = t.side_of(pen.player)
            assert side is not None
            pen.landed, pen.before = t.pk, copy.deepcopy(t)
            duels = (*(t.duels or ()), other(side).upper())
            t.facts.append((len(duels), side, pen.pk))
            if winner_of(duels):
                t.decide(duels)
            else:
                t.duels = duels
        else:
            self._lose_match(pen, t)

    def _lose_match(self, pen: Penalty, t: Table) -> None:
        side = t.side_of(pen.player)
        assert side is not None
        pen.landed, pen.before = t.pk, copy.deepcopy(t)
        t.decide(LOST, other(side))

    def land_waiting(self) -> None:
        """PEN-1: waiting losses land as the player's next match is paired, oldest first, while it is open."""
        for pen in self.penalties:
            t = self.seat_of(pen.player)
            if pen.waiting and not pen.overturned and t is not None and not t.bye and t.status == "pending":
                pen.waiting = False
                self._land(pen, t)

    # --- appeals (PEN-6) ----------------------------------------------------------------------------------

    def overturn(self, pen: Penalty) -> bool:
        if pen.head:
            return False  # CS 3: the head judge's own ruling is final
        if pen.overturned:
            return True  # the appeal is decided; nothing is left to reverse
        pen.overturned, pen.waiting = True, False
        if pen.landed is None or pen.before is None:
            return True
        t, before = self.tables[pen.landed], pen.before
        mine = [f[0] for f in t.facts if f[2] == pen.pk]
        t.facts = [f for f in t.facts if f[2] != pen.pk]
        later = bool(mine) and any(f[0] > min(mine) for f in t.facts)
        if before.status == "confirmed" and before.duels is not None:
            t.decide(before.duels, before.result)  # the result before the penalty, back as a correction
        elif later:  # a later penalty duel stands (PEN-1): the duels and any result stay, a judge rules
            pass
        elif t.number == self.number and not self.finished:  # played on, or its report or dispute back
            t.status, t.duels, t.result = before.status, before.duels, before.result
        return True

    # --- rounds and pairings --------------------------------------------------------------------------------

    def round_finished(self) -> bool:
        return all(self.tables[pk].status == "confirmed" or self.tables[pk].bye for pk in self.current)

    def can_pair_next(self) -> bool:
        players = {p for pk in self.current for p in (self.tables[pk].a, self.tables[pk].b) if p is not None}
        return self.round_finished() and self.number < self.rounds and len(players - self.dq) >= 2

    def can_repair(self, stale: bool) -> bool:
        return not stale and not any(self.tables[pk].has_result() for pk in self.current)

    def can_swap(self, stale: bool, pairs: list[tuple[int, int]]) -> bool:
        if not self.can_repair(stale):
            return False
        return not any(p in self.dq for pair in pairs for p in pair) and not any(
            frozenset(pair) in self.met for pair in pairs
        )

    def seat(self, tables: list[Table], number: int) -> None:
        """A round paired (or paired again): its tables, fresh."""
        for pk in self.current:
            if self.number == number:
                self.tables.pop(pk, None)
        if number != self.number:
            self.met |= {frozenset((self.tables[pk].a, self.tables[pk].b)) for pk in self.current}
        self.number = number
        self.current = [t.pk for t in tables]
        self.tables.update({t.pk: t for t in tables})
        for t in tables:
            if t.bye:
                t.status, t.result = "confirmed", "a"
