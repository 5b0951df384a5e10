"""Penalties (罰則): the ladder, the infraction catalog's defaults, effects, escalation, team propagation.

Everything comes from ``ruleset.penalties`` (PEN-1..PEN-7, INF-*). The rungs themselves are fixed by
``taikai.core.rungs.RUNGS`` because each has an effect the software applies; a ruleset orders them and sets
the thresholds (who may issue, what is kept in the violator database, what a team shares).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from taikai.core.match_record import Format, MatchRecord, Player, Won
from taikai.core.penalty_duels import PenaltyDuel, arranged
from taikai.core.ruleset import PenaltyRules, Ruleset
from taikai.core.rungs import RUNGS


@dataclass(frozen=True)
class Effects:
    """What a rung does to the player (PEN-1, PEN-2)."""

    duel_loss: bool = False  # the current duel (or the first duel of the next match) is lost
    match_loss: bool = False  # the current (or the next) match is lost
    drop: bool = False  # disqualified: never paired again
    downgrade_steps: int = 0  # prize rank lowered by this many steps (PEN-2)
    prize_loss: bool = False  # no prize at all (受賞資格を失う)
    forfeits_open_match: bool = False  # a DQ: the match being played is lost, a finished one stays (PEN-1)

    @property
    def changes_result(self) -> bool:
        return self.duel_loss or self.match_loss


class Landing(StrEnum):
    """Which of the player's matches a penalty's duel or match loss changes (PEN-1)."""

    CURRENT = "current"  # the match of this round (being played, or already over when the judge says so)
    NEXT = "next"  # the player's next match, once it is paired


def landing(fx: Effects, *, open_match: bool) -> Landing | None:
    """Where a result-changing penalty lands unless the judge chooses: the match being played, else the
    next one (PEN-1). A DQ changes only a match being played; it never waits (the player is not paired
    again). None: the penalty changes no result."""
    if fx.forfeits_open_match:
        return Landing.CURRENT if open_match else None
    if not fx.changes_result:
        return None
    return Landing.CURRENT if open_match else Landing.NEXT


def landings(fx: Effects, *, current_match: bool, open_match: bool) -> tuple[Landing, ...]:
    """What the judge may choose from (PEN-1). A duel loss falls on a duel being played, so on the current
    match only while it is open; a match loss may also replace a finished match's result, by that choice
    only; a DQ's forfeit is of the match being played or nothing."""
    if fx.forfeits_open_match:
        return (Landing.CURRENT,) if open_match else ()
    if not fx.changes_result:
        return ()
    on_current = open_match if fx.duel_loss else current_match
    return (Landing.CURRENT, Landing.NEXT) if on_current else (Landing.NEXT,)


def with_duel_loss(record: MatchRecord, loser: Player, *, time_called: bool = False) -> MatchRecord:
    """PEN-1: the duel being played is lost by ``loser`` (``time_called``: time was called during it)."""
    return replace(record, duels=(*record.duels, Won(loser.opponent, time_called=time_called)))


def lost_match(fmt: Format, loser: Player, ruleset: Ruleset, fixed: Sequence[PenaltyDuel] = ()) -> MatchRecord:
    """PEN-1: a match lost by penalty (or forfeited by a DQ): the opponent wins it with the duels a match
    needs (MATCH-1). The duels played before are kept in the audit log and the penalty's effect; duels an
    earlier penalty decided (``fixed``) stay at their places, and the opponent wins the duels after them."""
    winner, need = loser.opponent, ruleset.match.duels_to_win
    by_loser = sum(1 for p in fixed if p.loser is winner)  # duels the opponent lost by penalty
    kept = arranged({winner: need, loser: by_loser}, (loser, winner), fixed) if fixed else None
    return MatchRecord(fmt, kept or tuple(Won(winner) for _ in range(need)))


def default_rung(rules: PenaltyRules, infraction_id: str, intentional: bool = False) -> str | None:
    """The ruleset's default for an infraction (CS 2.1/2.2); None where the judge decides (INF-1, ...).

    Some defaults are for an intentional act only (INF-5, CS 2.2 D: 故意に、デッキ内容に変更を加える): when the
    judge does not find intent, there is no default and the judge decides."""
    infraction = rules.infraction(infraction_id)
    if infraction.default_if_intentional and not intentional:
        return None
    return infraction.default


# What one penalty can record when the ruleset sets no cap: more steps than any prize table has ranks (steps
# past the last rank leave no prize).
DOWNGRADE_STEPS_RECORDED = 99


def most_downgrade_steps(rules: PenaltyRules) -> int:
    """PEN-2: the most steps one penalty may lower a prize by: the ruleset's cap, or with none (CS 1.2: the
    judge may add steps 任意で) as many as a penalty records."""
    cap = rules.max_downgrade_steps
    return DOWNGRADE_STEPS_RECORDED if cap is None else cap


def downgrade_steps_allowed(rules: PenaltyRules, steps: int) -> bool:
    """PEN-2: a judge lowers a prize by 1 to ``most_downgrade_steps`` steps."""
    return 1 <= steps <= most_downgrade_steps(rules)


def needs_head_judge(rules: PenaltyRules, rung: str) -> bool:
    """PEN-6 (CS 3): only the head judge may issue this rung or a heavier one. OFF alone reserves none."""
    start = rules.head_judge_only_from
    return start is not None and rules.rank(rung) >= rules.rank(start)


def head_judge_required(rules: PenaltyRules) -> bool:
    """PEN-6: some rung is the head judge's alone, so an event with no head judge can give none of them."""
    return rules.head_judge_only_from is not None


def kept_in_database(rules: PenaltyRules, rung: str) -> bool:
    """PEN-5 (CS 1.3): warnings and above are kept in the series' violator database. OFF alone keeps none."""
    start = rules.database_from
    return start is not None and rules.rank(rung) >= rules.rank(start)


def needs_time_called(rules: PenaltyRules, infraction_id: str) -> bool:
    """INF-20 (CS 2.1 B: 対戦時間終了後、決着がつかなかった場合): the infraction exists only once time was
    called at the player's match."""
    return rules.infraction(infraction_id).after_time


def propagates_to_team(rules: PenaltyRules, rung: str) -> bool:
    """PEN-4: in team events, this rung given to one member applies to the whole team."""
    start = rules.team_propagation_from
    return start is not None and rules.rank(rung) >= rules.rank(start)


def effects(rules: PenaltyRules, rung: str, downgrade_steps: int = 1) -> Effects:
    """The automatic effects of ``rung``; a judge may lower the prize by more than one step (PEN-2)."""
    rules.rank(rung)  # unknown rungs raise ValueError
    if downgrade_steps < 1:
        raise ValueError("downgrade_steps must be at least 1")
    steps = downgrade_steps if rung in rules.downgrade_rungs else 0
    what = RUNGS[rung]
    return Effects(
        duel_loss=what.duel_loss,
        match_loss=what.match_loss,
        drop=what.disqualifies,
        downgrade_steps=steps,
        prize_loss=what.prize_loss,
        forfeits_open_match=what.disqualifies,
    )


@dataclass(frozen=True)
class Suggestion:
    """The rung a judge sees pre-filled (PEN-5, PEN-7)."""

    rung: str | None
    default: str | None
    escalated: bool  # heavier than the default because of earlier penalties for similar infractions
    earlier: int  # how many earlier penalties for similar infractions (the same kind, PEN-5) were counted


def heavier(rules: PenaltyRules, rung: str, steps: int = 1) -> str:
    """``steps`` rungs heavier, capped at the top of the ladder."""
    return rules.ladder[min(rules.rank(rung) + steps, len(rules.ladder) - 1)]


def suggest(rules: PenaltyRules, infraction_id: str, earlier: Sequence[str], intentional: bool = False) -> Suggestion:
    """PEN-5: one rung heavier than the heaviest earlier penalty for a similar infraction (同様の違反).

    ``earlier`` lists the rungs of the player's earlier penalties that count (``counts_for_escalation``):
    those for an infraction of the same kind in the violator database, plus (for an infraction marked
    ``escalates``, such as manners, INF-21) the lighter ones of the same event. The suggestion is never
    lighter than the default.
    """
    default = default_rung(rules, infraction_id, intentional)
    if not earlier:
        return Suggestion(default, default, False, 0)
    heaviest = max(earlier, key=rules.rank)
    rung = heavier(rules, heaviest)
    if default is not None and rules.rank(default) >= rules.rank(rung):
        return Suggestion(default, default, False, len(earlier))
    return Suggestion(rung, default, True, len(earlier))


def similar(rules: PenaltyRules, infraction_id: str, earlier_id: str) -> bool:
    """PEN-5 (CS 1.3: 同様の違反を繰り返した場合): an earlier infraction is similar when it is of the same kind
    in this ruleset's catalog, not only the identical entry. An entry judged alone ("other") is similar to no
    entry by the catalog; an earlier entry this catalog does not know is similar only to itself."""
    known = {inf.id: inf for inf in rules.infractions}
    this, before = known.get(infraction_id), known.get(earlier_id)
    if this is None or before is None:
        return infraction_id == earlier_id
    if this.judged_alone or before.judged_alone:
        return False
    return this.kind == before.kind


def counts_for_escalation(
    rules: PenaltyRules, infraction_id: str, rung: str, same_event: bool, of: str | None = None
) -> bool:
    """Whether an earlier penalty (for ``of``, the same infraction when not given) counts for ``suggest``:
    one of a similar infraction (PEN-5), and a database rung, or a lighter one within the event for an
    infraction that escalates (INF-21 CS 2.3, INF-23 OFF C: 「注意」から始まる罰則)."""
    if not similar(rules, infraction_id, of or infraction_id):
        return False
    if kept_in_database(rules, rung):
        return True
    return same_event and rules.infraction(infraction_id).escalates
