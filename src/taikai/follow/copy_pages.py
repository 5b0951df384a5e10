"""The follower's public pages, rendered from the venue's own templates (pairings, standings, bracket) with the
copy as their data: the same page a phone on the venue's Wi-Fi sees, marked 「会場の最終更新: 12:03:15」 (the
``follow_copy`` context, read by the shared base template).

The venue's templates read its models; here they get unsaved instances and the venue's own row types
(``ShownRow``, ``StandingRow``, ``PlacingRow``) built from the API documents the venue sent, so no template is
copied and none knows it is on a follower. Names of elimination rounds are the venue's words for the stage.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache

from taikai.core.collation import name_order
from taikai.core.pairing import elimination
from taikai.core.placings import Stage
from taikai.events.models import Announcement, Event, Round
from taikai.events.round_words import round_name, stage_words
from taikai.events.services.placings import PlacingRow
from taikai.events.services.standings import Figure, StandingRow
from taikai.events.views.final import ShownRow
from taikai.events.views.player_finish import Finish, place_text
from taikai.follow import copies
from taikai.follow.models import FollowedEvent

STANDINGS_PAGE = 200  # as the venue's standings page


def _row(event_id: int) -> FollowedEvent:
    row = copies.followed(event_id)
    if row is None or copies.document(copies.hold(row), "event") is None:
        raise Http404
    return row


def marker(row: FollowedEvent) -> dict[str, Any]:
    """The context the shared base template reads to mark a page as the venue's copy, and how old it is."""
    return {"follow_copy": copies.age(row)}


def event_of(row: FollowedEvent) -> Event:
    doc = copies.document(row, "event") or {}
    event = Event(
        pk=row.event_id,
        name=doc.get("name", row.name),
        venue=doc.get("venue", ""),
        format=doc.get("format", Event.Format.SWISS),
        status=doc.get("status", Event.Status.RUNNING),
        ruleset_name=doc.get("ruleset", ""),
    )
    standings = copies.document(row, "standings") or []
    names = [t["name"] for t in standings[0]["tiebreakers"]] if standings else ["omw", "oomw"]
    event._ruleset = SimpleNamespace(standings=SimpleNamespace(tiebreakers=names))  # type: ignore[assignment]
    event.copied_announcement = _announcement(row)  # type: ignore[attr-defined]  # read by {% current_announcement %}
    return event


def _announcement(row: FollowedEvent) -> Announcement:
    """The venue's announcement on show, as an unsaved row (``text`` "" when none)."""
    doc = copies.document(row, "_announcement") or {}
    shown = Announcement(pk=int(doc.get("id", 0)), text=doc.get("text", ""))
    shown.sent_at = dt.datetime.fromisoformat(doc["sent_at"]) if doc.get("sent_at") else None  # type: ignore[assignment]
    return shown


@never_cache
def announcement_json(request: HttpRequest, event_id: int) -> JsonResponse:
    """The venue's ``announcement_json`` from the copy: what its page script reads again when the page is."""
    row = _row(event_id)
    shown = _announcement(row)
    at = timezone.localtime(shown.sent_at).strftime("%H:%M") if shown.text and shown.sent_at else ""
    body = {"id": shown.pk, "text": shown.text, "at": at}
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-store"
    return response


def finish_of(row: FollowedEvent, player_id: int) -> Finish | None:
    """The venue's ``finish_of`` from the copy: the player's final place once nothing is left for them to play."""
    over = (copies.document(row, "event") or {}).get("status") == Event.Status.FINISHED
    shown = copies.document(row, "_shown") or {}
    pid = str(player_id)
    if pid in shown.get("disqualified", []) or not (over or shown.get("best")):  # best: a bracket exists
        return None
    p = next((p for p in copies.document(row, "placings") or [] if p["player"]["id"] == pid), None)
    if p is None or p["disqualified"]:
        return None
    stage = Stage.BEST if p["stage"].startswith("top-") else Stage(p["stage"])
    if stage == Stage.IN_BRACKET and not over:
        return None
    best = int((shown.get("best") or {}).get(pid, 0))
    placing = PlacingRow(p["rank"], player_id, p["player"]["name"], "", "", stage, best, 0, 0, 0, 0, False)
    return Finish(p["rank"], stage, place_text(placing), p.get("prize", ""), over)


def rounds_of(row: FollowedEvent) -> list[Round]:
    """The rounds as unsaved venue rows, each carrying its name as the venue says it (第1ラウンド, 準決勝)."""
    out = []
    elimination_rounds = 0
    for doc in copies.document(row, "rounds") or []:
        rnd = Round(event_id=row.event_id, number=doc["number"], stage=doc["stage"], status=doc["status"])
        if rnd.stage == Round.Stage.ELIMINATION:
            elimination_rounds += 1
            rnd.copied_name = stage_words(elimination.stage(elimination_rounds, doc["tables"]))  # type: ignore[attr-defined]
        else:
            rnd.copied_name = round_name(rnd)  # type: ignore[attr-defined]
        out.append(rnd)
    return out


def pairing_rows(row: FollowedEvent, matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per player, as the venue's ``pairing_rows`` (by name, あいうえお or A–Z)."""
    kana = {p["id"]: p.get("name_kana", "") for p in copies.document(row, "players") or []}
    rows = []
    for m in matches:
        for me, opp in ((m["player_a"], m.get("player_b")), (m.get("player_b"), m["player_a"])):
            if me is None:
                continue
            rows.append(
                {
                    "table": m["table"],
                    "name": me["name"],
                    "kana": name_order(me["name"], kana.get(me["id"], "")),
                    "az": name_order(me["name"]),
                    "opponent": opp["name"] if opp else None,
                    "bye": m["is_bye"],
                    "seat": m.get("seat", ""),
                }
            )
    return rows


@never_cache
def pairings(request: HttpRequest, event_id: int, number: int | None = None) -> HttpResponse:
    row = _row(event_id)
    order = request.GET.get("order", "table")
    rounds = rounds_of(row)
    rnd = next((r for r in rounds if r.number == number), None) if number else (rounds[-1] if rounds else None)
    if number and rnd is None:
        raise Http404
    matches = copies.document(row, f"matches/{rnd.number}") or [] if rnd else []
    rows = pairing_rows(row, matches) if order != "table" else []
    rows.sort(key=lambda r: r["kana"] if order == "kana" else r["az"])
    context = {
        "event": event_of(row),
        "round": rnd,
        "rows": rows,
        "matches": matches,
        "order": order,
        "rounds": rounds,
        "print": request.GET.get("print") == "1",
        **marker(row),
    }
    return render(request, "events/public_pairings.html", context)


def shown_rows(row: FollowedEvent) -> tuple[list[ShownRow], bool]:
    """The venue's ``shown_rows`` from the copy: the placings once the top cut began, the Swiss standings before."""
    shown = copies.document(row, "_shown") or {}
    out_of_play = set(shown.get("disqualified", []))
    ineligible = set(shown.get("ineligible", []))
    swiss = {
        s["player"]["id"]: _standing(s, s["player"]["id"] in ineligible)
        for s in copies.document(row, "standings") or []
    }
    best = shown.get("best") or {}
    if not best:
        return [ShownRow(s.rank, "", str(s.player_id) in out_of_play, s) for s in swiss.values()], False
    rows = []
    for p in copies.document(row, "placings") or []:
        pid = p["player"]["id"]
        if pid not in swiss:
            continue
        placing = _placing(p, int(best.get(pid, 0)), swiss[pid])
        rows.append(ShownRow(p["rank"], placing.stage_text, p["disqualified"], swiss[pid], p.get("prize", "")))
    return rows, True


def _standing(s: dict[str, Any], ineligible: bool) -> StandingRow:
    figures = tuple(Figure(t["name"], Fraction(t["value"]), t["text"]) for t in s["tiebreakers"])
    return StandingRow(
        s["rank"], int(s["player"]["id"]), s["player"]["name"], "", "", s["points"], s["wins"], s["losses"],
        s["draws"], figures, s["code"], s["dropped"], ineligible,
    )  # fmt: skip


def _placing(p: dict[str, Any], best: int, s: StandingRow) -> PlacingRow:
    code = p["stage"]
    stage = Stage.BEST if code.startswith("top-") else Stage(code)
    return PlacingRow(p["rank"], s.player_id, s.name, "", "", stage, best, s.points, s.wins, s.losses, s.draws, False)


@never_cache
def standings(request: HttpRequest, event_id: int) -> HttpResponse:
    row = _row(event_id)
    rows, placings = shown_rows(row)
    pages = max(1, -(-len(rows) // STANDINGS_PAGE))
    try:
        number = min(max(int(request.GET.get("page", "1")), 1), pages)
    except ValueError:
        number = 1
    context = {
        "event": event_of(row),
        "rows": rows[(number - 1) * STANDINGS_PAGE : number * STANDINGS_PAGE],
        "placings": placings,
        "prizes": any(r.prize_text for r in rows),
        "page": number,
        "pages": range(1, pages + 1),
        "page_count": pages,
        **marker(row),
    }
    return render(request, "events/public_standings.html", context)


@never_cache
def bracket(request: HttpRequest, event_id: int) -> HttpResponse:
    row = _row(event_id)
    seeds = (copies.document(row, "_shown") or {}).get("seeds") or {}
    columns = []
    docs = (copies.document(row, "bracket") or {}).get("rounds", [])
    for k, rnd in enumerate(docs):
        tables = [_bracket_table(m, seeds) for m in rnd["matches"]]
        columns.append({"round": rnd, "name": stage_words(elimination.stage(k + 1, len(tables))), "tables": tables})
    context = {"event": event_of(row), "columns": columns, "champion": champion(row), **marker(row)}
    return render(request, "events/bracket.html", context)


def _bracket_table(m: dict[str, Any], seeds: dict[str, int]) -> dict[str, Any]:
    decided = m["status"] == "confirmed"
    sides = [(m["player_a"], m["duels"]["a"], "a"), (m.get("player_b"), m["duels"]["b"], "b")]
    return {
        "table": m["table"],
        "bye": m["is_bye"],
        "decided": decided,
        "sides": [
            {
                "name": p["name"] if p else "",
                "seed": seeds.get(p["id"]) if p else None,
                "score": score if decided and not m["is_bye"] else None,
                "won": decided and m["result"] == side,
            }
            for p, score, side in sides
        ],
    }


def venue_only(request: HttpRequest, event_id: int, token: str = "", **_: object) -> HttpResponse:
    """A venue page with no copy here: in words, marked as the copy's, with the way back (status 404)."""
    row = _row(event_id)
    context = {"event": event_of(row), "token": token, **marker(row)}
    return render(request, "follow/venue_only.html", context, status=404)


def champion(row: FollowedEvent) -> dict[str, Any] | None:
    """The winner once the bracket is over, as the venue's placings say (its ``champion``)."""
    first = next(iter(copies.document(row, "placings") or []), None)
    return first["player"] if first is not None and first["stage"] == "champion" else None


@never_cache
def player_path(request: HttpRequest, event_id: int, player_id: int) -> HttpResponse:
    """ "Why am I ranked here?" (the venue's ``player_path`` page): the player's rounds from the copy."""
    row = _row(event_id)
    player = next((p for p in copies.document(row, "players") or [] if p["id"] == str(player_id)), None)
    if player is None:
        raise Http404
    shown, placings = shown_rows(row)
    table = {r.swiss.player_id: r.swiss for r in shown}
    mine = table.get(player_id)
    context = {
        "event": event_of(row),
        "player": player,
        "row": mine,
        "rows": _path_rows(row, player, table),
        "missed_is_loss": (copies.document(row, "_shown") or {}).get("missed_is_loss", True),
        "tied_by_lot": [
            r.name
            for r in table.values()
            if mine is not None and r.player_id != player_id and (r.points, r.values) == (mine.points, mine.values)
        ],
        "placed": next((r for r in shown if r.swiss.player_id == player_id), None),
        "placings": placings,
        "finish": finish_of(row, player_id),
        **marker(row),
    }
    return render(request, "events/player_path.html", context)


def _path_rows(row: FollowedEvent, player: dict[str, Any], table: dict[int, StandingRow]) -> list[dict[str, Any]]:
    """The player's rounds in order, each opponent with their standings line, as the venue's ``_path_rows``."""
    rounds = {r.number: r for r in rounds_of(row)}
    out: list[dict[str, Any]] = []
    for m in sorted(copies.matches_of(row, int(player["id"])), key=lambda m: m["round"]):
        side = "a" if m["player_a"]["id"] == player["id"] else "b"
        opp = m.get("player_b" if side == "a" else "player_a")
        if m["is_bye"]:
            outcome = "bye"
        elif m["status"] != "confirmed":
            outcome = "pending"
        else:
            outcome = "draw" if m["result"] == "draw" else "win" if m["result"] == side else "loss"
        opponent_row = table.get(int(opp["id"])) if opp else None
        out.append({"round": rounds[m["round"]], "opponent": opp, "opponent_row": opponent_row, "outcome": outcome})
    seen = {r["round"].number for r in out}
    late = player.get("late_entry_round") or 0
    out += [
        {"round": r, "opponent": None, "opponent_row": None, "outcome": "missed"}
        for r in rounds.values()
        if r.stage == Round.Stage.SWISS and r.number < late and r.number not in seen
    ]
    return sorted(out, key=lambda r: r["round"].number)
