"""Penalties with automatic effects (PEN-1), head-judge-only rungs (PEN-6), defaults and reasons (PEN-7),
team propagation (PEN-4), and their reversal when an appeal overturns them.

How a duel loss is represented (PEN-1): a ``{"winner": <opponent>, "penalty": <id>}`` duel appended to the
record of the player's current match while it is still being played (status ``pending``): the judge gives
the duels already finished at the table. If that finishes the match, the result is entered through
``events.services.results.correct_result`` with a ``PEN-1`` reason; otherwise the partial record is kept on
the match. If the current match is already over, the duel loss waits (``pending_duel_loss``) for the first
duel of the player's next match, and the judges' queue shows it until a judge applies it.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from taikai.audit.services import record
from taikai.core import penalties as core
from taikai.events.actors import Actor, user_of
from taikai.events.errors import PermissionDenied, ServiceError
from taikai.events.models import Event, Match, Player, Team, as_dict
from taikai.events.permissions import is_head_judge, require_head_judge, require_judge
from taikai.events.services import players as player_services
from taikai.events.services.results import ResultInput, correct_result, outcome_of
from taikai.events.signals import penalty_issued, player_disqualified, send_on_commit
from taikai.judging import actions
from taikai.judging.models import DatabaseRecord, JudgeCall, Penalty
from taikai.judging.services.common import current_match, restore, snapshot


def _rules(event: Event) -> Any:
    return event.ruleset.penalties


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
            }
        )
    return rows


def suggestion(event: Event, player: Player, infraction: str) -> core.Suggestion:
    """The rung to pre-fill: the ruleset default, escalated for a repeat (PEN-5, INF-21)."""
    rules = _rules(event)
    _check_infraction(rules, infraction)
    earlier = [r["rung"] for r in history(player.card_game_id, event=event, infraction=infraction)]
    same_event = Penalty.objects.filter(event=event, player=player, infraction=infraction, overturned=False)
    for p in same_event.filter(in_database=False):
        if core.counts_for_escalation(rules, infraction, p.rung, same_event=True):
            earlier.append(p.rung)
    return core.suggest(rules, infraction, [r for r in earlier if r in rules.ladder])


def _check_infraction(rules: Any, infraction: str) -> None:
    try:
        rules.infraction(infraction)
    except KeyError as exc:
        raise ServiceError("unknown-infraction", infraction=infraction) from exc


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
) -> Penalty:
    """A judge issues a penalty; its effects apply at once (PEN-1, PEN-2, PEN-4). DQ or worse: head judge only."""
    require_judge(by, event)
    player = Player.objects.select_related("event").get(pk=player.pk)
    if player.event_id != event.pk:
        raise ServiceError("not-in-event")
    rules = _rules(event)
    _check_infraction(rules, infraction)
    default = core.default_rung(rules, infraction)
    suggested = suggestion(event, player, infraction)
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
    fx = core.effects(rules, rung, max(1, downgrade_steps))
    with transaction.atomic():
        penalty = _create(event, by, player, infraction, rung, default, reason, description, fx, call)
        _apply(penalty, by, fx, prior_duels)
        record(
            actions.PENALTY_ISSUED,
            actor=by,
            event_id=event.pk,
            obj=penalty,
            after=_penalty_state(penalty),
            reason=reason.strip(),
        )
        if event.is_team_event and player.team_id and core.propagates_to_team(rules, rung):
            _propagate(penalty, by, fx)
        _announce(penalty, fx, by)
    return penalty


def _announce(penalty: Penalty, fx: core.Effects, by: Actor) -> None:
    """Tell the apps that care, once the penalty is committed (taikai.events.signals)."""
    kw = {"event_id": penalty.event_id, "penalty_id": penalty.pk, "player_id": penalty.player_id, "rung": penalty.rung}
    send_on_commit(penalty_issued, sender=Penalty, actor=by, **kw)
    if fx.drop:  # PEN-1: a disqualification removes the player from the event
        send_on_commit(player_disqualified, sender=Penalty, actor=by, **kw)


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
    rules = _rules(event)
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
        issued_by=user_of(by),
    )


def _penalty_state(p: Penalty) -> dict[str, Any]:
    return {
        "player": p.player_id,
        "card_game_id": p.card_game_id,
        "infraction": p.infraction,
        "rung": p.rung,
        "default_rung": p.default_rung,
        "downgrade_steps": p.downgrade_steps,
        "prize_loss": p.prize_loss,
        "effects": p.effects,
        "overturned": p.overturned,
    }


def _apply(penalty: Penalty, by: Actor, fx: core.Effects, prior_duels: list[dict[str, Any]] | None) -> None:
    player = penalty.player
    if fx.duel_loss:
        _duel_loss(penalty, by, prior_duels)
    if fx.match_loss:
        _match_loss(penalty, by)
    if fx.drop and not Player.objects.get(pk=player.pk).dropped:
        player_services.drop_player(player, by=by, disqualified=True)
        penalty.effects = [*penalty.effects, {"kind": "drop", "player": player.pk}]
    penalty.save()


def _opponent_side(match: Match, player: Player) -> str:
    return "B" if match.side_of(player) == "a" else "A"


def _save_result(penalty: Penalty, by: Actor, match: Match, duels: list[dict[str, Any]], what: str) -> None:
    before = snapshot(match)
    data = ResultInput(tuple(duels))
    try:
        outcome_of(match, data)
    except ServiceError as exc:
        if exc.problem.code != "match-not-finished":
            raise
        # The match goes on: keep the duels so far, the penalty duel included.
        m = Match.objects.select_for_update().get(pk=match.pk)
        m.record = data.stored()
        m.version += 1
        m.save()
        after = snapshot(m)
    else:
        m = correct_result(match, by=by, result=data, reason=f"PEN-1 {what} (penalty {penalty.pk})")
        after = snapshot(m)
    penalty.match = match
    penalty.effects = [*penalty.effects, {"kind": "result", "match": match.pk, "before": before, "after": after}]
    record(actions.PENALTY_EFFECT, actor=by, event_id=penalty.event_id, obj=m, before=before, after=after, what=what)


def _duel_loss(penalty: Penalty, by: Actor, prior_duels: list[dict[str, Any]] | None) -> None:
    match = current_match(penalty.player)
    if match is None or match.is_bye or match.status != Match.Status.PENDING:
        penalty.pending_duel_loss = True  # the first duel of the next match (PEN-1)
        penalty.match = match
        return
    known = (match.record or {}).get("duels") or []
    duels = list(prior_duels) if prior_duels is not None else list(known)
    duels.append({"winner": _opponent_side(match, penalty.player)})
    _save_result(penalty, by, match, duels, "duel-loss")


def apply_pending_duel_loss(penalty: Penalty, *, by: Actor) -> Penalty:
    """Apply a waiting duel loss to the first duel of the player's next match (PEN-1)."""
    require_judge(by, penalty.event)
    with transaction.atomic():
        penalty = Penalty.objects.select_for_update(of=("self",)).select_related("player", "event").get(pk=penalty.pk)
        match = current_match(penalty.player)
        if not penalty.pending_duel_loss or penalty.overturned or match is None or match.pk == penalty.match_id:
            raise ServiceError("no-pending-duel-loss")
        if match.is_bye or match.status != Match.Status.PENDING:
            raise ServiceError("no-pending-duel-loss")
        penalty.pending_duel_loss = False
        _save_result(penalty, by, match, [{"winner": _opponent_side(match, penalty.player)}], "duel-loss")
        penalty.save()
    return penalty


def pending_duel_losses(event: Event) -> list[Penalty]:
    """Duel losses waiting for the player's next match, once that match exists."""
    out = []
    for p in Penalty.objects.filter(event=event, pending_duel_loss=True, overturned=False).select_related("player"):
        match = current_match(p.player)
        if match is not None and match.pk != p.match_id and match.status == Match.Status.PENDING:
            out.append(p)
    return out


def _match_loss(penalty: Penalty, by: Actor) -> None:
    match = current_match(penalty.player)
    if match is None or match.is_bye:
        raise ServiceError("no-current-match")
    wins = penalty.event.ruleset.match.duels_to_win
    duels = [{"winner": _opponent_side(match, penalty.player)} for _ in range(wins)]
    _save_result(penalty, by, match, duels, "match-loss")


def _propagate(source: Penalty, by: Actor, fx: core.Effects) -> None:
    """PEN-4 (CS 1.1): the whole team receives the same penalty."""
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
        if fx.drop and not member.dropped:
            player_services.drop_player(member, by=by)
            copy.effects = [{"kind": "drop", "player": member.pk}]
            copy.save()
        record(actions.PENALTY_ISSUED, actor=by, event_id=source.event_id, obj=copy, after=_penalty_state(copy))
        _announce(copy, fx, by)
    if fx.drop and team.dropped_after_round is None:
        before = {"dropped_after_round": None}
        team.dropped_after_round = source.event.rounds.count()
        team.save()
        source.effects = [*source.effects, {"kind": "team-drop", "team": team.pk}]
        source.save()
        record(
            actions.PENALTY_EFFECT,
            actor=by,
            event_id=source.event_id,
            obj=team,
            before=before,
            after={"dropped_after_round": team.dropped_after_round},
        )


def reverse_penalty(penalty: Penalty, *, by: Actor) -> Penalty:
    """Undo a penalty's effects (an appeal overturned it): results restored, drops undone, all logged.
    PEN-6: overturning is the head judge's decision, so only the head judge reverses a penalty."""
    require_head_judge(by, penalty.event)
    with transaction.atomic():
        penalty = Penalty.objects.select_for_update(of=("self",)).select_related("event").get(pk=penalty.pk)
        if penalty.overturned:
            raise ServiceError("already-overturned")
        for effect in reversed(penalty.effects):
            _undo(penalty, by, effect)
        penalty.overturned, penalty.overturned_at = True, timezone.now()
        penalty.pending_duel_loss = False
        penalty.save()
        for copy in penalty.team_copies.filter(overturned=False):
            reverse_penalty(copy, by=by)
    return penalty


def _undo(penalty: Penalty, by: Actor, effect: dict[str, Any]) -> None:
    kind = effect["kind"]
    if kind == "result":
        m = Match.objects.select_for_update().get(pk=effect["match"])
        before = snapshot(m)
        restore(m, effect["before"])
        m.save()
        record(actions.EFFECT_REVERSED, actor=by, event_id=penalty.event_id, obj=m, before=before, after=snapshot(m))
    elif kind == "drop":
        p = Player.objects.select_for_update().get(pk=effect["player"])
        before = as_dict(p, ["dropped_after_round"])
        p.dropped_after_round = None
        p.version += 1
        p.save()
        record(
            actions.EFFECT_REVERSED,
            actor=by,
            event_id=penalty.event_id,
            obj=p,
            before=before,
            after=as_dict(p, ["dropped_after_round"]),
        )
    elif kind == "team-drop":
        t = Team.objects.select_for_update().get(pk=effect["team"])
        before = {"dropped_after_round": t.dropped_after_round}
        t.dropped_after_round = None
        t.save()
        record(
            actions.EFFECT_REVERSED,
            actor=by,
            event_id=penalty.event_id,
            obj=t,
            before=before,
            after={"dropped_after_round": None},
        )
