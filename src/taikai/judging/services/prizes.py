"""Final prizes: the organizer's prize ranks, the final order, sanctions from penalties, and playoffs
(PEN-2, PEN-3) through taikai.core.prizes."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from taikai.audit.services import record
from taikai.core import prizes as core
from taikai.events.actors import Actor, user_of
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player, Team
from taikai.events.permissions import require_judge, require_organizer
from taikai.events.services.placings import placings_for
from taikai.events.services.teams import team_standings
from taikai.judging import actions
from taikai.judging.models import Penalty, Playoff, PrizeRank


def set_prize_ranks(event: Event, *, by: Actor, ranks: list[tuple[str, int, int, bool]]) -> list[PrizeRank]:
    """The organizer defines the prizes, e.g. [("1st", 1, 1, False), ("3rd-4th", 3, 4, True)]."""
    require_organizer(by, event)
    try:
        core.check_ranks([core.PrizeRank(label, first, last) for label, first, last, _ in ranks])
    except core.PrizeRankError as exc:
        raise ServiceError("bad-prize-ranks", detail=str(exc)) from exc
    with transaction.atomic():
        before = list(event.prize_ranks.values("label", "first", "last", "shared"))
        event.prize_ranks.all().delete()
        rows = [
            PrizeRank.objects.create(event=event, label=label.strip()[:100], first=first, last=last, shared=shared)
            for label, first, last, shared in ranks
        ]
        record(
            actions.PRIZE_RANKS_SET,
            actor=by,
            event_id=event.pk,
            before=before,
            after=[{"label": r.label, "first": r.first, "last": r.last, "shared": r.shared} for r in rows],
        )
    return rows


def final_order(event: Event) -> list[list[str]]:
    """Final places as tied groups of entrants, best first. Team events rank teams by the team standings
    (CS 1.2: 該当のプレイヤー及びチーム); otherwise the event's final placings (taikai.core.placings over the
    event sheet: the bracket's stages, then the Swiss standings; players sharing a place share a group)."""
    if event.is_team_event:
        return _team_order(event)
    by_rank: dict[int, list[str]] = {}
    for row in placings_for(event):
        by_rank.setdefault(row.rank, []).append(str(row.player_id))
    return [by_rank[r] for r in sorted(by_rank)]


def _team_order(event: Event) -> list[list[str]]:
    by_rank: dict[int, list[str]] = {}
    for row in team_standings(event):
        by_rank.setdefault(row["rank"], []).append(str(row["team"].pk))
    return [by_rank[r] for r in sorted(by_rank)]


def entrant_of(event: Event, player: Player) -> str:
    """Who holds a prize: the team in team events (CS 1.2, PEN-2, PEN-4), else the player."""
    return str(player.team_id) if event.is_team_event and player.team_id else str(player.pk)


def decided_place(event: Event, player: Player) -> int | None:
    """CS 1.2 A: the final place the player's entrant holds now, from the results confirmed so far (the
    place a DQ's downgrade starts from: その時点で決まっていた受賞資格)."""
    entrant, place = entrant_of(event, player), 1
    for group in final_order(event):
        if entrant in group:
            return place
        place += len(group)
    return None


def _merge_shared(order: list[list[str]], ranks: list[PrizeRank]) -> list[list[str]]:
    """Places inside a prize rank marked ``shared`` are equal (e.g. the semifinal losers share 3rd-4th)."""
    place, starts = 1, []
    for group in order:
        starts.append(place)
        place += len(group)
    out: list[list[str]] = []
    out_span: list[int] = []  # the shared rank index each output group belongs to, or -1
    for group, start in zip(order, starts, strict=True):
        span = next((i for i, r in enumerate(ranks) if r.shared and r.first <= start <= r.last), -1)
        if span >= 0 and out_span and out_span[-1] == span:
            out[-1] = out[-1] + group
        else:
            out.append(list(group))
            out_span.append(span)
    return out


def sanctions(event: Event) -> dict[str, core.Sanction]:
    """Each entrant's sanction from the penalties that stand (PEN-2). In team events a member's penalty is the
    team's (CS 1.2 該当のプレイヤー及びチーム), counted once: the copies given to teammates (PEN-4) add nothing."""
    out: dict[str, core.Sanction] = {}
    penalties = Penalty.objects.filter(event=event, overturned=False, team_source__isnull=True).select_related("player")
    for p in penalties:
        entrant = entrant_of(event, p.player)
        s = out.get(entrant, core.Sanction())
        # CS 1.2 A: a DQ's downgrade starts from the place held when disqualified.
        place = p.decided_place if p.downgrade_steps and p.decided_place is not None else s.decided_place
        out[entrant] = core.Sanction(s.downgrade_steps + p.downgrade_steps, s.ineligible or p.prize_loss, place)
    for player in Player.objects.filter(event=event).exclude(ineligible_reason=""):
        entrant = entrant_of(event, player)
        s = out.get(entrant, core.Sanction())
        out[entrant] = core.Sanction(s.downgrade_steps, True, s.decided_place)  # REG-2: no right to take part
    return out


@dataclass(frozen=True)
class PrizeStandings:
    awards: core.Awards | None
    names: dict[str, str]
    ranks: list[PrizeRank]
    teams: bool = False


def entrant_names(event: Event) -> dict[str, str]:
    if event.is_team_event:
        return {str(t.pk): t.name for t in Team.objects.filter(event=event)}
    return {str(p.pk): p.name for p in Player.objects.filter(event=event)}


def prize_standings(event: Event) -> PrizeStandings:
    ranks = list(event.prize_ranks.all())
    names = entrant_names(event)
    if not ranks:
        return PrizeStandings(None, names, ranks, event.is_team_event)
    order = _merge_shared(final_order(event), ranks)
    core_ranks = [core.PrizeRank(r.label, r.first, r.last) for r in ranks]
    return PrizeStandings(core.award(core_ranks, order, sanctions(event)), names, ranks, event.is_team_event)


def pair_playoffs(event: Event, *, by: Actor) -> list[Playoff]:
    """PEN-3: store a simple pairing for each playoff the prize standings call for."""
    require_judge(by, event)
    awards = prize_standings(event).awards
    if awards is None or not awards.playoff_needed:
        raise ServiceError("nothing-to-pair")
    with transaction.atomic():
        event.playoffs.all().delete()
        rows = []
        for po in awards.playoffs:
            pairs = [list(p) for p in core.playoff_pairs(po.candidates)]
            row = Playoff.objects.create(
                event=event,
                prize_label=awards.ranks[po.rank].rank.label,
                slots=po.slots,
                candidates=list(po.candidates),
                pairs=pairs,
                created_by=user_of(by),
            )
            rows.append(row)
            record(actions.PLAYOFF_PAIRED, actor=by, event_id=event.pk, obj=row, after={"pairs": pairs})
    return rows
