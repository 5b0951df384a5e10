"""Model rows -> wire dictionaries (read-only; no state changes here)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.db.models import Count, Q, QuerySet

from taikai.decks.models import DeckArchetype
from taikai.events.models import Event, Match, Player, Round
from taikai.events.services.standings import Figure, StandingRow


def event_rows(events: QuerySet[Event]) -> list[dict[str, Any]]:
    annotated = events.annotate(n_players=Count("players", distinct=True), n_rounds=Count("rounds", distinct=True))
    return [
        {
            "id": str(e.pk),
            "name": e.name,
            "date": e.date.isoformat(),
            "venue": e.venue,
            "format": e.format,
            "status": e.status,
            "ruleset": e.ruleset_name,
            "swiss_rounds": e.swiss_rounds,
            "top_cut": e.top_cut,
            "players": e.n_players,
            "rounds": e.n_rounds,
            "archetypes_public": e.archetypes_public,
        }
        for e in annotated
    ]


def player_row(p: Player, archetype: str | None = None) -> dict[str, Any]:
    return {
        "id": str(p.pk),
        "name": p.name,
        "name_kana": p.name_kana,
        "checked_in": p.checked_in_at is not None,
        "late_entry_round": p.late_entry_round,
        "dropped_after_round": p.dropped_after_round,
        "archetype": archetype,
        "team": str(p.team_id) if p.team_id else None,
        "seat": p.seat,
        "version": p.version,
    }


def player_rows(players: list[Player], *, archetypes: bool = True) -> list[dict[str, Any]]:
    """``archetypes`` False: every player's ``archetype`` is null (not public yet: ``archetypes_public``)."""
    names = (
        dict(DeckArchetype.objects.filter(player__in=players).values_list("player_id", "name")) if archetypes else {}
    )
    return [player_row(p, names.get(p.pk)) for p in players]


def archetypes_public(event: Event) -> bool:
    """Declared deck archetypes are shown to everyone once the event has finished or the organizer published
    them (``Event.archetypes_public``): while it runs they would tell opponents what they are about to face
    (issue 16). Staff see them all along (with their token, or signed in on the charts page)."""
    return event.archetypes_public


def archetype_of(player: Player) -> str | None:
    return DeckArchetype.objects.filter(player=player).values_list("name", flat=True).first()


def round_rows(rounds: QuerySet[Round]) -> list[dict[str, Any]]:
    annotated = rounds.annotate(
        n_tables=Count("matches"), n_open=Count("matches", filter=~Q(matches__status=Match.Status.CONFIRMED))
    )
    return [
        {
            "number": r.number,
            "stage": r.stage,
            "status": r.status,
            "started_at": r.started_at.isoformat() if r.started_at else None,
            "time_limit_seconds": r.time_limit_seconds,
            "tables": r.n_tables,
            "open_tables": r.n_open,
            "seed": str(r.seed),
        }
        for r in annotated
    ]


def _ref(p: Player | None) -> dict[str, str] | None:
    return {"id": str(p.pk), "name": p.name} if p is not None else None


def match_row(m: Match) -> dict[str, Any]:
    final = m.status == Match.Status.CONFIRMED
    return {
        "id": str(m.pk),
        "round": m.round.number,
        "table": m.table,
        "player_a": _ref(m.player_a),
        "player_b": _ref(m.player_b),
        "is_bye": m.is_bye,
        "status": m.status,
        "result": m.result if final else "",
        "duels": {"a": m.duel_wins_a, "b": m.duel_wins_b, "draws": m.duel_draws},
        "basis": m.basis if final else "",
        "extension_seconds": m.extension_seconds,
        "version": m.version,
    }


def _fraction(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator}"


def _percent(f: Fraction) -> str:
    return f"{float(f) * 100:.2f}"


def figure(f: Figure) -> dict[str, str]:
    """One tiebreaker of a standings row: its name in the ruleset, the exact value, and the value as shown."""
    return {"name": f.name, "value": _fraction(f.value), "text": f.text}


def standing_row(row: StandingRow) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "player": {"id": str(row.player_id), "name": row.name},
        "points": row.points,
        "wins": row.wins,
        "losses": row.losses,
        "draws": row.draws,
        "omw": _fraction(row.omw),  # the fields of API v1, kept beside the list of every tiebreaker shown
        "omw_percent": _percent(row.omw),
        "oomw": _fraction(row.oomw),
        "oomw_percent": _percent(row.oomw),
        "tiebreakers": [figure(f) for f in row.figures],
        "code": row.code,
        "dropped": row.dropped,
    }
