"""Where a player's event ended, said on their own page and on "why am I ranked here": the final placings
(優勝 / 準優勝 / ベスト4 / ベスト8 …, then the Swiss order after the top cut), from ``placings_for``, the one order
the standings, the projector and the prize page show.

A player's part is over when the event has finished, when they lost in the top cut, or when the top cut goes
on without them; from then on their page says where they ended instead of waiting for a next table, and offers
no drop.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from taikai.core.placings import Stage
from taikai.events.models import Event, Player
from taikai.events.services.placings import PlacingRow, placings_for, prizes_of
from taikai.events.views.final import has_bracket


@dataclass(frozen=True)
class Finish:
    """A player's final place, once it is final for them."""

    rank: int
    stage: Stage
    place_text: str  # 優勝 / 準優勝 / ベスト4, or 9位 for a place from the Swiss rounds
    prize_text: str  # the prize in words, once the organizer published the prize list
    event_over: bool

    @property
    def champion(self) -> bool:
        return self.stage == Stage.CHAMPION

    @property
    def headline(self) -> str:
        if self.champion:
            return _("Congratulations: you are the champion!")
        if self.event_over:
            return _("The event has finished.")
        if self.stage == Stage.SWISS:
            return _("Your event ended in the Swiss rounds.")
        return _("Your event ended in the top cut.")


def place_text(row: PlacingRow) -> str:
    """The place as players say it: the bracket stage (優勝, ベスト4) where there is one, else 「9位」."""
    if row.stage in (Stage.SWISS, Stage.IN_BRACKET):
        return _("Place %(rank)s") % {"rank": row.rank}
    return row.stage_text


def placing_of(event: Event, player: Player) -> PlacingRow | None:
    return next((r for r in placings_for(event) if r.player_id == player.pk), None)


def finish_of(player: Player) -> Finish | None:
    """The player's final place once nothing is left for them to play; None while they may still be paired
    (a disqualified player's page says that instead)."""
    event = player.event
    over = event.status == Event.Status.FINISHED
    if player.disqualified or not (over or has_bracket(event)):
        return None
    row = placing_of(event, player)
    if row is None or row.disqualified or (row.stage == Stage.IN_BRACKET and not over):
        return None
    prize = prizes_of(event, public=True).get(player.pk, "")
    return Finish(row.rank, row.stage, place_text(row), prize, over)
