"""Judge calls (JUDGE-1), spectator and teammate reports (JUDGE-2), and integrity flags (END-2)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from taikai.audit.services import fields_of, record
from taikai.core import extension
from taikai.events.actors import Actor, audit_user, user_of
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Player, current_round
from taikai.events.permissions import require_judge
from taikai.events.services.clock import extend_time
from taikai.judging import actions
from taikai.judging.models import JudgeCall
from taikai.judging.services import player_calls

FIELDS = ["status", "taken_by_id", "ruling"]


def _state(call: JudgeCall) -> dict[str, Any]:
    return fields_of(call, ["status", ("taken_by", "taken_by_id"), "ruling", "ruling_seconds", "extended_seconds"])


def _table(event: Event, table: Any) -> tuple[int, Match | None]:
    try:
        number = int(table)
    except (TypeError, ValueError) as exc:
        raise ServiceError("table-required") from exc
    rnd = current_round(event)
    at_table = Match.objects.filter(round=rnd, table=number).select_related("player_a", "player_b")
    match = None if rnd is None else at_table.first()
    if match is None:
        raise ServiceError("unknown-table", table=number)
    return number, match


def raise_call(
    event: Event, *, table: Any = None, player: Player | None = None, by: Actor, description: str = ""
) -> JudgeCall:
    """A player calls a judge from their phone (their own table: one card per table, player_calls), or staff
    open a call for a table (JUDGE-1)."""
    if player is not None:
        return player_calls.call_from_player(event, player, by=by, description=description)
    require_judge(by, event)
    number, match = _table(event, table)
    with transaction.atomic():
        call = JudgeCall.objects.create(
            event=event,
            table=number,
            match=match,
            source=JudgeCall.Source.STAFF,
            raised_by_user=audit_user(by),
            description=description.strip()[:2000],
        )
        record(
            actions.CALL_RAISED,
            actor=by,
            obj=call,
            after=_state(call),
            table=number,
        )
    return call


def report(event: Event, *, table: Any, description: str, reporter: str = "", teammate: bool = False) -> JudgeCall:
    """JUDGE-2: a spectator or teammate reports a rules error or cheating at a table; no account needed."""
    number, match = _table(event, table)
    if not description.strip():
        raise ServiceError("description-required")
    with transaction.atomic():
        call = JudgeCall.objects.create(
            event=event,
            table=number,
            match=match,
            source=JudgeCall.Source.TEAMMATE if teammate else JudgeCall.Source.SPECTATOR,
            reporter=reporter.strip()[:100],
            description=description.strip()[:2000],
        )
        record(actions.REPORT_RECEIVED, actor_label="public", obj=call, after=_state(call))
    return call


def dismiss_spam_reports(event: Event, *, by: Actor, since: dt.datetime) -> int:
    """Issue 16, M4: close in one action every open spectator or teammate report received since ``since``
    (a flood); the reports stay in the record, closed with the ruling "spam"."""
    require_judge(by, event)
    sources = [JudgeCall.Source.SPECTATOR, JudgeCall.Source.TEAMMATE]
    with transaction.atomic():
        calls = JudgeCall.objects.select_for_update().filter(
            event=event, source__in=sources, created_at__gte=since, status=JudgeCall.Status.OPEN
        )
        ids = list(calls.values_list("pk", flat=True))
        if not ids:
            return 0
        JudgeCall.objects.filter(pk__in=ids).update(
            status=JudgeCall.Status.CLOSED, closed_at=timezone.now(), ruling="spam", taken_by=user_of(by)
        )
        record(actions.SPAM_REPORTS_DISMISSED, actor=by, obj=event, calls=ids, count=len(ids))
    return len(ids)


def take_call(call: JudgeCall, *, by: Actor) -> JudgeCall:
    require_judge(by, call.event)
    with transaction.atomic():
        call = JudgeCall.objects.select_for_update().get(pk=call.pk)
        if call.status == JudgeCall.Status.CLOSED:
            raise ServiceError("call-closed")
        before = _state(call)
        call.status, call.taken_by, call.taken_at = JudgeCall.Status.TAKEN, user_of(by), timezone.now()
        call.save()
        record(actions.CALL_TAKEN, actor=by, obj=call, before=before, after=_state(call))
    return call


@dataclass(frozen=True)
class ExtensionOffer:
    """TIME-4 (CS 3.1): the ruling took at least the threshold; offer this much time, editable."""

    seconds: int
    threshold_seconds: int


def ruling_length(call: JudgeCall, now: dt.datetime | None = None) -> int | None:
    """How long the call's ruling took (TIME-4): as recorded when it was ruled, else from taking the call until
    it closed (or now); None when no judge has taken it."""
    if call.ruling_seconds is not None:
        return call.ruling_seconds
    if call.taken_at is None:
        return None
    end = call.closed_at or now or timezone.now()
    return max(0, int((end - call.taken_at).total_seconds()))


def extension_offer(call: JudgeCall, now: dt.datetime | None = None) -> ExtensionOffer | None:
    if call.match is None:
        return None
    threshold = extension.threshold_seconds(call.event.ruleset.time)
    spent = ruling_length(call, now)
    # CS 3.1 says 一分以上 ("one minute or more"), so the threshold itself qualifies.
    if threshold <= 0 or spent is None or spent < threshold:
        return None
    return ExtensionOffer(spent - call.extended_seconds, threshold) if spent > call.extended_seconds else None


def rule_call(
    call: JudgeCall,
    *,
    by: Actor,
    ruling: str,
    close: bool = True,
    extension_seconds: int = 0,
    reason: str = "",
    ruling_seconds: int | None = None,
) -> JudgeCall:
    """Record the ruling, optionally add time to the table (TIME-4), and close the call.

    TIME-4 (CS 3.1): time is added only when the ruling took one minute or more (一分以上, the ruleset's
    ``extension_threshold_minutes``), measured from the judge taking the call unless the judge states how long
    it took (``ruling_seconds``, e.g. the ruling began before the call was taken here); both are logged."""
    require_judge(by, call.event)
    with transaction.atomic():
        call = (
            JudgeCall.objects.select_for_update(of=("self",))
            .select_related("event", "match__round__event")
            .get(pk=call.pk)
        )
        if call.status == JudgeCall.Status.CLOSED:
            raise ServiceError("call-closed")
        before = _state(call)
        call.ruling = ruling.strip()[:4000]
        if call.taken_by_id is None:
            call.taken_by, call.taken_at = user_of(by), call.taken_at or timezone.now()
        now = timezone.now()
        measured = max(0, int((now - call.taken_at).total_seconds())) if call.taken_at else 0
        if ruling_seconds is not None:
            call.ruling_seconds = _stated(ruling_seconds)
        if close:
            call.status, call.closed_at = JudgeCall.Status.CLOSED, now
            call.ruling_seconds = measured if call.ruling_seconds is None else call.ruling_seconds
        else:
            call.status = JudgeCall.Status.TAKEN
        length = call.ruling_seconds if call.ruling_seconds is not None else measured
        if extension_seconds and call.match is not None:
            _extend(call, call.match, by, extension_seconds, reason or call.ruling or "TIME-4", length)
        call.save()
        record(
            actions.CALL_RULED if call.ruling else actions.CALL_CLOSED,
            actor=by,
            obj=call,
            before=before,
            after=_state(call),
            extension_seconds=extension_seconds,
            ruling_seconds=length,
            measured_seconds=measured,
            ruling_stated=ruling_seconds is not None,  # the judge said how long it took (TIME-4: recorded late)
        )
    return call


def extend_after_ruling(
    match: Match,
    *,
    by: Actor,
    seconds: int,
    reason: str,
    call: JudgeCall | None = None,
    ruling_seconds: int | None = None,
) -> Match:
    """TIME-4 (CS 3.1): add time to a table for a ruling that took the ruleset's threshold or more. The ruling
    is a judge call at this table (its length as measured or recorded) or the length the judge states; without
    either nothing is added. A judge adds at most the ruling's length over all its extensions (head judge: more)."""
    require_judge(by, match.round.event)
    if call is None and ruling_seconds is None:
        raise ServiceError("extension-needs-ruling", minutes=match.round.event.ruleset.time.extension_threshold_minutes)
    with transaction.atomic():
        if call is None:
            return extend_time(match, by=by, seconds=seconds, reason=reason, ruling_seconds=_stated(ruling_seconds))
        call = JudgeCall.objects.select_for_update(of=("self",)).select_related("event").get(pk=call.pk)
        if call.match_id != match.pk:
            raise ServiceError("extension-call-elsewhere", table=call.table or "-")
        if ruling_seconds is not None:
            call.ruling_seconds = _stated(ruling_seconds)
        length = ruling_length(call)
        if length is None:
            raise ServiceError("extension-needs-ruling", minutes=call.event.ruleset.time.extension_threshold_minutes)
        extended = _extend(call, match, by, seconds, reason, length)
        call.save(update_fields=["ruling_seconds", "extended_seconds"])
    return extended


def _stated(seconds: int | None) -> int:
    if seconds is None or not 0 <= seconds <= 24 * 60 * 60:
        raise ServiceError("bad-choice", field="ruling_seconds", value=seconds)
    return seconds


def _extend(call: JudgeCall, match: Match, by: Actor, seconds: int, reason: str, length: int) -> Match:
    """The table's time, for this call's ruling; the call keeps how much it has been given (caller saves it).
    A measured length is kept on the call when it closes: a judge still at the table may add time again later."""
    extended = extend_time(
        match,
        by=by,
        seconds=seconds,
        reason=reason,
        ruling_seconds=length,
        already_given=call.extended_seconds,
        call_id=call.pk,
    )
    call.extended_seconds += seconds
    return extended


def open_calls(event: Event) -> list[JudgeCall]:
    """The judges' queue: open and taken calls, oldest first, with the table's current match.

    A read: the integrity flags below were put in the queue when the thing happened (judging/receivers.py).
    """
    return list(
        JudgeCall.objects.filter(event=event)
        .exclude(status=JudgeCall.Status.CLOSED)
        .select_related("match__round__event", "match__player_a", "match__player_b", "taken_by", "raised_by_player")
        .order_by("created_at", "id")
    )


def _flag(event: Event, match: Match | None, topic: str, key: str, description: str = "") -> JudgeCall | None:
    try:
        with transaction.atomic():
            call = JudgeCall.objects.create(
                event=event,
                table=match.table if match else None,
                match=match,
                source=JudgeCall.Source.INTEGRITY,
                topic=topic,
                dedupe_key=key[:80],
                description=description,
            )
            record(actions.INTEGRITY_FLAGGED, actor_label="integrity", obj=call, topic=topic)
    except IntegrityError:
        return None  # already in the queue
    return call


def flag_disputed(match: Match, *, version: int | None = None) -> JudgeCall | None:
    """END-2, END-4: the players' reports disagree; a judge settles the table (once per dispute, named by
    the match version the dispute made)."""
    key = f"disputed:{match.pk}:{version or match.version}"
    return _flag(match.round.event, match, "disputed", key)


def flag_changed_after_confirmation(match: Match, *, reason: str, version: int | None = None) -> JudgeCall | None:
    """END-2, END-3: staff changed a confirmed result; the judges see every such change (once each)."""
    key = f"corrected:{match.pk}:{version or match.version}"
    return _flag(match.round.event, match, "changed-after-confirmation", key, reason)


def flag_taikai_reading(match: Match, *, readings: list[str], version: int | None = None) -> list[JudgeCall]:
    """TIME-E-6, TIME-E-7, MATCH-2: the text is silent and taikai's reading decided the table (a game drawn in the
    extra turns or the extra duel, 1–1–1 in single elimination); the head judge sees it, once per reading."""
    flagged = []
    for reading in readings:
        call = _flag(match.round.event, match, f"reading-{reading}", f"reading:{match.pk}:{version}:{reading}")
        if call is not None:
            flagged.append(call)
    return flagged


def flag_intentional_draw_attempt(match: Match, *, player: Player | None = None) -> JudgeCall | None:
    """END-2: an intentional draw reported in a single-elimination match (refused by the results service)."""
    who = f" ({player.name})" if player else ""
    return _flag(match.round.event, match, "id-in-elimination", f"id:{match.pk}:{match.version}", who.strip())


def flag_possible_misreport(match: Match, *, player: Player | None = None, a: int = 0, b: int = 0) -> JudgeCall | None:
    """END-2, CS 4.3: an intentional draw was reported with duels one player leads (refused by the results
    service). Possibly a result different from the one played (INF-22); a judge asks at the table. The
    refused report is kept here (names and duel score, in no language: the call's topic says it was reported
    as an agreed draw), since it was not saved as a report."""
    who = f"{player.name}: " if player else ""
    names = (match.player_a.name, match.player_b.name if match.player_b else "-")
    described = f"{who}{names[0]} {a}–{b} {names[1]}"
    key = f"misreport:{match.pk}:{match.version}"  # both players trying the same report: one flag
    return _flag(match.round.event, match, "possible-misreport", key, described)


def _open_disputes(match_id: int) -> QuerySet[JudgeCall]:
    return JudgeCall.objects.filter(match_id=match_id, source=JudgeCall.Source.INTEGRITY, topic="disputed").exclude(
        status=JudgeCall.Status.CLOSED
    )


def has_open_dispute(match_id: int) -> bool:
    """Whether a call flagged this table's reports as disagreeing and is still open (END-4)."""
    return _open_disputes(match_id).exists()


def close_settled_disputes(match: Match, *, by: Actor) -> list[JudgeCall]:
    """END-4: once a table's result is settled (confirmed, entered or corrected by staff), the calls that
    flagged its reports as disagreeing close by themselves; each closing is audited."""
    closed = []
    with transaction.atomic():
        pending = _open_disputes(match.pk).select_for_update()
        for call in pending:
            before = _state(call)
            call.status, call.closed_at = JudgeCall.Status.CLOSED, timezone.now()
            call.save(update_fields=["status", "closed_at"])
            record(actions.CALL_SETTLED, actor=by, obj=call, before=before, after=_state(call))
            closed.append(call)
    return closed


@dataclass(frozen=True)
class SideReport:
    """One player's latest report of a disputed table: who said it, and what, in the order the table seats them."""

    player: Player
    report: Any  # taikai.events.models.ResultReport, or None when that player has not reported


def latest_reports(match: Match) -> list[SideReport]:
    """Each player's latest report of the match, player A first (for the judges' side-by-side view)."""
    reports = list(match.reports.filter(by_player__isnull=False).order_by("id"))
    out = []
    for p in (match.player_a, match.player_b):
        if p is None:
            continue
        mine = [r for r in reports if r.by_player_id == p.pk]
        out.append(SideReport(p, mine[-1] if mine else None))
    return out
