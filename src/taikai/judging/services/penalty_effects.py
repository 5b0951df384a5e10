"""A penalty's effects, applied (PEN-1).

Where a duel or match loss lands: on the player's match being played, else on their next match; the judge may
choose (``lands_on``), and the choice is kept on the penalty and in the log. A match already confirmed changes
only by that explicit choice. A waiting one (``waiting_for_next_match``) is in the judges' queue until a judge
applies it to the next match.

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

from taikai.audit.services import fields_of, record
from taikai.core import penalties as core
from taikai.core import penalty_duels
from taikai.core.match_json import RecordFormatError, parse_report
from taikai.core.match_record import MatchRecord
from taikai.core.match_record import Player as MatchPlayer
from taikai.events.actors import Actor
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Player, current_match
from taikai.events.permissions import require_judge
from taikai.events.services import results as result_services
from taikai.events.services import rulings
from taikai.events.services.result_input import ResultInput
from taikai.judging import actions
from taikai.judging.models import PENALTY_FIELDS, Penalty
from taikai.judging.services import time_procedure


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


def apply_effects(
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
    _disqualify(penalty, by, fx)
    penalty.save()


def _disqualify(penalty: Penalty, by: Actor, fx: core.Effects) -> None:
    """PEN-1: a DQ drops the player; the effect keeps the drop before it, which an overturn gives back."""
    if not fx.drop:
        return
    flags = Player.objects.filter(pk=penalty.player_id).values_list("disqualified", "dropped_after_round").get()
    if flags[0]:
        return
    rulings.disqualify_player(penalty.player, by=by)
    penalty.effects = [*penalty.effects, {"kind": "drop", "player": penalty.player_id, "dropped_before": flags[1]}]


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
        fx = core.effects(penalty.event.ruleset.penalties, penalty.rung, max(1, penalty.downgrade_steps))
        if not _is_open(match, fx):
            raise ServiceError("no-pending-duel-loss")
        penalty.waiting_for_next_match = False
        if fx.duel_loss:  # after the duels the table holds (another waiting loss may have landed first)
            _duel_loss(penalty, by, match, None, time_called=False)
        else:
            _match_loss(penalty, by, match, "match-loss")
        penalty.save()
        record(actions.PENALTY_EFFECT, actor=by, obj=penalty, after=fields_of(penalty, PENALTY_FIELDS))
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


def apply_to_teammate(copy: Penalty, by: Actor, fx: core.Effects) -> None:
    """PEN-1, PEN-4: a team member's copy of a penalty: a DQ forfeits the teammate's seat match being played, so
    the team match settles, and disqualifies them."""
    match = current_match(copy.player)
    if fx.forfeits_open_match and landing_for(fx, match) is core.Landing.CURRENT:
        assert match is not None
        copy.lands_on = core.Landing.CURRENT.value
        _match_loss(copy, by, match, "dq-forfeit")
    _disqualify(copy, by, fx)
    copy.save()
