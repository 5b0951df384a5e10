"""What the standings pages, the CSV, the projector and the report show: the final placings once a top cut
has begun (champion, runner-up, best N, then the rest in Swiss order, disqualified players last), the Swiss
standings before it.

Both orders come from the services (``placings_for``, ``standings_for``); this module only joins each
placing to its player's Swiss line so a page can show the tiebreakers beside the place.
"""

from __future__ import annotations

from dataclasses import dataclass

from taikai.events.models import Event, Round
from taikai.events.services.placings import placings_for, prizes_of
from taikai.events.services.standings import StandingRow, standings_for


@dataclass(frozen=True)
class ShownRow:
    """One line of a standings table: the place, the stage reached (translated; empty in Swiss), the Swiss line."""

    rank: int
    stage_text: str
    disqualified: bool
    swiss: StandingRow
    prize_text: str = ""  # the prize in words, as the prize page gives it (PEN-2, PEN-3, PEN-8)


def has_bracket(event: Event) -> bool:
    return event.rounds.filter(stage=Round.Stage.ELIMINATION).exists()


def shown_rows(event: Event, *, public: bool = False) -> tuple[list[ShownRow], bool]:
    """The rows in the order to show them, and whether they are placings (a top cut has begun); ``public``:
    prizes only once published."""
    swiss = standings_for(event)
    prizes = prizes_of(event, public=public)
    if not has_bracket(event):
        disqualified = set(event.players.filter(disqualified=True).values_list("pk", flat=True))
        rows = [ShownRow(r.rank, "", r.player_id in disqualified, r, prizes.get(r.player_id, "")) for r in swiss]
        return rows, False
    by_id = {r.player_id: r for r in swiss}
    placed = placings_for(event)
    return [
        ShownRow(p.rank, p.stage_text, p.disqualified, by_id[p.player_id], prizes.get(p.player_id, "")) for p in placed
    ], True
