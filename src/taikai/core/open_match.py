"""How a match being played ends when a ruling ends it instead of the duels (issue 23).

A player who leaves the event while their table is being played cannot finish the match, and the next round
must not wait for it. The texts name one case: a DQ removes the player from the event (CS 1.2 A
「大会から除外され」), so the match being played is lost (PEN-1). They are silent on the two others; taikai's
reading, the same for all three, so the opponent is never worse off for the way the other player left:

- a drop (the player leaves of their own accord, 棄権) concedes the match being played (END-1: leaving is the
  conceding player's own choice, whatever the turn);
- a player who loses the right to take part (REG-2, 参加資格を失う) can no longer play it: it is lost.

In each the opponent wins the match with the duels a match needs (MATCH-1); duels an earlier penalty decided
stay at their places (``core.penalties.lost_match``). A table already reported, disputed or decided is left as
it is: its result is the players' (or the judges') and changes only by a correction (END-3).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from taikai.core.match_record import Format, MatchRecord, Player
from taikai.core.penalties import lost_match
from taikai.core.penalty_duels import PenaltyDuel
from taikai.core.ruleset import Ruleset


class Ruling(StrEnum):
    """What ended the match, kept on the table so every page can say it in words."""

    MATCH_LOSS = "match-loss"  # PEN-1: a penalty's match loss
    DQ_FORFEIT = "dq-forfeit"  # PEN-1: the disqualified player's match being played
    DROP_CONCESSION = "drop-concession"  # a drop while the table was being played (END-1 reading)
    INELIGIBLE_FORFEIT = "ineligible-forfeit"  # REG-2: the right to take part lost mid-match


LEAVINGS = (Ruling.DQ_FORFEIT, Ruling.DROP_CONCESSION, Ruling.INELIGIBLE_FORFEIT)


def ended_by_leaving(
    ruling: Ruling, fmt: Format, leaver: Player, ruleset: Ruleset, fixed: Sequence[PenaltyDuel] = ()
) -> MatchRecord:
    """The record of a match being played that ``leaver`` left by ``ruling``: the opponent wins it."""
    if ruling not in LEAVINGS:
        raise ValueError(f"{ruling} is not a way of leaving the event")
    return lost_match(fmt, leaver, ruleset, fixed)
