"""Issuing a penalty: the judge's rung checked against the ruleset, head-judge-only rungs (PEN-6), defaults and
reasons (PEN-7), the effects applied at once (``penalty_effects``, PEN-1, PEN-2) and the team's copies (PEN-4).
The violator's record and escalation: ``penalty_history``; overturn and withdrawal: ``penalty_reversal``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from taikai.audit.services import fields_of, record
from taikai.core import penalties as core
from taikai.events.actors import Actor, user_of
from taikai.events.errors import PermissionDenied, ServiceError
from taikai.events.models import Event, Match, Player, Team, current_match
from taikai.events.permissions import is_head_judge, require_judge
from taikai.events.services import clock as clock_services
from taikai.events.services import rulings
from taikai.events.services.decided_place import decided_place
from taikai.judging import actions
from taikai.judging.models import PENALTY_FIELDS, JudgeCall, Penalty, TimeProcedureRun
from taikai.judging.services.penalty_effects import apply_effects, apply_to_teammate
from taikai.judging.services.penalty_history import check_infraction, suggestion


def _time_was_called(match: Match | None) -> bool:
    """Time was called at this match (INF-20): a judge walked the table through the time procedure, a duel of
    its record was under time, or the table's round clock (with its extension, TIME-4) has run out."""
    if match is None or match.is_bye:
        return False
    if TimeProcedureRun.objects.filter(match=match).exists():
        return True
    stored = match.record or {}
    if stored.get("time_called_between_duels") or any(d.get("time_called") for d in stored.get("duels") or []):
        return True
    return clock_services.round_clock(match.round, extension=match.extension_seconds).status == "time"


def issue_penalty(
    event: Event,
    *,
    by: Actor,
    player: Player,
    infraction: str,
    rung: str | None = None,
    reason: str = "",
    description: str = "",
    downgrade_steps: int = 1,
    prior_duels: list[dict[str, Any]] | None = None,
    call: JudgeCall | None = None,
    lands_on: str | None = None,
    time_called: bool = False,
    intentional: bool = False,
) -> Penalty:
    """A judge issues a penalty; its effects apply at once (PEN-1, PEN-2, PEN-4). DQ or worse: head judge only.

    A duel or match loss lands on ``lands_on`` ("current": this round's match; "next": the player's next
    one); unset, on the match being played, else the next (``landing_for``). ``time_called``: time was
    called during the duel a duel loss falls on, where no time procedure runs at the table (INF-20).
    ``intentional``: the judge found the act intentional (故意に), which some defaults need (INF-5)."""
    require_judge(by, event)
    player = Player.objects.select_related("event").get(pk=player.pk)
    if player.event_id != event.pk:
        raise ServiceError("not-in-event")
    rules = event.ruleset.penalties
    check_infraction(rules, infraction)
    if core.needs_time_called(rules, infraction) and not (time_called or _time_was_called(current_match(player))):
        raise ServiceError("infraction-needs-time-called", infraction=infraction)  # INF-20 (CS 2.1 B)
    rung, default, reason = _chosen_rung(event, by, player, infraction, rung, reason, intentional, downgrade_steps)
    fx = core.effects(rules, rung, max(1, downgrade_steps))
    # CS 1.2 A: the prize decided at the time of the DQ, read before the write transaction (it reads the
    # whole event's placings), so the DQ's locks are held for its writes alone
    place = decided_place(event, player) if fx.drop else None
    with transaction.atomic():
        penalty = _create(event, by, player, infraction, rung, default, reason, description, fx, call)
        penalty.intentional = intentional
        if fx.drop:
            penalty.decided_place = place
        apply_effects(penalty, by, fx, prior_duels, lands_on, time_called)
        record(
            actions.PENALTY_ISSUED,
            actor=by,
            obj=penalty,
            after=fields_of(penalty, PENALTY_FIELDS),
            reason=reason.strip(),
        )
        if event.is_team_event and player.team_id and core.propagates_to_team(rules, rung):
            _propagate(penalty, by, fx)
    return penalty


def _chosen_rung(
    event: Event,
    by: Actor,
    player: Player,
    infraction: str,
    rung: str | None,
    reason: str,
    intentional: bool,
    downgrade_steps: int,
) -> tuple[str, str | None, str]:
    """The rung given (the judge's, else the suggestion), checked, with the ruleset's default and the reason for
    a rung other than the default (PEN-7; the suggested escalation is its own reason, PEN-5)."""
    rules = event.ruleset.penalties
    default = core.default_rung(rules, infraction, intentional)
    suggested = suggestion(event, player, infraction, intentional)
    rung = rung or suggested.rung
    if rung is None:
        raise ServiceError("rung-required")
    if rung not in rules.ladder:
        raise ServiceError("unknown-rung", rung=rung)
    if core.needs_head_judge(rules, rung) and not is_head_judge(by, event):
        raise PermissionDenied("not-head-judge")  # PEN-6, refused on the server whatever the page offered
    if rung != default and not reason.strip():
        if not (suggested.escalated and rung == suggested.rung):
            raise ServiceError("rung-reason-required", default=default or "-")
        reason = "PEN-5"  # the suggested escalation for a repeated infraction
    if rung in rules.downgrade_rungs and not core.downgrade_steps_allowed(rules, downgrade_steps):
        raise ServiceError("bad-downgrade-steps", most=core.most_downgrade_steps(rules))  # PEN-2
    return rung, default, reason


def _create(
    event: Event,
    by: Actor,
    player: Player,
    infraction: str,
    rung: str,
    default: str | None,
    reason: str,
    description: str,
    fx: core.Effects,
    call: JudgeCall | None,
    source: Penalty | None = None,
) -> Penalty:
    rules = event.ruleset.penalties
    return Penalty.objects.create(
        event=event,
        player=player,
        card_game_id=player.card_game_id,
        player_name=player.name,
        infraction=infraction,
        rung=rung,
        default_rung=default or "",
        rung_reason=reason.strip()[:2000],
        description=description.strip()[:4000],
        downgrade_steps=fx.downgrade_steps,
        prize_loss=fx.prize_loss,
        in_database=core.kept_in_database(rules, rung),
        call=call,
        team_source=source,
        decided_place=source.decided_place if source is not None else None,
        issued_by=user_of(by),
    )


def _propagate(source: Penalty, by: Actor, fx: core.Effects) -> None:
    """PEN-4 (CS 1.1): the whole team receives the same penalty."""
    assert source.player.team_id is not None  # PEN-4 propagates only from a team member
    team = Team.objects.select_for_update().get(pk=source.player.team_id)
    for member in team.members.exclude(pk=source.player_id):
        copy = _create(
            source.event,
            by,
            member,
            source.infraction,
            source.rung,
            source.default_rung,
            "PEN-4",
            source.description,
            fx,
            source.call,
            source=source,
        )
        apply_to_teammate(copy, by, fx)
        record(actions.PENALTY_ISSUED, actor=by, obj=copy, after=fields_of(copy, PENALTY_FIELDS))
    if fx.drop and team.dropped_after_round is None:
        rulings.drop_team(team, by=by, after_round=source.event.rounds.count())
        source.effects = [*source.effects, {"kind": "team-drop", "team": team.pk}]
        source.save()
