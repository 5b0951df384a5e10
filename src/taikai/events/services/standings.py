"""Standings of an event from its confirmed Swiss results, through taikai.core.standings."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from taikai.audit.models import last_change
from taikai.core import standings as core_standings
from taikai.events.cache import get_or_build
from taikai.events.models import Event, Match, Player, Round


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player_id: int
    name: str
    name_kana: str
    card_game_id: str
    points: int
    wins: int
    losses: int
    draws: int
    omw: Fraction
    oomw: Fraction
    code: str
    dropped: bool

    @property
    def omw_text(self) -> str:
        return f"{float(self.omw) * 100:.2f}%"

    @property
    def oomw_text(self) -> str:
        return f"{float(self.oomw) * 100:.2f}%"


def _rounds(event: Event, overrides: dict[int, str] | None = None) -> list[list[core_standings.MatchRecord]]:
    rows = (
        Match.objects.filter(round__event=event, round__stage=Round.Stage.SWISS)
        .order_by("round__number", "table", "seat")
        .values_list("pk", "round__number", "player_a_id", "player_b_id", "is_bye", "result", "status")
    )
    rounds: dict[int, list[core_standings.MatchRecord]] = {}
    for pk, number, a, b, is_bye, result, status in rows:
        played = rounds.setdefault(number, [])
        if is_bye:
            played.append(core_standings.MatchRecord(a, None, "bye"))
            continue
        result = (overrides or {}).get(pk, result if status == Match.Status.CONFIRMED else "")
        if result:
            played.append(core_standings.MatchRecord(a, b, result))
    late = dict(
        Player.objects.filter(event=event, late_entry_round__isnull=False).values_list("pk", "late_entry_round")
    )
    for number in sorted(rounds):
        for pid, first in late.items():
            if number < first:
                rounds[number].append(core_standings.MatchRecord(pid, None, "missed"))
    return [rounds[n] for n in sorted(rounds)]


def _table(event: Event, overrides: dict[int, str] | None = None) -> list[StandingRow]:
    players = {p.pk: p for p in Player.objects.filter(event=event).order_by("id")}
    computed = core_standings.compute(list(players), _rounds(event, overrides), event.ruleset, seed=event.tiebreak_seed)
    out = []
    for s in computed:
        p = players[int(s.id)]
        out.append(
            StandingRow(
                s.rank,
                p.pk,
                p.name,
                p.name_kana,
                p.card_game_id,
                s.points,
                s.wins,
                s.losses,
                s.draws,
                s.omw,
                s.oomw,
                s.code,
                p.dropped,
            )
        )
    return out


def standings_for(event: Event) -> list[StandingRow]:
    """The current standings; computed once per change to the event (cached by its latest audit entry)."""
    key = f"standings:{event.pk}:{event.created_at.timestamp()}:{last_change(event.pk)}:{event.ruleset_fingerprint}"
    rows, _ = get_or_build(key, lambda: _table(event))
    return rows


def what_if(event: Event, overrides: dict[int, str]) -> list[StandingRow]:
    """Standings as they would be with some match results replaced (for a correction's preview)."""
    return _table(event, overrides)
