"""The violator's record (PEN-5: the violator database, all events on this server plus imports) and the rung it
suggests: the ruleset's default, escalated for a repeat of a similar violation."""

from __future__ import annotations

from typing import Any

from taikai.core import penalties as core
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player
from taikai.judging.models import DatabaseRecord, Penalty


def history(card_game_id: str, *, event: Event | None = None, infraction: str | None = None) -> list[dict[str, Any]]:
    """PEN-5: the player's record in the violator database (all events on this server, plus imports)."""
    rows: list[dict[str, Any]] = []
    qs = Penalty.objects.filter(card_game_id=card_game_id, in_database=True, overturned=False)
    if infraction:
        qs = qs.filter(infraction=infraction)
    for p in qs.select_related("event").order_by("issued_at"):
        rows.append(
            {
                "event": p.event.name,
                "date": p.event.date,
                "infraction": p.infraction,
                "rung": p.rung,
                "this_event": event is not None and p.event_id == event.pk,
                "penalty_id": p.pk,
                # PEN-4: a teammate's DQ shared by the team; kept, but not this player's violation (CS 1.3).
                "team_consequence": p.team_source_id is not None,
            }
        )
    imported = DatabaseRecord.objects.filter(card_game_id=card_game_id)
    if infraction:
        imported = imported.filter(infraction=infraction)
    for r in imported.order_by("event_date", "id"):
        rows.append(
            {
                "event": r.event_name,
                "date": r.event_date,
                "infraction": r.infraction,
                "rung": r.rung,
                "this_event": False,
                "source": r.source,
                "team_consequence": r.team_consequence,
            }
        )
    return rows


def suggestion(event: Event, player: Player, infraction: str, intentional: bool = False) -> core.Suggestion:
    """The rung to pre-fill: the ruleset default, escalated for a repeat of a similar violation (PEN-5: one of
    the same kind in the catalog, 同様の違反; INF-21, INF-23 within the event). CS 1.3 escalates the same
    violator repeating a violation: a teammate's DQ the team shared (PEN-4) does not count."""
    rules = event.ruleset.penalties
    check_infraction(rules, infraction)
    rows = history(player.card_game_id, event=event) if rules.database_from is not None else []
    earlier = [
        r["rung"]
        for r in rows
        if not r["team_consequence"]
        and r["rung"] in rules.ladder
        and core.counts_for_escalation(rules, infraction, r["rung"], r["this_event"], of=r["infraction"])
    ]
    same_event = Penalty.objects.filter(event=event, player=player, overturned=False)
    for p in same_event.filter(in_database=False, team_source__isnull=True):
        if p.rung in rules.ladder and core.counts_for_escalation(rules, infraction, p.rung, True, of=p.infraction):
            earlier.append(p.rung)
    return core.suggest(rules, infraction, earlier, intentional)


def check_infraction(rules: Any, infraction: str) -> None:
    try:
        rules.infraction(infraction)
    except KeyError as exc:
        raise ServiceError("unknown-infraction", infraction=infraction) from exc
