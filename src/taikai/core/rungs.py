"""The penalty rungs (罰則の段階) the software knows, each with the effect it applies (PEN-1, PEN-2).

A ruleset orders the rungs it uses (``penalties.ladder``, lightest first) and sets the thresholds; it cannot
invent a rung, because a rung is an effect taikai applies. A new rung is one entry here (its name and its
effect), a label (``taikai.judging.words.RUNG_LABELS``) and its place in a ruleset's ladder. How many steps a
downgrade lowers a prize is the ruleset's (``penalties.downgrade_rungs``), not the rung's.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rung:
    """What a rung does, before the ruleset's downgrade steps (PEN-1, PEN-2)."""

    duel_loss: bool = False  # the current duel (or the first duel of the next match) is lost
    match_loss: bool = False  # the current (or the next) match is lost
    disqualifies: bool = False  # out of the event; the match being played is forfeited (PEN-1)
    prize_loss: bool = False  # no prize at all (受賞資格を失う)


CAUTION = "caution"
WARNING = "warning"
DUEL_LOSS = "duel-loss"
MATCH_LOSS = "match-loss"
MATCH_LOSS_DOWNGRADE = "match-loss-downgrade"
DQ = "dq"
DQ_DOWNGRADE = "dq-downgrade"
DQ_NO_PRIZE = "dq-no-prize"

RUNGS: dict[str, Rung] = {
    CAUTION: Rung(),
    WARNING: Rung(),
    DUEL_LOSS: Rung(duel_loss=True),
    MATCH_LOSS: Rung(match_loss=True),
    MATCH_LOSS_DOWNGRADE: Rung(match_loss=True),
    DQ: Rung(disqualifies=True),
    DQ_DOWNGRADE: Rung(disqualifies=True),
    DQ_NO_PRIZE: Rung(disqualifies=True, prize_loss=True),
}
