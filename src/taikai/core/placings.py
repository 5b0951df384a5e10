"""Final placings (最終順位): how far each player went, read from the event sheet.

After a top cut (or in a pure single-elimination event) the bracket decides the top: the champion (優勝), the
finalist (準優勝), both semifinal losers (ベスト4), the quarterfinal losers (ベスト8), and so on; players who lost in
the same bracket round share a place (1, 2, 3, 3, 5, 5, 5, 5, ...) and are listed in their Swiss order (their seed).
The rest follow in Swiss standings order, keeping the standings' ties. Disqualified players (PEN-1) come after
everyone, marked. A player who never played a match (no table, no bye) is not placed.

``secured_places`` says what each entrant has already secured (CS 1.2 A: その時点で決まっていた受賞資格), the place
a disqualification's prize starts from (PEN-2, PEN-8): the stage reached in the bracket, and nothing from the
Swiss rounds until every one of them is over. ``decided_place`` asks it for one entrant, from the event's facts.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum

from taikai.core import progress, standings
from taikai.core.pairing.types import PlayerId
from taikai.core.ruleset import Ruleset
from taikai.core.sheet import EventFacts, Line, Reached, Sheet
from taikai.core.sheet import sheet as sheet_of


class Stage(StrEnum):
    CHAMPION = "champion"  # 優勝
    FINALIST = "finalist"  # 準優勝
    BEST = "best"  # ベストN: lost in the bracket round of N players (``best`` says N)
    IN_BRACKET = "in-bracket"  # still playing: the bracket has not finished
    SWISS = "swiss"  # did not reach (or there was no) bracket


@dataclass(frozen=True)
class Placing:
    rank: int
    id: PlayerId
    stage: Stage
    best: int  # the bracket round reached, as its number of players (1 = champion); 0 for Swiss only
    disqualified: bool = False


def placings(
    sheet: Sheet, swiss_order: Sequence[tuple[PlayerId, int]], disqualified: Collection[PlayerId] = ()
) -> tuple[Placing, ...]:
    """``swiss_order``: (player, standings rank) best first, as the standings give them (ties share a rank)."""
    swiss_rank = dict(swiss_order)
    seed = {pid: k for k, (pid, _) in enumerate(swiss_order)}
    barred = set(disqualified)
    lines = [ln for ln in sheet.lines if ln.opponents or ln.byes or ln.bracket_rounds]
    seeded = [ln for ln in lines if ln.bracket_rounds]
    rounds = _bracket_rounds(len(seeded))
    advancing = set(sheet.advancing)
    in_bracket = [ln for ln in seeded if ln.id not in barred]
    bracket = []
    for ln in in_bracket:
        best = _round_size(ln, rounds, advancing)
        if ln.reached == Reached.CHAMPION:
            stage = Stage.CHAMPION
        elif ln.eliminated:
            stage = Stage.FINALIST if best == 2 else Stage.BEST
        else:
            stage = Stage.IN_BRACKET
        bracket.append((best, seed.get(ln.id, len(seed)), ln.id, stage))
    bracket.sort()
    out: list[Placing] = []
    for k, (best, _, pid, stage) in enumerate(bracket):
        rank = out[-1].rank if k and bracket[k - 1][0] == best else k + 1
        out.append(Placing(rank, pid, stage, best))
    placed = {p.id for p in out}
    rest = sorted(
        (ln.id for ln in lines if ln.id not in placed and ln.id not in barred),
        key=lambda pid: seed.get(pid, len(seed)),
    )
    offset = len(out)
    for k, pid in enumerate(rest):
        tied = k and swiss_rank.get(pid) == swiss_rank.get(rest[k - 1])
        out.append(Placing(out[-1].rank if tied else offset + k + 1, pid, Stage.SWISS, 0))
    gone = sorted((ln.id for ln in lines if ln.id in barred), key=lambda pid: seed.get(pid, len(seed)))
    for pid in gone:
        out.append(Placing(len(out) + 1, pid, Stage.SWISS, 0, disqualified=True))
    return tuple(out)


def _bracket_rounds(players: int) -> int:
    """Rounds of a bracket of this many players (byes included)."""
    return max(players - 1, 0).bit_length()


def _round_size(ln: Line, rounds: int, advancing: Collection[PlayerId]) -> int:
    """The bracket round a bracket entrant is in, lost in, or (advancing) goes on to, as its number of players."""
    if ln.reached == Reached.CHAMPION:
        return 1
    now_in = ln.bracket_rounds + (1 if ln.id in advancing and not ln.eliminated else 0)
    return 1 << max(rounds - now_in + 1, 0)


def secured_places(
    sheet: Sheet,
    swiss_order: Sequence[tuple[PlayerId, int]],
    *,
    swiss_over: bool,
    cut: Sequence[PlayerId] = (),
    disqualified: Collection[PlayerId] = (),
) -> dict[PlayerId, int]:
    """The final place each entrant has secured now, whatever is still to be played (CS 1.2 A, PEN-2): the
    place of the losers of the bracket round the entrant is in or lost in (a semifinalist has ベスト4: 3rd; the
    champion 1st). Outside the bracket, nothing until every Swiss round is over (``swiss_over``); then the
    Swiss place, and for the players the coming top cut takes (``cut``, best first) the place of its first
    round's losers. An entrant with nothing secured is absent. Standings in progress, a bracket seed and the
    tiebreak order are not decided and count for nothing."""
    out: dict[PlayerId, int] = {}
    seeded = [ln for ln in sheet.lines if ln.bracket_rounds]
    advancing = set(sheet.advancing)
    rounds = _bracket_rounds(len(seeded))
    for ln in seeded:
        out[ln.id] = _round_size(ln, rounds, advancing) // 2 + 1
    if not swiss_over:
        return out
    if not seeded and cut:
        for pid in cut:
            out[pid] = (1 << _bracket_rounds(len(cut))) // 2 + 1
    for placing in placings(sheet, swiss_order, disqualified):
        if placing.stage == Stage.SWISS and placing.id not in out and not placing.disqualified:
            out[placing.id] = max(placing.rank, len(cut) + 1) if not seeded else placing.rank
    return out


def decided_place(
    facts: EventFacts,
    entrant: PlayerId,
    ruleset: Ruleset,
    *,
    seed: int | str,
    plan: progress.RoundPlan,
    format: progress.EventFormat,
    closed: bool,
    declined: Collection[PlayerId] = (),
    disqualified: Collection[PlayerId] = (),
) -> int | None:
    """The place ``entrant`` has secured now (``secured_places``; None: nothing yet), from the event's facts read
    once: their sheet and standings, whether every Swiss round is over under the ``plan`` in force
    (``core.progress``), and, when the top cut comes next, whom it takes: the standings best first without the
    dropped, those without the right to take part (REG-2) and those who ``declined`` their place."""
    table = sheet_of(facts, ruleset)
    ranked = standings.rank(table, ruleset, seed)
    now = progress.progress_of(format, plan, facts.rounds, closed=closed)
    over = progress.swiss_over(now)
    cut: list[PlayerId] = []
    if over and progress.next_action(now) == progress.NextAction.TOP_CUT:
        cut = [s.id for s in ranked if not _barred(table.line(s.id), declined)][: now.top_cut]
    order = [(s.id, s.rank) for s in ranked]
    return secured_places(table, order, swiss_over=over, cut=cut, disqualified=disqualified).get(entrant)


def _barred(ln: Line, declined: Collection[PlayerId]) -> bool:
    return ln.dropped or ln.ineligible or ln.id in declined
