"""Standings of an event: the sheet's records (taikai.core.sheet), ranked by taikai.core.standings."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from taikai.audit.models import last_change
from taikai.core import sheet as core_sheet
from taikai.core import standings as core_standings
from taikai.core.sheet import Stage
from taikai.core.tiebreakers import TIEBREAKERS, Shown
from taikai.events.cache import get_or_build
from taikai.events.models import Event, Player
from taikai.events.services.history import event_facts, event_sheet


@dataclass(frozen=True)
class Figure:
    """One tiebreaker's value on a standings row, exact and as shown (rounded only here)."""

    name: str  # the tiebreaker's name in the ruleset (``omw``), also the CSV column and the API's name
    value: Fraction
    text: str


def figure_text(name: str, value: Fraction) -> str:
    if TIEBREAKERS[name].shown is Shown.PERCENT:
        return f"{float(value) * 100:.2f}%"
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"


def figures(values: dict[str, Fraction]) -> tuple[Figure, ...]:
    """A core standing's tiebreaker values (in the ruleset's column order) as shown."""
    return tuple(Figure(name, value, figure_text(name, value)) for name, value in values.items())


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
    figures: tuple[Figure, ...]  # the ruleset's tiebreakers shown, in its order (tiebreakers.columns)
    code: str
    dropped: bool
    ineligible: bool = False  # REG-2: marked without the right to take part (参加資格), not paired

    @property
    def values(self) -> dict[str, Fraction]:
        return {f.name: f.value for f in self.figures}

    @property
    def omw(self) -> Fraction:
        return self.values["omw"]

    @property
    def oomw(self) -> Fraction:
        return self.values["oomw"]


_SHOWN = ("pk", "name", "name_kana", "card_game_id", "dropped_after_round", "ineligible_reason")


def _table(event: Event, overrides: dict[int, str] | None = None) -> list[StandingRow]:
    # the fields a row shows, not whole players: at 4,096 players building the models cost more than ranking
    players = {row[0]: row for row in Player.objects.filter(event=event).values_list(*_SHOWN)}
    computed = core_standings.rank(event_sheet(event, overrides=overrides), event.ruleset, seed=event.tiebreak_seed)
    out = []
    for s in computed:
        pk, name, kana, card_game_id, dropped_after, ineligible = players[int(s.id)]
        out.append(
            StandingRow(
                s.rank,
                pk,
                name,
                kana,
                card_game_id,
                s.points,
                s.wins,
                s.losses,
                s.draws,
                figures(s.values),
                s.code,
                dropped_after is not None,
                bool(ineligible),
            )
        )
    return out


def standings_after_each_round(event: Event) -> list[tuple[core_standings.Standing, ...]]:
    """The standings as they stood after each Swiss round, in round order (for the rank paths chart)."""
    facts = event_facts(event)
    ruleset, seed = event.ruleset, event.tiebreak_seed
    swiss = [r.number for r in facts.rounds if r.stage == Stage.SWISS]
    return [core_standings.rank(core_sheet.sheet(facts.before(n + 1), ruleset), ruleset, seed) for n in swiss]


def standings_for(event: Event) -> list[StandingRow]:
    """The current standings; computed once per change to the event (cached by its latest audit entry)."""
    key = f"standings:{event.pk}:{event.created_at.timestamp()}:{last_change(event.pk)}:{event.ruleset_fingerprint}"
    rows, _ = get_or_build(key, lambda: _table(event))
    return rows


def what_if(event: Event, overrides: dict[int, str]) -> list[StandingRow]:
    """Standings as they would be with some match results replaced (for a correction's preview)."""
    return _table(event, overrides)
