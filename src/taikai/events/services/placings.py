"""Final placings of an event (最終順位): the bracket first, then Swiss order, disqualified players last.

The order is taikai.core.placings over the event sheet and the Swiss standings; this module reads the facts and
adds the names. Standings pages, the CSV, the report, the projector and the API all show these rows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _

from taikai.audit.models import last_change
from taikai.core import placings as core_placings
from taikai.core.placings import Stage
from taikai.events.cache import get_or_build
from taikai.events.models import Event, Player
from taikai.events.services.history import event_sheet
from taikai.events.services.standings import standings_for


@dataclass(frozen=True)
class PlacingRow:
    rank: int
    player_id: int
    name: str
    name_kana: str
    card_game_id: str
    stage: Stage
    best: int  # the bracket round reached, as its number of players (1 = champion); 0 for Swiss only
    points: int  # Swiss match points
    wins: int
    losses: int
    draws: int
    disqualified: bool

    @property
    def stage_text(self) -> str:
        """優勝 / 準優勝 / ベスト4 / ... in the visitor's language; empty for Swiss only."""
        if self.stage == Stage.CHAMPION:
            return _("Champion")
        if self.stage == Stage.FINALIST:
            return _("Runner-up")
        if self.stage == Stage.BEST:
            return _("Top %(n)d") % {"n": self.best}
        if self.stage == Stage.IN_BRACKET:
            return _("Still playing (top %(n)d)") % {"n": self.best}
        return ""


def _build(event: Event) -> list[PlacingRow]:
    standings = standings_for(event)
    players = {p.pk: p for p in Player.objects.filter(event=event)}
    swiss = {row.player_id: row for row in standings}
    disqualified = {pk for pk, p in players.items() if p.disqualified}
    computed = core_placings.placings(
        event_sheet(event), [(row.player_id, row.rank) for row in standings], disqualified
    )
    rows = []
    for placing in computed:
        p, s = players[int(placing.id)], swiss[int(placing.id)]
        rows.append(
            PlacingRow(
                placing.rank,
                p.pk,
                p.name,
                p.name_kana,
                p.card_game_id,
                placing.stage,
                placing.best,
                s.points,
                s.wins,
                s.losses,
                s.draws,
                placing.disqualified,
            )
        )
    return rows


def placings_for(event: Event) -> list[PlacingRow]:
    """The event's placings now (final once the event is finished); built once per change to the event."""
    key = f"placings:{event.pk}:{event.created_at.timestamp()}:{last_change(event.pk)}:{event.ruleset_fingerprint}"
    rows, _unused = get_or_build(key, lambda: _build(event))
    return rows


def champion(event: Event) -> PlacingRow | None:
    rows = placings_for(event)
    return rows[0] if rows and rows[0].stage == Stage.CHAMPION else None


# What another app adds to each placing, in words: the prize (taikai.judging). The events app knows no other
# app; the reader is registered when that app starts (AppConfig.ready).
PrizeReader = Callable[[Event], Mapping[int, str]]
_PRIZE_READERS: list[PrizeReader] = []


def register_prize_reader(reader: PrizeReader) -> None:
    _PRIZE_READERS.append(reader)


# Whether the organizer has made the prize list public (the judging app registers its publication).
PublishedCheck = Callable[[Event], bool]
_PUBLISHED: list[PublishedCheck] = []


def register_prize_publication(check: PublishedCheck) -> None:
    _PUBLISHED.append(check)


def prizes_of(event: Event, *, public: bool = False) -> dict[int, str]:
    """Each player's prize in words (empty where no prize is defined or none is held). ``public``: for a page
    anyone may open, only once the organizer published the prize list; staff see it at any time."""
    if public and not any(published(event) for published in _PUBLISHED):
        return {}
    out: dict[int, str] = {}
    for reader in _PRIZE_READERS:
        out.update(reader(event))
    return out
