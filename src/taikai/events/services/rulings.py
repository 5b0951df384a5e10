"""What a judge's decision does to the event's rows (PEN-1, PEN-4, PEN-6), written by the events app alone.

The judging app decides (a penalty, an appeal's overturn) and asks for the change here: the match's duels by
penalty, a result restored, a player disqualified or the disqualification lifted, a team dropped or back. Each
bumps the row's version, logs before and after, and tells the players it affects (``notices``). Rows of the
events app are written by its own services only (``tests/test_row_owners.py``).

"Finished" has one meaning (``Match.being_played``): a result was reported, disputed or decided. A finished
match changes only through the correction path (``results.rule_result``, logged as a correction and flagged in
the judges' queue); an overturn never reopens a match whose round is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q

from taikai.audit.services import fields_of, record, save_and_log
from taikai.core import open_match, penalty_duels
from taikai.core.match_record import MatchRecord
from taikai.core.match_record import Player as Side
from taikai.core.open_match import Ruling
from taikai.core.penalties import head_judge_required
from taikai.events import actions, signals
from taikai.events.actors import Actor
from taikai.events.errors import ServiceError
from taikai.events.models import Match, Player, Round, Team
from taikai.events.permissions import require_head_judge, require_judge
from taikai.events.services import notices
from taikai.events.services.registration import PLAYER_FIELDS
from taikai.events.services.result_input import ResultInput, outcome_of
from taikai.events.services.results import decide_by_leaving, rule_result

MATCH_FIELDS = [
    "status", "record", "result", "duel_wins_a", "duel_wins_b", "duel_draws", "basis", "penalty_duels", "ruling"
]  # fmt: skip


def snapshot(m: Match) -> dict[str, Any]:
    """The table's result fields, as an effect or the log keeps them (``ruling`` only where one stood)."""
    out = {name: getattr(m, name) for name in MATCH_FIELDS}
    if not out["ruling"]:
        del out["ruling"]
    return out


def _locked(match: Match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__event", "player_a", "player_b")
        .get(pk=match.pk)
    )


def record_penalty_duel(match: Match, *, by: Actor, record_: MatchRecord, loser: str, penalty: str) -> Match:
    """PEN-1: a duel lost by penalty, the last duel of ``record_`` (the duels so far, then the penalty duel).

    The duel becomes a fact of the table that every later report keeps (``core.penalty_duels``). A record that
    finishes the match decides it (``rule_result``); otherwise the duels so far stay and the match goes on."""
    require_judge(by, match.round.event)
    data = ResultInput.from_record(record_)
    entry = penalty_duels.PenaltyDuel(len(record_.duels), Side(loser.upper()), penalty)
    with transaction.atomic():
        m = _locked(match)
        if not m.being_played:
            raise ServiceError("penalty-lands-current-impossible")  # finished: only a correction changes it
        before = snapshot(m)
        m.penalty_duels = [*m.penalty_duels, entry.stored()]
        try:
            outcome_of(m, data)
        except ServiceError as exc:
            if exc.problem.code != "match-not-finished":
                raise
            m.record = data.stored()  # the match goes on with the duels so far, the penalty duel included
            finishes = False
        else:
            finishes = True
        save_and_log(
            m,
            actions.PENALTY_DUEL_RECORDED,
            actor=by,
            fields=["penalty_duels", "record"],
            before=before,
            after=snapshot(m),
            duel=entry.duel,
            penalty=penalty,
        )
        if finishes:
            m = rule_result(m, by=by, result=data, reason=f"PEN-1 duel-loss (penalty {penalty})")
        notices.tell_both(m, "penalty-duel", number=entry.duel, loser=loser.lower(), penalty=penalty)
    return m


def decide_by_penalty(match: Match, *, by: Actor, record_: MatchRecord, loser: str, penalty: str, what: str) -> Match:
    """PEN-1: a match loss (``what`` "match-loss") or a DQ's forfeit ("dq-forfeit") decides the table. A
    finished table gets here only by the judge's explicit choice, and then as a correction: the old result
    stays in the log, the judges' queue is told, and so are both players."""
    data = ResultInput.from_record(record_)
    with transaction.atomic():
        m = rule_result(match, by=by, result=data, reason=f"PEN-1 {what} (penalty {penalty})", ruling=what)
        notices.tell_both(m, what, loser=loser.lower(), penalty=penalty)
    return m


def restore_result(match: Match, *, by: Actor, before: dict[str, Any], penalty: str, how: str = "overturn") -> Match:
    """PEN-6: an overturned penalty's effect on a table is taken back, on the correction path. ``how``:
    "overturn" (an appeal) or "withdrawal" (the head judge withdrew their own penalty); the players' notices
    and the log say which.

    - The table was being played when the penalty landed and its round is still the event's last: it is
      played on from the duels played before the penalty (kept, never wiped), its round open again.
    - The table held a confirmed result before the penalty: that result is restored as a correction.
    - The table held a report or a dispute and its round is still the last: it is put back as it was (the
      opponent confirms, or the judges settle the dispute), never confirmed by the overturn.
    - A table whose overturned penalty duel has another penalty duel after it (still being played, or decided
      by that later penalty duel): the record and any result stay (the later penalty duel keeps its place; the
      overturned one is an ordinary duel again), and the judges' queue is asked to rule on that duel; both
      players are told. Rewinding would drop the later one (PEN-1: a record holds every penalty duel).
    - Otherwise (the round is over and no result stood before): nothing changes silently. The result stays,
      the judges' queue is asked to decide it by a correction, and both players are told."""
    require_head_judge(by, match.round.event)
    with transaction.atomic():
        m = _locked(match)
        notices.close_superseded(m, penalty=penalty)  # the notices of the penalty give way to the overturn's
        kept = [p for p in m.penalty_duels if str(p.get("penalty")) != str(penalty)]
        undo = _Undo(penalty, how)
        if before.get("status") == Match.Status.CONFIRMED and before.get("record"):
            return _restore_decided(m, by, before, kept, undo)
        if _has_later_penalty_duel(m, kept, penalty):
            return _to_decide(m, by, kept, undo, "the duel it decided needs a ruling", "duel-to-rule")
        if _round_is_last(m):  # being played, or reported or disputed (END-4): back to that, never confirmed
            return _reopen(m, by, before, kept, undo)
        return _to_decide(m, by, kept, undo, "the result of a finished round needs a correction", "result-stays")


@dataclass(frozen=True)
class _Undo:
    """Which penalty's effect is taken back, and how: "overturn" (an appeal) or "withdrawal" (PEN-6)."""

    penalty: str
    how: str

    def notice(self, what: str) -> str:
        """The notice kind: ``overturned-…`` or ``withdrawn-…`` (``notice_texts``)."""
        return f"{'withdrawn' if self.how == 'withdrawal' else 'overturned'}-{what}"

    @property
    def words(self) -> str:
        return "withdrawn by the head judge" if self.how == "withdrawal" else "overturned"


def _has_later_penalty_duel(m: Match, kept: list[Any], penalty: str) -> bool:
    mine = [int(p["duel"]) for p in m.penalty_duels if str(p.get("penalty")) == str(penalty)]
    return bool(mine) and any(int(p["duel"]) > min(mine) for p in kept)


def _to_decide(m: Match, by: Actor, kept: list[Any], undo: _Undo, why: str, notice: str) -> Match:
    """The overturn changes no result by itself: the penalty duel is no longer a fixed fact, the judges' queue
    is asked to decide, and both players are told (inside the caller's transaction)."""
    old = snapshot(m)
    m.penalty_duels = kept
    reason = f"PEN-6 penalty {undo.penalty} {undo.words}: {why}"
    heard = {"event_id": m.round.event_id, "match_id": m.pk, "reason": reason, "actor": by}
    save_and_log(
        m,
        actions.RESULT_TO_DECIDE,
        actor=by,
        fields=["penalty_duels"],
        before=old,
        after=snapshot(m),
        announce=[(signals.result_needs_decision, heard)],
        penalty=undo.penalty,
        how=undo.how,
    )
    notices.tell_both(m, undo.notice(notice))
    return m


def _restore_decided(m: Match, by: Actor, before: dict[str, Any], kept: list[Any], undo: _Undo) -> Match:
    m.penalty_duels = kept
    m.save(update_fields=["penalty_duels"])
    data = ResultInput.from_json({k: v for k, v in before["record"].items() if k != "rules"})
    reason = f"PEN-6 penalty {undo.penalty} {undo.words}"
    restored = rule_result(m, by=by, result=data, reason=reason, cause=undo.how, ruling=before.get("ruling", ""))
    notices.tell_both(restored, undo.notice("result-restored"))
    return restored


def _round_is_last(m: Match) -> bool:
    rnd: Round = m.round
    later = Round.objects.filter(event_id=rnd.event_id, number__gt=rnd.number).exists()
    return not later and rnd.event.status != rnd.event.Status.FINISHED


def _reopen(m: Match, by: Actor, before: dict[str, Any], kept: list[Any], undo: _Undo) -> Match:
    """The table is back to what it held before the penalty (played on, or its report or dispute); its round,
    finished by it, opens again."""
    old = snapshot(m)
    m.status, m.record, m.result = before.get("status") or Match.Status.PENDING, before.get("record"), ""
    m.duel_wins_a = m.duel_wins_b = m.duel_draws = 0
    m.basis, m.penalty_duels, m.ruling = "", kept, ""
    if m.status != Match.Status.PENDING:
        m.result, m.basis = before.get("result", ""), before.get("basis", "")
        m.ruling = before.get("ruling", "")
        m.duel_wins_a, m.duel_wins_b = before.get("duel_wins_a", 0), before.get("duel_wins_b", 0)
        m.duel_draws = before.get("duel_draws", 0)
    disputed = {"event_id": m.round.event_id, "match_id": m.pk, "player_id": None, "actor": by,
                "before_status": old["status"]}  # fmt: skip
    save_and_log(
        m,
        actions.RESULT_REOPENED,
        actor=by,
        fields=MATCH_FIELDS,
        before=old,
        after=snapshot(m),
        # END-4: the dispute the penalty had settled goes back to a judge
        announce=[(signals.result_disputed, disputed)] if m.status == Match.Status.DISPUTED else [],
        penalty=undo.penalty,
        how=undo.how,
    )
    rnd = Round.objects.select_for_update().get(pk=m.round_id)
    if rnd.status == Round.Status.FINISHED:
        was = fields_of(rnd, ["status", "version"])
        rnd.status = Round.Status.STARTED if rnd.started_at else Round.Status.PAIRED
        save_and_log(
            rnd,
            actions.ROUND_REOPENED,
            actor=by,
            fields=["status"],
            before=was,
            shown=["status", "version"],
            number=rnd.number,
        )
        m.round = rnd
    if m.status == Match.Status.PENDING:
        notices.tell_both(m, undo.notice("match-reopened"))
        return m
    notices.tell_both(m, undo.notice("result-restored"))
    return m


def end_open_match(player: Player, *, by: Actor, ruling: Ruling) -> Match | None:
    """The player leaves the event (a drop, REG-2) while their table is being played: the match ends as
    ``core.open_match`` reads the rules (the opponent wins), on the correction path, so the round is not left
    waiting for it; both players are told in words. Inside the caller's transaction, which checked who may
    remove the player. None: no table of theirs was being played."""
    rnd = Round.objects.filter(event_id=player.event_id).order_by("-number").first()
    if rnd is None:
        return None
    seats = Match.objects.filter(round=rnd, is_bye=False).filter(Q(player_a=player) | Q(player_b=player))
    m = seats.select_related("round__event", "player_a", "player_b").first()
    if m is None or not m.being_played:
        return None  # reported, disputed or decided: the players' or the judges' result stands (END-3)
    leaver = Side.A if m.player_a_id == player.pk else Side.B
    fixed = penalty_duels.read(m.penalty_duels)
    event = m.round.event
    record_ = open_match.ended_by_leaving(ruling, m.round.format, leaver, event.ruleset, fixed)
    m = decide_by_leaving(m, by=by, result=ResultInput.from_record(record_), ruling=ruling.value)
    notices.tell_both(m, ruling.value, loser=leaver.value.lower())
    return m


def disqualify_player(player: Player, *, by: Actor) -> Player:
    """PEN-1: a disqualified player is never paired again and is placed after everyone else; their results stay.
    Only the event's head judge disqualifies where the ruleset says so (PEN-6, CS 3); under the official rules
    alone any judge does (OFF: 審判の判断). The judging app calls this when it applies a DQ."""
    if head_judge_required(player.event.ruleset.penalties):
        require_head_judge(by, player.event)
    else:
        require_judge(by, player.event)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.disqualified:
            raise ServiceError("already-disqualified")
        before = fields_of(player, [*PLAYER_FIELDS, "disqualified"])
        if player.dropped_after_round is None:
            player.dropped_after_round = player.event.rounds.count()
        player.disqualified = True
        save_and_log(
            player,
            actions.PLAYER_DISQUALIFIED,
            actor=by,
            before=before,
            shown=[*PLAYER_FIELDS, "disqualified"],
        )
    return player


def lift_disqualification(player: Player, *, by: Actor, dropped_before: int | None, how: str = "overturn") -> Player:
    """PEN-6: an overturned (or withdrawn, ``how="withdrawal"``) DQ is lifted; a player who had dropped before
    it stays dropped."""
    require_head_judge(by, player.event)
    fields = ["dropped_after_round", "disqualified"]
    with transaction.atomic():
        p = Player.objects.select_for_update().get(pk=player.pk)
        before = fields_of(p, fields)
        p.dropped_after_round, p.disqualified = dropped_before, False
        save_and_log(
            p,
            actions.DISQUALIFICATION_LIFTED,
            actor=by,
            fields=fields,
            before=before,
            shown=fields,
            how=how,
        )
        notices.tell(p, None, "disqualification-withdrawn" if how == "withdrawal" else "disqualification-lifted")
    return p


def drop_team(team: Team, *, by: Actor, after_round: int) -> Team:
    """PEN-4 (CS 1.1): a team DQ drops the whole team after the round being played."""
    require_head_judge(by, team.event)
    return _set_team_drop(team, by, after_round, actions.TEAM_DROPPED)


def undrop_team(team: Team, *, by: Actor) -> Team:
    """PEN-6: the team DQ was overturned: the team is paired again."""
    require_head_judge(by, team.event)
    return _set_team_drop(team, by, None, actions.TEAM_UNDROPPED)


def _set_team_drop(team: Team, by: Actor, after_round: int | None, action: str) -> Team:
    with transaction.atomic():
        t = Team.objects.select_for_update().get(pk=team.pk)
        before = {"dropped_after_round": t.dropped_after_round}
        t.dropped_after_round = after_round
        t.save(update_fields=["dropped_after_round"])
        record(
            action,
            actor=by,
            obj=t,
            before=before,
            after={"dropped_after_round": t.dropped_after_round},
        )
    return t
