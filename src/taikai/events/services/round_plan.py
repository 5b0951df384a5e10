"""The Swiss-round count and the top-cut size (スイスドロー n 回戦・上位 m 名で決勝トーナメント).

Left blank, they come from the ruleset's attendance table for the entrants checked in when round 1 is paired,
and are stored on the event then; after that only the organizer changes them, on the version they saw, and
never against rounds already paired (issue 22: a no-show or a drop no longer adds or takes away a round).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from taikai.audit.services import fields_of, save_and_log
from taikai.core import progress
from taikai.core.progress import RoundPlan
from taikai.events import actions
from taikai.events.actors import Actor
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Event, Match, Round, TeamMatch
from taikai.events.permissions import require_organizer

PLAN_FIELDS = ["swiss_rounds", "top_cut", "swiss_rounds_attendance", "top_cut_attendance"]


@dataclass(frozen=True)
class ShownPlan:
    """What the event page and the console say about the plan."""

    format: str
    swiss_rounds: int
    top_cut: int
    provisional: bool  # left blank and round 1 not paired yet: the table's numbers for today's check-ins
    attendance: int | None  # the checked-in count the table was read for (now, or at round 1); None: organizer's
    version: int  # the event's version, sent back by the console form
    teams: bool  # a team event: the attendance counts teams


def attendance(event: Event) -> int:
    """Who would be paired in round 1 now: entrants checked in (REG-3), not dropped, with the right to take
    part (REG-2); in a team event, the teams still in."""
    if event.is_team_event:
        return event.teams.filter(dropped_after_round__isnull=True).count()
    active = event.players.filter(dropped_after_round__isnull=True, checked_in_at__isnull=False)
    return active.filter(ineligible_reason="").count()


def _seated_in_round_one(event: Event) -> int | None:
    """How many entrants round 1 seated (byes included), or None before round 1 is paired."""
    first = event.rounds.filter(number=1).first()
    if first is None:
        return None
    if event.is_team_event:
        second = list(TeamMatch.objects.filter(round=first).values_list("team_b", flat=True))
    else:
        second = list(Match.objects.filter(round=first).values_list("player_b", flat=True))
    return len(second) + sum(1 for b in second if b is not None)


def _needs_table(event: Event) -> bool:
    fmt = event.format
    return (fmt != Event.Format.ELIMINATION and not event.swiss_rounds) or (
        fmt == Event.Format.SWISS_CUT and event.top_cut is None
    )


def _table_attendance(event: Event) -> int:
    """The count the table is read for: today's check-ins before round 1; once it is paired, the entrants it
    seated (an event stored before the numbers were fixed at round 1, or imported from such a file)."""
    seated = _seated_in_round_one(event)
    return attendance(event) if seated is None else seated


def _table_plan(event: Event, count: int) -> RoundPlan:
    fmt = progress.EventFormat(event.format)
    return progress.round_plan(fmt, event.ruleset, count, event.swiss_rounds, event.top_cut)


def current(event: Event) -> RoundPlan:
    """The plan in force: the stored numbers, and the table's for whatever is blank."""
    return _table_plan(event, _table_attendance(event) if _needs_table(event) else 0)


def shown(event: Event) -> ShownPlan:
    plan = current(event)
    provisional = _needs_table(event) and not event.rounds.exists()
    if provisional:
        count: int | None = attendance(event)
    else:
        count = event.swiss_rounds_attendance or event.top_cut_attendance
    return ShownPlan(
        event.format, plan.swiss_rounds, plan.top_cut, provisional, count, event.version, event.is_team_event
    )


def fix_at_round_one(event: Event, *, by: Actor) -> None:
    """Round 1 is being paired (inside its transaction, the event locked): store the table's numbers for
    whatever the organizer left blank, for the entrants checked in now, so that they stay."""
    if not _needs_table(event):
        return
    count = attendance(event)
    plan = _table_plan(event, count)
    before = fields_of(event, PLAN_FIELDS)
    if event.format != Event.Format.ELIMINATION and not event.swiss_rounds:
        event.swiss_rounds, event.swiss_rounds_attendance = plan.swiss_rounds, count
    if event.format == Event.Format.SWISS_CUT and event.top_cut is None:
        event.top_cut, event.top_cut_attendance = plan.top_cut, count
    save_and_log(
        event,
        actions.ROUND_PLAN_FIXED,
        actor=by,
        fields=PLAN_FIELDS,
        before=before,
        shown=PLAN_FIELDS,
        checked_in=count,
    )


def release_at_undo(event: Event) -> dict[str, int]:
    """Round 1 was undone: the numbers taken from the table at round 1 are blank again, to be read for
    whoever is checked in when it is paired again (the organizer's own numbers stay). Returns those
    released; the caller saves the event and logs the undo."""
    released: dict[str, int] = {}
    for field in ("swiss_rounds", "top_cut"):
        if getattr(event, f"{field}_attendance") is not None:
            released[field] = getattr(event, field)
            setattr(event, field, None)
            setattr(event, f"{field}_attendance", None)
    return released


def _facts(event: Event) -> progress.Progress:
    stages = list(event.rounds.values_list("stage", flat=True))
    bracket = sum(1 for s in stages if s == Round.Stage.ELIMINATION)
    plan = current(event)
    return progress.Progress(
        format=progress.EventFormat(event.format),
        swiss_rounds=plan.swiss_rounds,
        top_cut=plan.top_cut,
        swiss_played=len(stages) - bracket,
        elimination_played=bracket,
        closed=event.status == Event.Status.FINISHED,
    )


def set_event_format(
    event: Event, *, by: Actor, version: int, swiss_rounds: int | None, top_cut: int | None = None
) -> Event:
    """The organizer decides the Swiss rounds and the top cut again, on the event version they saw. Before
    round 1 a blank number means "from the table at round 1"; after it, both are numbers, no fewer Swiss
    rounds than already paired, and nothing changes once the top cut is made."""
    require_organizer(by, event)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.format == Event.Format.ELIMINATION:
            raise ServiceError("bad-field", field="swiss_rounds")
        if event.version != version:
            now = current(event)
            raise Conflict("round-plan-conflict", swiss_rounds=now.swiss_rounds, top_cut=now.top_cut)
        cut_applies = event.format == Event.Format.SWISS_CUT
        top_cut = top_cut if cut_applies else event.top_cut
        if event.rounds.exists() and (swiss_rounds is None or (cut_applies and top_cut is None)):
            raise ServiceError("round-plan-required")
        facts = _facts(event)
        wanted = progress.round_plan(facts.format, event.ruleset, attendance(event), swiss_rounds, top_cut)
        problem = progress.round_plan_problem(facts, wanted)
        if problem is not None:
            raise ServiceError(problem.code, **problem.params)
        before = fields_of(event, PLAN_FIELDS)
        if swiss_rounds != event.swiss_rounds:
            event.swiss_rounds, event.swiss_rounds_attendance = swiss_rounds, None
        if top_cut != event.top_cut:
            event.top_cut, event.top_cut_attendance = top_cut, None
        if fields_of(event, PLAN_FIELDS) == before:
            return event  # the same numbers again: nothing was decided differently
        save_and_log(
            event,
            actions.ROUND_PLAN_SET,
            actor=by,
            fields=PLAN_FIELDS,
            before=before,
            shown=PLAN_FIELDS,
        )
    return event
