"""Issue 22's property with the judges in it: over random histories of reports, confirmations, slips and
corrections, penalties (a duel loss INF-14, a match loss, a DQ), appeal overturns, re-pairs and pairing edits,
next rounds, each made on the current version or a stale one, in any order:

- every stored result is what replaying the accepted decisions in ``judged_model`` gives;
- no decision made on a stale version is applied;
- every change to a finished match (status not pending) made by staff is logged and told to both players.

END-3, END-4, PEN-1, PEN-6; the model's docstring says what each rule does."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from taikai.audit.models import AuditEntry
from taikai.events.actors import Staff
from taikai.events.errors import Conflict, PermissionDenied, ServiceError
from taikai.events.models import Event, Match, Notice, Round, StaffRole
from taikai.events.services import pairing_edits
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from taikai.judging.models import Penalty
from taikai.judging.services import appeals
from taikai.judging.services import penalties as penalty_services
from tests.events.judged_model import LOST, RECORDS, Model, Table
from tests.factories import make_event, staff

pytestmark = pytest.mark.django_db

KEYS = sorted(RECORDS)
seat = st.tuples(st.sampled_from((1, 2)), st.sampled_from("ab"))
op = st.one_of(
    st.tuples(st.just("report"), seat, st.sampled_from(KEYS)),
    st.tuples(st.just("confirm"), seat, st.booleans()),
    st.tuples(st.just("correct"), seat, st.sampled_from(KEYS), st.booleans()),
    st.tuples(st.just("slip"), seat, st.sampled_from(KEYS), st.booleans()),
    st.tuples(st.just("duel_loss"), seat),
    st.tuples(st.just("match_loss"), seat, st.booleans()),
    st.tuples(st.just("dq"), seat),
    st.tuples(st.just("overturn"), st.integers(0, 5)),
    st.tuples(st.just("overturn"), st.integers(0, 5)),  # twice as likely: the overturn rules are the point
    st.tuples(st.just("repair"), st.booleans()),
    st.tuples(st.just("edit"), st.booleans()),
    st.tuples(st.just("next"), st.booleans()),
    st.tuples(st.just("next"), st.just(True)),  # the desk enters the open tables' slips first, then pairs
)
PLAYERS_DECIDE = {"report", "confirm"}  # a player's own report: shown on both pages, not a staff change
REFUSED = (Conflict, ServiceError, PermissionDenied)


def _input(key: str) -> ResultInput:
    return ResultInput(tuple({"winner": w} for w in RECORDS[key]))


class History:
    """The event and its staff; each step is done through the services and through the model."""

    def __init__(self, organizer: User) -> None:
        self.event = make_event(organizer, 4, swiss_rounds=3)
        self.organizer = Staff(organizer)
        self.judge = Staff(staff(self.event, "floor", StaffRole.Role.JUDGE))
        self.head = Staff(staff(self.event, "head", StaffRole.Role.HEAD_JUDGE))
        self.model = Model(rounds=3)
        self.versions: list[str] = []  # the current round's pairing versions, as pages saw them
        self.trace: list[Any] = []  # the steps done and the refusals, for a failing example's message
        rnd = round_services.pair_next_round(self.event, by=self.organizer)
        self._seat(rnd)

    def _seat(self, rnd: Round, paired: bool = True) -> None:
        rows = Match.objects.filter(round=rnd).order_by("table")
        self.model.seat([Table(m.pk, rnd.number, m.player_a_id, m.player_b_id) for m in rows], rnd.number)
        if paired:  # round_paired: the waiting losses land (an edit by hand is no pairing)
            self.model.land_waiting()
        self.versions = [pairing_edits.pairing_state(rnd).version]

    def round(self) -> Round:
        return Round.objects.get(event=self.event, number=self.model.number)

    def table(self, number: int) -> tuple[Match, Table] | None:
        if number > len(self.model.current):
            return None
        t = self.model.tables[self.model.current[number - 1]]
        if t.bye:
            return None
        m = Match.objects.select_related("round__event", "player_a", "player_b").get(pk=t.pk)
        return m, t

    def pairing_version(self, stale: bool) -> str:
        now = pairing_edits.pairing_state(self.round()).version
        if not stale:
            return now
        return next((v for v in self.versions if v != now), "0-stale")

    def step(self, step: tuple[Any, ...]) -> tuple[bool, bool] | None:
        """(what the code did, what the model says), or None when the step has no table to act on."""
        kind = step[0]
        if kind in ("report", "confirm", "correct", "slip", "duel_loss", "match_loss", "dq"):
            at = self.table(step[1][0])
            if at is None:
                return None
            acted: tuple[bool, bool] = getattr(self, kind)(*at, *step[1:])
            return acted
        done: tuple[bool, bool] = getattr(self, kind)(*step[1:])
        return done

    def _done(self, call: Any) -> bool:
        try:
            call()
        except REFUSED as exc:
            self.trace.append(getattr(getattr(exc, "problem", None), "code", type(exc).__name__))
            return False
        return True

    def report(self, m: Match, t: Table, where: tuple[int, str], key: str) -> tuple[bool, bool]:
        player = m.player_a if where[1] == "a" else m.player_b
        done = self._done(lambda: result_services.report_result(m, player=player, result=_input(key)))
        return done, self.model.report(t, where[1], key)

    def confirm(self, m: Match, t: Table, where: tuple[int, str], stale: bool) -> tuple[bool, bool]:
        player = m.player_a if where[1] == "a" else m.player_b
        seen = m.version - 1 if stale else m.version
        done = self._done(lambda: result_services.confirm_result(m, player=player, version=seen))
        done = done and Match.objects.get(pk=m.pk).version != m.version  # a retry's answer changes nothing
        return done, self.model.confirm(t, where[1], stale)

    def correct(self, m: Match, t: Table, where: Any, key: str, stale: bool) -> tuple[bool, bool]:
        seen = m.version - 1 if stale else m.version
        data = _input(key)
        call = lambda: result_services.correct_result(m, by=self.organizer, result=data, reason="slip", version=seen)  # noqa: E731
        return self._done(call), self.model.correct(t, key, stale)

    def slip(self, m: Match, t: Table, where: Any, key: str, stale: bool) -> tuple[bool, bool]:
        seen = m.version - 1 if stale else m.version
        data = _input(key)
        done = self._done(lambda: result_services.enter_result(m, by=self.organizer, result=data, version=seen))
        return done, self.model.slip(t, key, stale)

    def _penalty(self, m: Match, where: tuple[int, str], kind: str, on_current: bool, **kw: Any) -> tuple[bool, bool]:
        player = m.player_a if where[1] == "a" else m.player_b
        by = self.head if kind == "dq" else self.judge
        try:
            pen = penalty_services.issue_penalty(self.event, by=by, player=player, **kw)
        except REFUSED:
            return False, self.model.issue(-1, player.pk, kind, on_current)
        return True, self.model.issue(pen.pk, player.pk, kind, on_current)

    def duel_loss(self, m: Match, t: Table, where: tuple[int, str]) -> tuple[bool, bool]:
        # CS 2.1 B: a duel loss (given, not the PEN-5 escalation a repeat suggests)
        return self._penalty(m, where, "duel", False, infraction="INF-14", rung="duel-loss")

    def match_loss(self, m: Match, t: Table, where: tuple[int, str], on_current: bool) -> tuple[bool, bool]:
        lands = "current" if on_current else None
        kw = {"infraction": "INF-1", "rung": "match-loss", "reason": "deck problem", "lands_on": lands}
        return self._penalty(m, where, "match", on_current, **kw)

    def dq(self, m: Match, t: Table, where: tuple[int, str]) -> tuple[bool, bool]:
        return self._penalty(m, where, "dq", False, infraction="INF-1", rung="dq", reason="marked cards")  # PEN-6

    def overturn(self, i: int) -> tuple[bool, bool] | None:
        if not self.model.penalties:
            return None
        pen = self.model.penalties[i % len(self.model.penalties)]
        row = Penalty.objects.select_related("player__event").get(pk=pen.pk)

        def call() -> None:
            appeal = appeals.file_appeal(row.player, reason="not mine", penalty=row, by=self.judge)
            appeals.decide_appeal(appeal, by=self.head, decision="overturn", note="no evidence")

        return self._done(call), self.model.overturn(pen)

    def repair(self, stale: bool) -> tuple[bool, bool]:
        seen = self.pairing_version(stale)
        try:
            rnd = pairing_edits.repair_round(self.round(), by=self.organizer, version=seen)
        except REFUSED:
            return False, self.model.can_repair(stale)
        expected = self.model.can_repair(stale)
        self._seat(rnd)
        return True, expected

    def edit(self, stale: bool) -> tuple[bool, bool] | None:
        tables = [self.model.tables[pk] for pk in self.model.current]
        if len(tables) != 2 or any(t.bye for t in tables):
            return None
        one, two = tables
        pairs = [(one.a, two.b), (two.a, one.b)]
        seen = self.pairing_version(stale)
        expected = self.model.can_swap(stale, pairs)
        try:
            rnd = pairing_edits.edit_pairing(self.round(), by=self.organizer, pairs=pairs, version=seen)
        except REFUSED:
            return False, expected
        self._seat(rnd, paired=False)
        return True, expected

    def next(self, close: bool) -> tuple[bool, bool]:
        for number in range(1, len(self.model.current) + 1) if close else ():
            at = self.table(number)
            if at is None or at[1].status == "confirmed":
                continue
            key = next((k for k in KEYS if at[1].keeps_facts(RECORDS[k])), None)
            if key is not None:
                assert self.slip(*at, None, key, False) == (True, True), self.trace
        expected = self.model.can_pair_next()
        try:
            rnd = round_services.pair_next_round(self.event, by=self.organizer)
        except REFUSED:
            return False, expected
        self._seat(rnd)
        return True, expected

    def after(self) -> None:
        """The model's bookkeeping the code does on commit: the event finishes with its last round."""
        if self.model.number == self.model.rounds and self.model.round_finished():
            self.model.finished = True
        self.versions.append(pairing_edits.pairing_state(self.round()).version)


def _rows(event: Event) -> dict[int, dict[str, Any]]:
    fields = ("status", "result", "record", "penalty_duels", "player_a_id", "player_b_id", "is_bye")
    return {m["id"]: m for m in Match.objects.filter(round__event=event).values("id", *fields)}


def _check_told(event: Event, before: dict[int, dict[str, Any]], marks: tuple[int, int], trace: list[Any]) -> None:
    """Every finished match staff changed: a new audit entry for it and a new notice to both its players."""
    after = _rows(event)
    for pk, row in before.items():
        if row["is_bye"] or row["status"] == Match.Status.PENDING:
            continue
        assert pk in after, f"finished table {pk} was deleted"
        keys = ("status", "result", "record", "penalty_duels")
        if all(row[k] == after[pk][k] for k in keys):
            continue
        logged = AuditEntry.objects.filter(object_type="events.match", object_id=str(pk), id__gt=marks[0])
        assert logged.exists(), (trace, f"table {pk} changed from {row['status']} without a log entry")
        told = set(Notice.objects.filter(match_id=pk, id__gt=marks[1]).values_list("player_id", flat=True))
        both = {row["player_a_id"], row["player_b_id"]}
        assert told == both, (trace, f"table {pk} changed from {row['status']}, told {told}")


def _check_stored(model: Model, trace: list[Any]) -> None:
    for t in model.tables.values():
        if t.bye:
            continue
        m = Match.objects.get(pk=t.pk)
        assert (m.status, m.result) == (t.status, t.result), (trace, t, m.record)
        facts = [(p["duel"], p["loser"], int(p["penalty"])) for p in m.penalty_duels]
        assert facts == t.facts, (trace, t, m.penalty_duels)
        duels = tuple(d.get("winner") for d in (m.record or {}).get("duels", []))
        if t.duels is not None and t.duels != LOST:
            assert duels == t.duels, (trace, t, m.record)
        assert t.keeps_facts(duels), (trace, t, m.record)  # PEN-1: the record holds every penalty duel


def _marks() -> tuple[int, int]:
    last_entry = AuditEntry.objects.order_by("-id").values_list("id", flat=True).first() or 0
    last_notice = Notice.objects.order_by("-id").values_list("id", flat=True).first() or 0
    return last_entry, last_notice


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(op, min_size=1, max_size=20))
def test_random_judged_histories_store_what_the_accepted_decisions_say(organizer: User, steps: list[Any]) -> None:
    history = History(organizer)
    for step in steps:
        before, marks = _rows(history.event), _marks()
        history.trace.append(step)
        outcome = history.step(step)
        if outcome is None:
            continue
        done, expected = outcome
        event(f"{step[0]} {'applied' if done else 'refused'}")  # see --hypothesis-show-statistics
        assert done == expected, (history.trace, history.model)
        history.after()
        _check_stored(history.model, history.trace)
        if step[0] not in PLAYERS_DECIDE:
            _check_told(history.event, before, marks, history.trace)
