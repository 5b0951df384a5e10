"""The place a player's entrant has secured now (CS 1.2 A: その時点で決まっていた受賞資格): where a
disqualification's prize starts from (PEN-2, PEN-8), asked once by the judging app when it issues a DQ and kept
on the penalty, so nothing played after the DQ changes it.

The entrant is the team in a team event (CS 1.2: 該当のプレイヤー及びチーム), else the player. The event's facts
are read once, with the round plan in force; ``taikai.core.placings.decided_place`` decides.
"""

from __future__ import annotations

from django.db.models import Q

from taikai.core import placings as core_placings
from taikai.core.progress import EventFormat, RoundPlan
from taikai.events.models import Event, Player, Team
from taikai.events.services import round_plan
from taikai.events.services.history import event_facts, team_facts


def decided_place(event: Event, player: Player) -> int | None:
    """The place secured now, or None while nothing is decided (Swiss rounds still to play)."""
    plan = round_plan.current(event)
    if event.is_team_event:
        if player.team_id is None:
            return None
        plan = RoundPlan(plan.swiss_rounds, 0)  # the top cut seats players, not teams: no team's place comes from it
        facts, entrant, declined = team_facts(event), player.team_id, set()
        out = set(Team.objects.filter(event=event, members__disqualified=True).values_list("pk", flat=True))
    else:
        flagged = event.players.filter(Q(disqualified=True) | Q(declined_top_cut=True))
        rows = flagged.values_list("pk", "disqualified", "declined_top_cut")
        out, declined = {pk for pk, dq, _ in rows if dq}, {pk for pk, _, no in rows if no}
        facts, entrant = event_facts(event), player.pk
    return core_placings.decided_place(
        facts,
        entrant,
        event.ruleset,
        seed=event.tiebreak_seed,
        plan=plan,
        format=EventFormat(event.format),
        closed=event.status == Event.Status.FINISHED,
        declined=declined,
        disqualified=out,
    )
