"""The organizer's report after the event: winners, standings, metagame, penalties, round timings."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

from django.apps import apps
from django.utils.safestring import mark_safe

from taikai.api import charts
from taikai.audit.models import AuditEntry
from taikai.events.models import Event, Match
from taikai.events.round_words import round_name
from taikai.events.views.final import shown_rows

RESULT_ACTIONS = (
    "taikai.match.result_confirmed",
    "taikai.match.result_entered",
    "taikai.match.result_corrected",
)


def winners(event: Event) -> list[dict[str, Any]]:
    """After a top cut, the bracket's top: champion, runner-up and the semifinal losers (ベスト4), from the
    final placings; without one, the top three of the Swiss standings."""
    rows, placings = shown_rows(event)
    if placings:
        top = [r for r in rows if r.stage_text and r.rank <= 4 and not r.disqualified]
        return [{"place": r.rank, "stage": r.stage_text, "name": r.swiss.name} for r in top]
    return [{"place": r.rank, "stage": "", "name": r.swiss.name} for r in rows[:3]]


def timings(event: Event) -> list[dict[str, Any]]:
    rounds = list(event.rounds.order_by("number"))
    match_round = dict(Match.objects.filter(round__event=event).values_list("pk", "round__number"))
    last_result: dict[int, Any] = {}
    entries = AuditEntry.objects.filter(event_id=event.pk, action__in=RESULT_ACTIONS, object_type="events.match")
    for object_id, at in entries.values_list("object_id", "at"):
        number = match_round.get(int(object_id)) if object_id.isdigit() else None
        if number is not None and (number not in last_result or at > last_result[number]):
            last_result[number] = at
    paired: dict[str, dt.datetime] = {}
    for object_id, at in AuditEntry.objects.filter(
        event_id=event.pk, action__in=("taikai.round.paired", "taikai.round.top_cut")
    ).values_list("object_id", "at"):
        paired.setdefault(object_id, at)
    out = []
    for rnd in rounds:
        paused = sum((end or start) - start for start, end in rnd.pauses)
        ended = last_result.get(rnd.number)
        length = (ended - rnd.started_at).total_seconds() - paused if ended and rnd.started_at else None
        out.append(
            {
                "number": rnd.number,
                "stage": rnd.get_stage_display(),
                "name": round_name(rnd),
                "paired_at": paired.get(str(rnd.pk)),
                "started_at": rnd.started_at,
                "last_result_at": ended,
                "minutes": round(length / 60) if length is not None else None,
                "paused_minutes": round(paused / 60, 1),
                "limit_minutes": rnd.time_limit_seconds // 60,
            }
        )
    return out


def penalties(event: Event) -> dict[str, Any] | None:
    """Counts by infraction and by penalty (no names: only what a series would publish)."""
    if not apps.is_installed("taikai.judging"):
        return None
    from taikai.judging.models import Penalty
    from taikai.judging.words import infraction_label, rung_label

    rows = Penalty.objects.filter(event=event, overturned=False).values_list("infraction", "rung")
    by_infraction = Counter(i for i, _ in rows)
    by_rung = Counter(r for _, r in rows)
    ordered = sorted(by_infraction.items(), key=lambda kv: int(kv[0].split("-")[-1]) if kv[0][-1:].isdigit() else 10**6)
    return {
        "total": sum(by_rung.values()),
        "by_infraction": [(infraction_label(code), n) for code, n in ordered],
        "by_rung": [(rung_label(rung), n) for rung, n in sorted(by_rung.items(), key=lambda kv: -kv[1])],
    }


def context(event: Event) -> dict[str, Any]:
    return {
        "event": event,
        "winners": winners(event),
        "standings": shown_rows(event)[0],
        "placings": shown_rows(event)[1],
        "metagame": charts.metagame_bars(event),
        "metagame_svg": mark_safe(charts.metagame_svg(event)),  # noqa: S308 - built by taikai.charts with escaping
        "attendance_svg": mark_safe(charts.attendance_svg(event)),  # noqa: S308
        "paths_svg": mark_safe(charts.paths_svg(event)),  # noqa: S308
        "bracket_svg": mark_safe(charts.bracket_svg(event)) if charts.has_bracket(event) else None,  # noqa: S308
        "penalties": penalties(event),
        "timings": timings(event),
        "players": event.players.count(),
    }
