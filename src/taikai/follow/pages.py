"""The follower's public pages: pairings by table and by name, standings, the clock, and each player's own page
by the same link as at the venue, where they report and confirm (queued until the venue decides)."""

from __future__ import annotations

import secrets
from types import SimpleNamespace
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from taikai.core.collation import name_order
from taikai.events.models import Match, Round
from taikai.follow import copies, copy_pages, follower, own_pages, protocol
from taikai.follow.models import FollowedEvent, QueuedAction


def _common(row: FollowedEvent) -> dict[str, Any]:
    return {"followed": row, "event": copy_pages.event_of(row), **copy_pages.marker(row)}


@never_cache
def event_page(request: HttpRequest, event_id: int) -> HttpResponse:
    row = copies.followed(event_id)
    if row is None:
        raise Http404
    rounds = copies.document(row, "rounds") or []
    current = rounds[-1] if rounds else None
    tables = copies.document(row, f"matches/{current['number']}") or [] if current else []
    players = {p["id"]: p for p in copies.document(row, "players") or []}
    by_name = []
    for m in tables:
        for me, other in (("player_a", "player_b"), ("player_b", "player_a")):
            if m.get(me):
                p = players.get(m[me]["id"], {})
                by_name.append(
                    {
                        "name": m[me]["name"],
                        "kana": p.get("name_kana", ""),
                        "table": m["table"],
                        "opponent": (m.get(other) or {}).get("name", ""),
                        "bye": m["is_bye"],
                    }
                )
    by_name.sort(key=lambda r: name_order(r["name"], r["kana"]))
    context = {
        **_common(row),
        "round": current,
        "tables": tables,
        "by_name": by_name,
        "standings": copies.document(row, "standings") or [],
        "clock": copies.clock(row),
        "view": request.GET.get("view", "table"),
    }
    return render(request, "follow/event.html", context)


def _me(token: str) -> copies.Me:
    me = copies.player_for_token(token)
    if me is None:
        raise Http404
    return me


@never_cache
def player_page(request: HttpRequest, token: str) -> HttpResponse:
    """The player's page by the same link as at the venue, in the venue page's markup and words (its one-tap
    choices as the venue offers them), with what they did here and the venue's answer to it."""
    me = _me(token)
    row = copies.hold(me.followed)  # one change of the venue's, never half of one being applied
    matches = copies.matches_of(row, me.player_id)
    current = matches[0] if matches else None
    reported_by = (copies.document(row, "_reports") or {}).get(current["id"]) if current else None
    done = copies.actions_of(row, me.player_id)
    actions = _told(done, current)
    waiting = any(a.status == QueuedAction.Status.QUEUED for a in actions)
    side = "a" if current is not None and current["player_a"]["id"] == str(me.player_id) else "b"
    shown = copies.document(row, "_shown") or {}
    rnd = _round_of(row, current)
    player = _player(row, me.player_id, shown)
    finish = copy_pages.finish_of(row, me.player_id)
    # As at the venue: the opponent's report to confirm, or (one tap further) a report of one's own against it.
    can_confirm = (
        current is not None
        and current["status"] == "reported"
        and reported_by not in (None, str(me.player_id))
        and not waiting
    )
    context = {
        "event": copy_pages.event_of(row),
        "player": player,
        "token": token,
        "match": current,
        "match_row": _match_row(current) if current else None,
        "round": rnd,
        "side": side,
        "opponent": (current.get("player_b" if side == "a" else "player_a") or {}) if current else None,
        "can_report": can_confirm
        or (
            current is not None
            and not current["is_bye"]
            and current["status"] in ("pending", "disputed")
            and not waiting
        ),
        "can_confirm": can_confirm,
        "i_reported": reported_by == str(me.player_id),
        "quick": (shown.get("quick") or {}).get(rnd.stage if rnd is not None else "swiss", []),
        "key": secrets.token_hex(16),
        "actions": actions,
        "waiting": waiting,
        "can_drop": _still_playing(row, me.player_id)
        and finish is None
        and not any(a.kind == QueuedAction.Kind.DROP for a in actions),
        # as at the venue: the notices, where the event ended for them, their deck list in short
        "notices": own_pages.notices(row, me.player_id, done),
        "finish": finish,
        "awaits_pairing": finish is None and not (player.dropped or player.disqualified),
        **own_pages.deck(row, me.player_id),
        **copy_pages.marker(row),
    }
    return render(request, "follow/player.html", context)


def _told(done: list[QueuedAction], current: dict[str, Any] | None) -> list[QueuedAction]:
    """The player's actions the page tells of: those waiting, and those at their table now (a notice closed here
    goes from the page: nothing to tell)."""
    return [
        a
        for a in done
        if a.kind != QueuedAction.Kind.CLOSE_NOTICE
        and (a.status == QueuedAction.Status.QUEUED or (current is not None and str(a.match_id) == current["id"]))
    ]


def _round_of(row: FollowedEvent, match: dict[str, Any] | None) -> Round | None:
    if match is None:
        return None
    return next((r for r in copy_pages.rounds_of(row) if r.number == match["round"]), None)


def _match_row(m: dict[str, Any]) -> Match:
    """The table as an unsaved venue row, for the venue's words for a result (``side_words``); a reported one
    carries the reported duels, and its outcome from them (the API says ``result`` only once confirmed)."""
    a, b, draws = m["duels"]["a"], m["duels"]["b"], m["duels"]["draws"]
    result = m["result"] or ("a" if a > b else "b" if b > a else "draw")
    return Match(duel_wins_a=a, duel_wins_b=b, duel_draws=draws, result=result, basis=m["basis"], is_bye=m["is_bye"])


def _player(row: FollowedEvent, player_id: int, shown: dict[str, Any]) -> SimpleNamespace:
    for p in copies.document(row, "players") or []:
        if p["id"] == str(player_id):
            dropped = p["dropped_after_round"] is not None
            return SimpleNamespace(
                name=p["name"], pk=player_id, dropped=dropped, disqualified=p["id"] in shown.get("disqualified", [])
            )
    return SimpleNamespace(name="", pk=player_id, dropped=False, disqualified=False)


def _still_playing(row: FollowedEvent, player_id: int) -> bool:
    for p in copies.document(row, "players") or []:
        if p["id"] == str(player_id):
            return p["dropped_after_round"] is None
    return False


@never_cache
def player_venue_only(request: HttpRequest, token: str, rest: str) -> HttpResponse:
    """A page under the player's link that needs the venue's own rows (deck list, PIN, appeal, penalty record)."""
    return copy_pages.venue_only(request, _me(token).followed.event_id, token=token)


@require_POST
def player_close_notice(request: HttpRequest, token: str, notice_id: int) -> HttpResponse:
    """The venue's notice form: closed at once on this page, and at the venue when it next takes the actions."""
    me = _me(token)
    if own_pages.has_notice(me.followed, me.player_id, notice_id):
        follower.queue_action(
            me.followed,
            player_id=me.player_id,
            token_hash=me.token_hash,
            kind=QueuedAction.Kind.CLOSE_NOTICE,
            match_id=0,
            seen_version=0,
            payload={"notice": notice_id},
            key=f"notice-{me.followed.event_id}-{notice_id}",  # closing it twice is closing it once
        )
    return HttpResponseRedirect(f"/p/{token}/")


@require_POST
def player_action(request: HttpRequest, token: str) -> HttpResponse:
    """A report or a confirmation from the player's page, queued for the venue with what the player saw."""
    me = _me(token)
    try:
        match_id = int(request.POST.get("match", ""))
        seen = int(request.POST.get("version", ""))
    except ValueError:
        raise Http404 from None
    match = next((m for m in copies.matches_of(me.followed, me.player_id) if m["id"] == str(match_id)), None)
    if match is None:
        raise Http404
    kind = request.POST.get("kind", "")
    payload: dict[str, Any] = {}
    if kind == QueuedAction.Kind.JUDGE_CALL:
        payload = {"description": request.POST.get("description", "").strip()[:500]}
    if kind == QueuedAction.Kind.DROP and request.POST.get("sure") != "yes":
        return HttpResponseRedirect(f"/p/{token}/")
    if kind == QueuedAction.Kind.REPORT:  # the one-tap choice: the venue reads it as its own page does
        payload = {"quick": request.POST.get("quick", "")[:40]}
    try:
        follower.queue_action(
            me.followed,
            player_id=me.player_id,
            token_hash=me.token_hash,
            kind=kind,
            match_id=match_id,
            seen_version=seen,
            payload=payload,
            key=request.POST.get("key", "")[:64],
        )
    except follower.Refused:
        raise Http404 from None
    return HttpResponseRedirect(f"/p/{token}/")


@csrf_exempt
@require_POST
def sync(request: HttpRequest) -> HttpResponse:
    """The venue's connection (``taikai.follow.venue``): signed both ways; anything else is refused whole."""
    if request.content_type != "application/json":  # a form post: its body is parsed already, never a message
        return HttpResponse("not-a-message", status=415, content_type="text/plain")
    try:
        answer = follower.receive(
            request.headers.get(protocol.PREFIX_HEADER, ""),
            request.body,
            request.headers.get(protocol.SIGNATURE_HEADER, ""),
        )
    except protocol.BadMessage as exc:
        return HttpResponse(exc.code, status=401, content_type="text/plain")
    response = HttpResponse(answer.body, content_type="application/json")
    response[protocol.SIGNATURE_HEADER] = answer.signature
    return response
