"""Chart data from an event (read-only), drawn by taikai.charts.pictures with translated labels.

Each chart is read once into a drawing, a function of the width to draw at: the charts page draws it twice
(projector and phone) from one read of the event.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from fractions import Fraction

from django.utils.translation import gettext as _

from taikai.charts import pictures
from taikai.decks.models import DeckArchetype
from taikai.events.models import Event, Match, Player, Round
from taikai.events.services import standings as standings_service

TOP_PATHS = 8

Drawing = Callable[[int], str]  # the width in SVG units -> the SVG


def _archetypes(event: Event) -> dict[int, str]:
    return dict(DeckArchetype.objects.filter(player__event=event).values_list("player_id", "name"))


def _unknown() -> str:
    return _("(not registered)")


def metagame_bars(event: Event) -> list[pictures.ArchetypeBar]:
    """Share of the field, match-win rate (Swiss and top cut, byes excluded) and top-cut count per archetype."""
    names = _archetypes(event)
    players = list(event.players.values_list("pk", flat=True))
    if not players:
        return []

    def of(pid: int | None) -> str:
        return names.get(pid or 0, _unknown())

    field = Counter(of(p) for p in players)
    wins: Counter[str] = Counter()
    played: Counter[str] = Counter()
    cut_players: set[int] = set()
    matches = Match.objects.filter(round__event=event, status=Match.Status.CONFIRMED)
    for stage, a, b, is_bye, result in matches.values_list(
        "round__stage", "player_a_id", "player_b_id", "is_bye", "result"
    ):
        if stage == Round.Stage.ELIMINATION:
            cut_players.update(p for p in (a, b) if p)
        if is_bye or b is None:
            continue
        for side, pid in (("a", a), ("b", b)):
            played[of(pid)] += 1
            if result == side:
                wins[of(pid)] += 1
    cut = Counter(of(p) for p in cut_players)
    total = len(players)
    bars = [
        pictures.ArchetypeBar(
            name,
            count,
            Fraction(count, total),
            Fraction(wins[name], played[name]) if played[name] else None,
            cut[name],
        )
        for name, count in field.items()
    ]
    return sorted(bars, key=lambda b: (-b.players, b.name == _unknown(), b.name))


def metagame_drawing(event: Event) -> Drawing:
    bars = metagame_bars(event)
    labels = {
        "title": _("Metagame"),
        "players_label": _("Players (share of the field)"),
        "win_label": _("Match wins"),
        "cut_label": _("In the top cut"),
    }
    return lambda width: pictures.metagame(bars, **labels, width=width)


def metagame_svg(event: Event) -> str:
    return metagame_drawing(event)(pictures.WIDE)


def rank_paths(event: Event) -> tuple[list[int], dict[int, list[int]]]:
    """Rank of every player after each Swiss round (the same standings code, on a prefix of rounds)."""
    entrants = list(event.players.order_by("id").values_list("pk", flat=True))
    paths: dict[int, list[int]] = defaultdict(list)
    for table in standings_service.standings_after_each_round(event):  # the same sheet standings_for reads
        for s in table:
            paths[int(s.id)].append(s.rank)
    return entrants, paths


def paths_drawing(event: Event, player_ids: list[int] | None = None) -> Drawing:
    entrants, paths = rank_paths(event)
    final = standings_service.standings_for(event)
    chosen = player_ids or [row.player_id for row in final[:TOP_PATHS]]
    names = dict(Player.objects.filter(pk__in=chosen).values_list("pk", "name"))
    rounds = max((len(p) for p in paths.values()), default=0)
    series = [pictures.PathSeries(names[p], tuple(paths.get(p, []))) for p in chosen if p in names]
    title, round_label = _("Standings round by round"), _("R")
    return lambda width: pictures.standings_paths(
        series, rounds=max(rounds, 1), players=len(entrants), title=title, round_label=round_label, width=width
    )


def paths_svg(event: Event, player_ids: list[int] | None = None) -> str:
    return paths_drawing(event, player_ids)(pictures.WIDE)


def attendance_rows(event: Event) -> list[pictures.RoundAttendance]:
    drops = Counter(event.players.exclude(dropped_after_round=None).values_list("dropped_after_round", flat=True))
    late = Counter(event.players.exclude(late_entry_round=None).values_list("late_entry_round", flat=True))
    rows = []
    for rnd in event.rounds.order_by("number"):
        seats = rnd.matches.values_list("player_b_id", flat=True)
        playing = sum(2 if b else 1 for b in seats)
        rows.append(pictures.RoundAttendance(rnd.number, playing, drops.get(rnd.number, 0), late.get(rnd.number, 0)))
    return rows


def attendance_drawing(event: Event) -> Drawing:
    rows = attendance_rows(event)
    title, round_label = _("Attendance per round"), _("R")
    labels = (_("Players in the round"), _("Dropped after the round"), _("Late entries"))
    return lambda width: pictures.attendance(rows, title=title, labels=labels, round_label=round_label, width=width)


def attendance_svg(event: Event) -> str:
    return attendance_drawing(event)(pictures.WIDE)


def bracket_drawing(event: Event) -> Drawing:
    columns = []
    for rnd in event.rounds.filter(stage=Round.Stage.ELIMINATION).order_by("number"):
        matches = [
            pictures.BracketMatch(
                m.player_a.name,
                m.player_b.name if m.player_b else None,
                m.result if m.status == Match.Status.CONFIRMED else "",
            )
            for m in rnd.matches.select_related("player_a", "player_b").order_by("table")
        ]
        columns.append((_("Round %(n)s") % {"n": rnd.number}, matches))
    title, bye_label = _("Top cut bracket"), _("Bye")
    return lambda width: pictures.bracket(columns, title=title, bye_label=bye_label, width=width)


def bracket_svg(event: Event) -> str:
    return bracket_drawing(event)(pictures.WIDE)


CHARTS: dict[str, Callable[[Event], Drawing]] = {
    "metagame": metagame_drawing,
    "paths": paths_drawing,
    "attendance": attendance_drawing,
    "bracket": bracket_drawing,
}


def has_bracket(event: Event) -> bool:
    return event.rounds.filter(stage=Round.Stage.ELIMINATION).exists()
