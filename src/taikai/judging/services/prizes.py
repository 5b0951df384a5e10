"""Final prizes: the organizer's prize ranks, the final order, sanctions from penalties, and playoffs
(PEN-2, PEN-3) through taikai.core.prizes."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from taikai.audit.services import record
from taikai.core import penalties as core_penalties
from taikai.core import prizes as core
from taikai.events.actors import Actor, user_of
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player, Team
from taikai.events.permissions import require_judge, require_organizer
from taikai.events.services.placings import placings_for
from taikai.events.services.team_play import team_standings
from taikai.judging import actions
from taikai.judging.models import Penalty, Playoff, PrizePublication, PrizeRank


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


def publish_prizes(event: Event, *, by: Actor) -> PrizePublication:
    """The organizer makes the prize list public (``GET …/prizes`` without a token). Publishing twice is once."""
    require_organizer(by, event)
    with transaction.atomic():
        row, created = PrizePublication.objects.get_or_create(event=event, defaults={"published_by": user_of(by)})
        if created:
            record(actions.PRIZES_PUBLISHED, actor=by, obj=row)
    return row


def prizes_published(event: Event) -> bool:
    """Whether the organizer published the prize list: public pages say prizes only then."""
    return PrizePublication.objects.filter(event=event).exists()


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
    """Each entrant's sanction from the penalties that stand (PEN-2, PEN-8). In team events a member's penalty
    is the team's (CS 1.2 該当のプレイヤー及びチーム), counted once: the copies given to teammates (PEN-4) add
    nothing."""
    rules = event.ruleset.penalties
    marks: dict[str, list[core.Sanction]] = {}
    penalties = Penalty.objects.filter(event=event, overturned=False, team_source__isnull=True).select_related("player")
    for p in penalties:
        fx = core_penalties.effects(rules, p.rung, max(1, p.downgrade_steps))
        mark = core.penalty_sanction(
            drop=fx.drop, downgrade_steps=p.downgrade_steps, prize_loss=p.prize_loss, decided_place=p.decided_place
        )
        marks.setdefault(entrant_of(event, p.player), []).append(mark)
    for player in Player.objects.filter(event=event).exclude(ineligible_reason=""):
        # REG-2: no right to take part
        marks.setdefault(entrant_of(event, player), []).append(core.Sanction(ineligible=True))
    return {entrant: core.combined(ms) for entrant, ms in marks.items()}


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


@dataclass(frozen=True)
class EntrantPrize:
    """One entrant's prize as every page says it (the prize page, the placings, the player's page, the API,
    the CSV): all read ``prizes_by_entrant``, so they agree."""

    label: str = ""  # the prize held for certain
    downgraded: bool = False  # placed there by a downgrade (PEN-2, PEN-8)
    playoff_for: str = ""  # the prize the entrant plays off for (PEN-3)
    no_prize: bool = False  # a sanctioned entrant left without a prize

    @property
    def text(self) -> str:
        if self.label:
            return f"{self.label} ({_('downgraded')})" if self.downgraded else self.label
        if self.playoff_for:
            return _("Playoff for %(prize)s") % {"prize": self.playoff_for}
        return _("No prize") if self.no_prize else ""


def prizes_by_entrant(event: Event) -> dict[str, EntrantPrize]:
    """Each entrant's prize now (players, or teams in team events); empty while no prizes are defined."""
    awards = prize_standings(event).awards
    if awards is None:
        return {}
    out = {e: EntrantPrize(no_prize=True) for e in awards.no_prize}
    for award in awards.ranks:
        for e in award.entrants:
            out[e] = EntrantPrize(award.rank.label, e in award.downgraded)
        for e in award.playoff.candidates if award.playoff else ():
            out[e] = EntrantPrize(playoff_for=award.rank.label)
    return out


def prize_texts(event: Event) -> dict[int, str]:
    """Each player's prize in words, a team's for each of its members (what the placings show)."""
    by_entrant = prizes_by_entrant(event)
    if not by_entrant:
        return {}
    players = Player.objects.filter(event=event).values_list("pk", "team_id")
    return {
        pk: by_entrant[key].text
        for pk, team in players
        if (key := str(team) if event.is_team_event and team else str(pk)) in by_entrant
    }


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
            record(actions.PLAYOFF_PAIRED, actor=by, obj=row, after={"pairs": pairs})
    return rows
