"""One judge call: take it, record the ruling, and add time to the table in minutes (TIME-4, CS 3.1).

The extension is one field, in minutes. TIME-4 decides what is allowed (``taikai.core.extension``): a ruling of
the threshold or more, and at most its length. When the measured length does not allow the minutes asked for
(the ruling began before the call was taken here, or was recorded late), the page asks the judge how long the
ruling really took, in minutes, and adds the time on that statement; the stated and the measured lengths are
both in the audit log. Nothing typed is lost when a post is refused: the page is drawn again with it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from taikai.core import extension
from taikai.core.ids import parse_id
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event
from taikai.events.permissions import is_head_judge
from taikai.events.views.common import error_text, staff_view
from taikai.judging.models import JudgeCall
from taikai.judging.services import calls
from taikai.judging.views.queue import sides

MAX_MINUTES = 60  # one field on a phone; more than an hour is not a ruling's time


def _minutes(raw: str | None) -> int | None:
    """Whole minutes as typed (full-width digits too); 0 for an empty field, None for anything else."""
    text = (raw or "").strip().translate(str.maketrans("０１２３４５６７８９", "0123456789"))
    if not text:
        return 0
    value = parse_id(text, digits=3)
    return value if value is not None and value <= MAX_MINUTES else None


def _needs_statement(request: HttpRequest, call: JudgeCall, seconds: int) -> bool:
    """TIME-4: the measured ruling does not allow this much time, and the judge has not stated its length."""
    if not seconds or call.match is None:
        return False
    grant = extension.Grant(
        seconds,
        calls.ruling_length(call) or 0,
        call.extended_seconds,
        beyond_ruling=is_head_judge(Staff(request.user), call.event),
    )
    problem = extension.extension_problem(call.event.ruleset.time, grant)
    return problem is not None and problem.code in ("extension-ruling-short", "extension-over-ruling")


def _rule(request: HttpRequest, call: JudgeCall) -> dict[str, Any] | None:
    """Record the ruling (and the time); a dict of what to ask or say instead when it cannot be done yet."""
    typed = {"ruling": request.POST.get("ruling", ""), "minutes": request.POST.get("extension_minutes", "")}
    minutes = _minutes(typed["minutes"])
    stated_raw = request.POST.get("ruling_minutes")
    stated = _minutes(stated_raw) if stated_raw is not None else None
    if minutes is None or (stated_raw is not None and not stated):
        return {**typed, "error": _("Enter the time as whole minutes (0 to %(n)s).") % {"n": MAX_MINUTES}}
    seconds = minutes * 60
    if stated is None and _needs_statement(request, call, seconds):
        measured = calls.ruling_length(call) or 0
        least = max(call.event.ruleset.time.extension_threshold_minutes, minutes + -(-call.extended_seconds // 60))
        return {**typed, "ask": {"measured": measured, "minutes": least}}
    try:
        calls.rule_call(
            call,
            by=Staff(request.user),
            ruling=typed["ruling"],
            extension_seconds=seconds,
            reason=typed["ruling"].strip() or _("Judge ruling"),
            ruling_seconds=stated * 60 if stated else None,  # TIME-4: the judge's own statement, logged
        )
    except ServiceError as exc:
        return {**typed, "error": error_text(exc)}
    return None


@staff_view
def call_detail(request: HttpRequest, event: Event, call_id: int) -> HttpResponse:
    call = get_object_or_404(
        JudgeCall.objects.select_related("event", "match__round__event", "match__player_a", "match__player_b"),
        event=event,
        pk=call_id,
    )
    kept: dict[str, Any] = {}
    if request.method == "POST" and "take" in request.POST:
        try:
            calls.take_call(call, by=Staff(request.user))
        except ServiceError as exc:
            kept = {"error": error_text(exc)}
        else:
            return redirect("judge_call", event.pk, call.pk)
    elif request.method == "POST" and request.POST.get("penalty"):
        return _to_penalty(request, call)
    elif request.method == "POST":
        kept = _rule(request, call) or {}
        if not kept:
            messages.success(request, _("Ruling recorded."))
            return redirect("judge_queue", event.pk)
    return render(request, "judging/call.html", _context(event, call, kept), status=400 if kept.get("error") else 200)


def _to_penalty(request: HttpRequest, call: JudgeCall) -> HttpResponse:
    """To the penalty form for one of the table's players, keeping the ruling typed so far: saved on the call
    (still open) and carried into the penalty's description."""
    ruling = request.POST.get("ruling", "")
    if ruling.strip() and ruling.strip() != call.ruling:
        try:
            calls.rule_call(call, by=Staff(request.user), ruling=ruling, close=False)
        except ServiceError as exc:
            return render(
                request,
                "judging/call.html",
                _context(call.event, call, {"ruling": ruling, "error": error_text(exc)}),
                status=400,
            )
    query = urlencode({"player": request.POST.get("penalty", ""), "description": ruling.strip()})
    return redirect(f"{reverse('penalty_new', args=[call.event_id])}?{query}")


def _context(event: Event, call: JudgeCall, kept: dict[str, Any]) -> dict[str, Any]:
    offer = calls.extension_offer(call)
    threshold = event.ruleset.time.extension_threshold_minutes
    return {
        "event": event,
        "call": call,
        "sides": sides(call) if call.topic == "disputed" else [],
        "threshold": threshold,
        "measured": calls.ruling_length(call),
        "already": call.extended_seconds,
        # the time the measured ruling allows, in whole minutes; the judge may ask for more and say why
        "offer_minutes": offer.seconds // 60 if offer else 0,
        "ruling": kept.get("ruling", call.ruling),
        "minutes": kept.get("minutes"),
        "error": kept.get("error", ""),
        "ask": kept.get("ask"),
    }
