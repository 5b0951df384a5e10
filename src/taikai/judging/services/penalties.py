"""Penalties with automatic effects (PEN-1), head-judge-only rungs (PEN-6), defaults and reasons (PEN-7),
team propagation (PEN-4), and their reversal when an appeal overturns them.

Where a duel or match loss lands (PEN-1): on the player's match being played, else on their next match;
the judge may choose (``lands_on``), and the choice is kept on the penalty and in the log. A match already
confirmed changes only by that explicit choice. A waiting one (``waiting_for_next_match``) is in the
judges' queue until a judge applies it to the next match.

A duel loss is a duel won by the opponent (``core.penalties.with_duel_loss``) appended to the duels already
finished at the table (the judge gives them, or the match's record). While time is called at the table it
is a step of the time procedure instead, so it keeps the time state (INF-20 after time). A match loss, and
a DQ's forfeit of the match being played (a team DQ: every member's seat match), is
``core.penalties.lost_match``. A record that finishes the match goes through
``events.services.results.rule_result`` with a ``PEN-1`` reason (the team match settles, the last table
finishes the round); otherwise the partial record is kept on the match.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from taikai.audit.services import record
from taikai.core import penalties as core
from taikai.core import penalty_duels
from taikai.core.match import MatchRecord
from taikai.core.match import Player as MatchPlayer
from taikai.core.match_json import RecordFormatError, parse_report
from taikai.events.actors import Actor, user_of
from taikai.events.errors import PermissionDenied, ServiceError
from taikai.events.models import Event, Match, Player, StaffRole, Team
from taikai.events.permissions import HEAD_JUDGE_ROLES, is_head_judge, require_head_judge, require_judge
from taikai.events.services import participation, rulings
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from taikai.judging import actions
from taikai.judging.models import DatabaseRecord, JudgeCall, Penalty, TimeProcedureRun
from taikai.judging.services import time_procedure
from taikai.judging.services.common import current_match
from taikai.judging.services.prizes import decided_place


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
    rules = _rules(event)
    _check_infraction(rules, infraction)
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
    return round_services.round_clock(match.round, extension=match.extension_seconds).status == "time"


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
    rules = _rules(event)
    _check_infraction(rules, infraction)
    if core.needs_time_called(rules, infraction) and not (time_called or _time_was_called(current_match(player))):
        raise ServiceError("infraction-needs-time-called", infraction=infraction)  # INF-20 (CS 2.1 B)
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
    fx = core.effects(rules, rung, max(1, downgrade_steps))
    # CS 1.2 A: the prize decided at the time of the DQ, read before the write transaction (it reads the
    # whole event's placings), so the DQ's locks are held for its writes alone
    place = decided_place(event, player) if fx.drop else None
    with transaction.atomic():
        penalty = _create(event, by, player, infraction, rung, default, reason, description, fx, call)
        penalty.intentional = intentional
        if fx.drop:
            penalty.decided_place = place
        _apply(penalty, by, fx, prior_duels, lands_on, time_called)
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
    return penalty


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
        decided_place=source.decided_place if source is not None else None,
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
        "lands_on": p.lands_on,  # PEN-1: the judge's choice, or the rule's default
        "match": p.match_id,
        "waiting_for_next_match": p.waiting_for_next_match,
    }


def _loser(match: Match, player: Player) -> MatchPlayer:
    return MatchPlayer.A if match.side_of(player) == "a" else MatchPlayer.B


def _is_open(match: Match | None, fx: core.Effects) -> bool:
    """The match is being played (``Match.being_played``: no result reported, disputed or decided), for
    every kind of penalty alike: a finished match changes only by the judge's explicit choice (issue 22)."""
    return match is not None and match.being_played


def landing_for(fx: core.Effects, match: Match | None, chosen: str | None = None) -> core.Landing | None:
    """Where the penalty's duel or match loss lands: the judge's choice among what the rules allow, else the
    match being played, else the next one (PEN-1). A DQ's forfeit always falls on the match being played."""
    current = match is not None and not match.is_bye
    if not fx.changes_result or not chosen:
        return core.landing(fx, open_match=_is_open(match, fx))
    try:
        landing = core.Landing(chosen)
    except ValueError as exc:
        raise ServiceError("bad-choice", field="lands_on", value=chosen) from exc
    if landing not in core.landings(fx, current_match=current, open_match=_is_open(match, fx)):
        raise ServiceError(f"penalty-lands-{landing.value}-impossible")
    return landing


def _apply(
    penalty: Penalty,
    by: Actor,
    fx: core.Effects,
    prior_duels: list[dict[str, Any]] | None,
    lands_on: str | None,
    time_called: bool,
) -> None:
    player = penalty.player
    match = current_match(player)
    landing = landing_for(fx, match, lands_on)
    penalty.lands_on = landing.value if landing else ""
    if landing is core.Landing.NEXT:
        penalty.waiting_for_next_match = True  # the judges' queue shows it until the next match exists
        penalty.match = match
    elif landing is core.Landing.CURRENT:
        assert match is not None
        if fx.duel_loss:
            _duel_loss(penalty, by, match, prior_duels, time_called)
        else:
            _match_loss(penalty, by, match, "match-loss" if fx.match_loss else "dq-forfeit", prior_duels)
    if fx.drop and not Player.objects.get(pk=player.pk).disqualified:
        was_dropped = Player.objects.get(pk=player.pk).dropped_after_round
        participation.disqualify_player(player, by=by)
        penalty.effects = [*penalty.effects, {"kind": "drop", "player": player.pk, "dropped_before": was_dropped}]
    penalty.save()


def _save_result(
    penalty: Penalty, by: Actor, match: Match, record_: MatchRecord, what: str, played: dict[str, Any] | None = None
) -> None:
    """The events app writes the table (``events.services.rulings``); the effect keeps before and after.
    ``played``: the duels played before a match loss, which the table held only at the table: the effect keeps
    them as the table's record before, so an overturn plays on from them (PEN-6)."""
    before = rulings.snapshot(match)
    if played is not None:
        before = {**before, "record": played}
    loser = _loser(match, penalty.player).value
    if what == "duel-loss":
        m = rulings.record_penalty_duel(match, by=by, record_=record_, loser=loser, penalty=str(penalty.pk))
    else:
        m = rulings.decide_by_penalty(match, by=by, record_=record_, loser=loser, penalty=str(penalty.pk), what=what)
    after = rulings.snapshot(m)
    _landed(penalty, by, m, {"kind": "result", "match": match.pk, "before": before, "after": after}, what)


def _landed(penalty: Penalty, by: Actor, m: Match, effect: dict[str, Any], what: str) -> None:
    penalty.match = m
    penalty.effects = [*penalty.effects, effect]
    before, after = effect["before"], effect["after"]
    record(actions.PENALTY_EFFECT, actor=by, event_id=penalty.event_id, obj=m, before=before, after=after, what=what)


def _duel_loss(
    penalty: Penalty, by: Actor, match: Match, prior_duels: list[dict[str, Any]] | None, time_called: bool
) -> None:
    loser = _loser(match, penalty.player)
    run = time_procedure.running(match)
    if run is not None:  # INF-20 after time (CS 2.1 B): the duel under time is lost with its time state
        before = rulings.snapshot(match)
        step = time_procedure.penalty_duel_loss(run, by=by, loser=loser.value)
        m = Match.objects.get(pk=match.pk)
        effect = {"kind": "time-procedure", "match": m.pk, "run": run.pk, "step": step, "before": before}
        _landed(penalty, by, m, {**effect, "after": rulings.snapshot(m)}, "duel-loss")
        return
    known = {"duels": prior_duels} if prior_duels is not None else (match.record or {})
    try:
        so_far = parse_report({"duels": known.get("duels") or [], "opening": known.get("opening")})
    except RecordFormatError as exc:
        raise ServiceError(exc.problem.code, **exc.problem.params) from exc
    before_penalty = MatchRecord(match.round.format, so_far.duels, so_far.time_called_between_duels, so_far.opening)
    played = core.with_duel_loss(before_penalty, loser, time_called=time_called)
    _save_result(penalty, by, match, played, "duel-loss")


def apply_pending_penalty(penalty: Penalty, *, by: Actor) -> Penalty:
    """Apply a waiting duel loss to the player's next match (the duel after those it holds), or a waiting
    match loss to that match (PEN-1)."""
    require_judge(by, penalty.event)
    with transaction.atomic():
        penalty = Penalty.objects.select_for_update(of=("self",)).select_related("player", "event").get(pk=penalty.pk)
        match = current_match(penalty.player)
        if not penalty.waiting_for_next_match or penalty.overturned or match is None or match.pk == penalty.match_id:
            raise ServiceError("no-pending-duel-loss")
        fx = core.effects(_rules(penalty.event), penalty.rung, max(1, penalty.downgrade_steps))
        if not _is_open(match, fx):
            raise ServiceError("no-pending-duel-loss")
        penalty.waiting_for_next_match = False
        if fx.duel_loss:  # after the duels the table holds (another waiting loss may have landed first)
            _duel_loss(penalty, by, match, None, time_called=False)
        else:
            _match_loss(penalty, by, match, "match-loss")
        penalty.save()
        record(actions.PENALTY_EFFECT, actor=by, event_id=penalty.event_id, obj=penalty, after=_penalty_state(penalty))
    return penalty


def pending_penalties(event: Event) -> list[Penalty]:
    """Duel and match losses waiting for the player's next match, once that match exists."""
    out = []
    waiting = Penalty.objects.filter(event=event, waiting_for_next_match=True, overturned=False)
    for p in waiting.select_related("player"):
        match = current_match(p.player)
        if match is not None and match.pk != p.match_id and not match.is_bye and match.status == Match.Status.PENDING:
            out.append(p)
    return out


def _played_before(match: Match, prior_duels: list[dict[str, Any]] | None) -> dict[str, Any] | None:
    """The duels the judge says were played at a table being played, as its record (checked as a report is:
    readable, and holding the duels earlier penalties decided)."""
    if prior_duels is None or not match.being_played:
        return None
    data = ResultInput.from_json({"duels": prior_duels})
    result_services.keeps_penalty_duels(match, data)
    return data.stored()


def _match_loss(
    penalty: Penalty, by: Actor, match: Match, what: str, prior_duels: list[dict[str, Any]] | None = None
) -> None:
    """PEN-1: the match is lost (a match loss; a DQ's forfeit of the match being played). A finished match
    gets here only by the judge's explicit choice, and its old result stays in the effect and the log. The
    table's penalty duels stay at their places (``core.penalties.lost_match``)."""
    time_procedure.close(match, by=by)
    fixed = penalty_duels.read(Match.objects.get(pk=match.pk).penalty_duels)
    lost = core.lost_match(match.round.format, _loser(match, penalty.player), penalty.event.ruleset, fixed)
    _save_result(penalty, by, match, lost, what, _played_before(match, prior_duels))


def _forfeit_open_match(copy: Penalty, by: Actor, fx: core.Effects) -> None:
    """PEN-1, PEN-4: a team DQ forfeits each member's seat match being played, so the team match settles."""
    match = current_match(copy.player)
    if fx.forfeits_open_match and landing_for(fx, match) is core.Landing.CURRENT:
        assert match is not None
        copy.lands_on = core.Landing.CURRENT.value
        _match_loss(copy, by, match, "dq-forfeit")


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
        _forfeit_open_match(copy, by, fx)
        if fx.drop and not member.disqualified:
            was_dropped = member.dropped_after_round
            participation.disqualify_player(member, by=by)
            copy.effects = [*copy.effects, {"kind": "drop", "player": member.pk, "dropped_before": was_dropped}]
        copy.save()
        record(actions.PENALTY_ISSUED, actor=by, event_id=source.event_id, obj=copy, after=_penalty_state(copy))
    if fx.drop and team.dropped_after_round is None:
        rulings.drop_team(team, by=by, after_round=source.event.rounds.count())
        source.effects = [*source.effects, {"kind": "team-drop", "team": team.pk}]
        source.save()


def reverse_penalty(penalty: Penalty, *, by: Actor, how: str = "overturn") -> Penalty:
    """Undo a penalty's effects (an appeal overturned it, or the head judge withdrew it: ``how``): results
    restored, drops undone, all logged. PEN-6: overturning is the head judge's decision, so only the head
    judge reverses a penalty."""
    require_head_judge(by, penalty.event)
    with transaction.atomic():
        penalty = Penalty.objects.select_for_update(of=("self",)).select_related("event").get(pk=penalty.pk)
        if penalty.overturned:
            raise ServiceError("already-overturned")
        for effect in reversed(penalty.effects):
            _undo(penalty, by, effect, how)
        penalty.overturned, penalty.overturned_at = True, timezone.now()
        penalty.waiting_for_next_match = False
        penalty.save()
        for copy in penalty.team_copies.filter(overturned=False):
            reverse_penalty(copy, by=by, how=how)
    return penalty


def issued_by_head_judge(penalty: Penalty) -> bool:
    """The penalty (for a team copy: the member's penalty it copies) is a head judge's own ruling (CS 3)."""
    source = penalty.team_source or penalty
    return (
        source.issued_by_id is not None
        and StaffRole.objects.filter(
            event_id=penalty.event_id, user_id=source.issued_by_id, role__in=HEAD_JUDGE_ROLES
        ).exists()
    )


def withdraw_penalty(penalty: Penalty, *, by: Actor, reason: str) -> Penalty:
    """PEN-6: the head judge withdraws a penalty of their own (a DQ given by a mis-tap, a ruling they take
    back). Their ruling cannot be appealed (CS 3: appeals go to the head judge against the other judges), so
    this is the one way back: logged with its reason, never an appeal. Its effects are undone on the
    correction path as an overturn's are: the table returns to what it held before the penalty, a DQ is
    lifted, the team's copies go with it, and the players are told it was withdrawn."""
    require_head_judge(by, penalty.event)
    if not reason.strip():
        raise ServiceError("reason-required")
    source = penalty.team_source or penalty
    if not issued_by_head_judge(source):
        raise ServiceError("withdraw-not-head-judge-ruling")  # another judge's ruling: the player appeals it
    with transaction.atomic():
        locked = Penalty.objects.select_for_update(of=("self",)).get(pk=source.pk)
        if locked.overturned:
            raise ServiceError("already-overturned")
        before = _penalty_state(locked)
        reverse_penalty(locked, by=by, how="withdrawal")
        locked.refresh_from_db()
        record(
            actions.PENALTY_WITHDRAWN,
            actor=by,
            event_id=locked.event_id,
            obj=locked,
            before=before,
            after=_penalty_state(locked),
            reason=reason.strip()[:2000],
        )
    return locked


def _undo(penalty: Penalty, by: Actor, effect: dict[str, Any], how: str = "overturn") -> None:
    kind = effect["kind"]
    if kind == "time-procedure":  # the penalty's step goes, with the steps after it
        run = TimeProcedureRun.objects.filter(pk=effect["run"]).first()
        if run is not None:
            time_procedure.take_back(run, by=by, step=effect["step"])
    if kind in ("result", "time-procedure"):
        m = Match.objects.select_related("round__event", "player_a", "player_b").get(pk=effect["match"])
        restored = rulings.restore_result(m, by=by, before=effect["before"], penalty=str(penalty.pk), how=how)
        after = rulings.snapshot(restored)
        record(actions.EFFECT_REVERSED, actor=by, event_id=penalty.event_id, obj=m, before=effect["after"], after=after)
    elif kind == "drop":
        p = Player.objects.select_related("event").get(pk=effect["player"])
        rulings.lift_disqualification(p, by=by, dropped_before=effect.get("dropped_before"), how=how)
        record(
            actions.EFFECT_REVERSED,
            actor=by,
            event_id=penalty.event_id,
            obj=p,
            before={"disqualified": True},
            after={"disqualified": False},
        )
    elif kind == "team-drop":
        t = Team.objects.select_related("event").get(pk=effect["team"])
        rulings.undrop_team(t, by=by)
        record(
            actions.EFFECT_REVERSED,
            actor=by,
            event_id=penalty.event_id,
            obj=t,
            before={"team_dropped": True},
            after={"team_dropped": False},
        )
