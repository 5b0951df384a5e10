"""At the venue: an event's public state as the follower will hold it, one JSON document per piece.

Each public document is the venue's own API answer (``/api/v1/events/{id}/…``), obtained in-process through
Django's URL resolver, exactly as a client would read it: the follower serves the same bytes without a second
serializer to keep in step (issue 29: "the existing API schemas"). Lists are read whole (every page) and the
follower pages them as the API does. Two private documents carry what only the follower needs: the hashes of
the players' links (``_tokens``: the same link works on both sides) and who reported a table still waiting
for the opponent (``_reports``); a third (``_shown``) what the venue's pages show beside the API's answers
(the bracket's seeds, the round reached by each placing, who is disqualified or without the right to take
part), so the follower renders the venue's own page templates from its copy; and what the players' own pages
show beside them (``taikai.follow.player_documents``: notices, the announcement, deck lists in short).

The clock is kept without the moment it was read (``server_time``, ``remaining`` while it runs): the follower
counts down from ``ends_at`` itself, so the copy changes only when the clock does.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import connection, transaction
from django.http import HttpRequest, QueryDict
from django.urls import resolve
from django.utils import translation

from taikai.core.match_record import Format
from taikai.core.quick_results import quick_outcomes
from taikai.events.models import Event, Match, Player, ResultReport, Round
from taikai.events.services.placings import placings_for
from taikai.follow import player_documents

API = "/api/v1/events/{event}"
PAGE = 200  # the API's largest page
LISTS = ("players", "rounds", "standings", "placings")


def _get(path: str, query: str = "") -> Any:
    """The API's JSON answer to a GET of ``path``, or None when it answers anything but 200."""
    match = resolve(path)
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = path
    request.GET = QueryDict(query)
    request.META = {"SERVER_NAME": "follow", "SERVER_PORT": "80", "REMOTE_ADDR": "127.0.0.1"}
    with translation.override("ja"):
        response = match.func(request, *match.args, **match.kwargs)
    if response.status_code != 200:
        return None
    return json.loads(response.content)


def _all_items(path: str) -> list[Any] | None:
    items: list[Any] = []
    while True:
        page = _get(path, f"limit={PAGE}&offset={len(items)}")
        if page is None:
            return None
        items.extend(page["items"])
        if not page["items"] or len(items) >= page["count"]:
            return items


def clock_copy(clock: dict[str, Any] | None) -> dict[str, Any] | None:
    """The clock without the moment it was read: while it runs, ``_ends`` (the round's end, whole seconds)
    replaces ``remaining``; each table over time keeps its extension, and the follower counts from ``_ends``."""
    if clock is None:
        return None
    kept = {k: v for k, v in clock.items() if k != "server_time"}
    now = float(clock.get("server_time", 0))
    if clock.get("status") == "running":
        kept.pop("remaining", None)
        kept["_ends"] = round(float(clock["ends_at"]))
    tables = clock.get("tables_playing") or []
    if tables:
        live = [t for t in tables if t.get("remaining", 0) > 0]
        if live:
            kept["_ends"] = round(now + live[0]["remaining"] - live[0]["extension"])
        kept["tables_playing"] = [{"table": t["table"], "extension": t["extension"]} for t in tables]
    return kept


def build(event_id: int) -> dict[str, Any]:
    """Every document of the event, by name: what the follower holds once it has caught up. Read in one snapshot
    (SQLite's WAL read transaction; REPEATABLE READ on PostgreSQL), so no change is torn between documents: a
    table reported while the pairings were read, and the reporter read after the opponent confirmed, would
    leave the follower's page with a report nobody can confirm until the next change."""
    outer = connection.in_atomic_block
    with transaction.atomic():
        if connection.vendor == "postgresql" and not outer:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        return _build(event_id)


def _build(event_id: int) -> dict[str, Any]:
    base = API.format(event=event_id)
    docs: dict[str, Any] = {"event": _get(base)}
    if docs["event"] is None:
        return {}
    for name in LISTS:
        docs[name] = _all_items(f"{base}/{name}")
    for rnd in docs["rounds"] or []:
        number = rnd["number"]
        docs[f"round/{number}"] = _get(f"{base}/rounds/{number}")
        docs[f"matches/{number}"] = _all_items(f"{base}/rounds/{number}/matches")
    docs["bracket"] = _get(f"{base}/bracket")
    docs["clock"] = clock_copy(_get(f"{base}/clock"))
    docs["_tokens"] = {
        str(pid): h
        for pid, h in Player.objects.filter(event_id=event_id)
        .exclude(access_token_hash="")
        .values_list("pk", "access_token_hash")
    }
    docs["_reports"] = _waiting_reports(event_id)
    docs["_shown"] = _shown(event_id)
    docs.update(player_documents.build(event_id))
    return {name: body for name, body in docs.items() if body is not None}


def _waiting_reports(event_id: int) -> dict[str, str]:
    """Who reported each table still waiting for the opponent's confirmation (their latest report)."""
    waiting = Match.objects.filter(round__event_id=event_id, status=Match.Status.REPORTED).values_list("pk", flat=True)
    out: dict[str, str] = {}
    rows = ResultReport.objects.filter(match_id__in=list(waiting), by_player__isnull=False).order_by("id")
    for match_id, player_id in rows.values_list("match_id", "by_player_id"):
        out[str(match_id)] = str(player_id)
    return out


def _shown(event_id: int) -> dict[str, Any]:
    """What the venue's standings and bracket pages say that its API does not."""
    event = Event.objects.get(pk=event_id)
    players = Player.objects.filter(event_id=event_id)
    first = event.rounds.filter(stage=Round.Stage.ELIMINATION).order_by("number").first()
    given = first.pairing_input if first is not None else {}
    seeds = [] if given.get("random") else given.get("seeds") or []
    bracket = first is not None
    return {
        "disqualified": [str(pk) for pk in players.filter(disqualified=True).values_list("pk", flat=True)],
        "ineligible": [str(pk) for pk in players.exclude(ineligible_reason="").values_list("pk", flat=True)],
        "seeds": {str(pid): k for k, pid in enumerate(seeds, start=1)},
        "best": {str(r.player_id): r.best for r in placings_for(event)} if bracket else {},
        "missed_is_loss": event.ruleset.scoring.late_entry_missed_round == "loss",
        # the one-tap results a player's page offers in each stage, as the venue's page offers them
        "quick": {
            stage: [
                {
                    "code": q.code,
                    "result": q.result,
                    "mine": q.mine,
                    "theirs": q.theirs,
                    "basis": q.basis,
                    "time_between_duels": q.time_between_duels,
                }
                for q in quick_outcomes(event.ruleset, fmt)
            ]
            for stage, fmt in (("swiss", Format.SWISS), ("elimination", Format.ELIMINATION))
        },  # fmt: skip
    }
