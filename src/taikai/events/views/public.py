"""Public pages (no login): pairings, standings, bracket and the projector (the clock feed is taikai.web.clock)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from taikai.core.collation import name_order
from taikai.core.ids import parse_id
from taikai.core.pairing import elimination
from taikai.events.models import Event, Match, Player, Round
from taikai.events.round_words import stage_words
from taikai.events.services import round_plan
from taikai.events.services.placings import champion
from taikai.events.services.standings import StandingRow, standings_for
from taikai.events.views.caching import cached_page, event_change_key, rounds_key
from taikai.events.views.final import shown_rows
from taikai.events.views.player_finish import finish_of


def current_round(event: Event) -> Round | None:
    return event.rounds.order_by("-number").first()


def pairing_rows(matches: list[Match]) -> list[dict[str, object]]:
    """One row per player (both sides of each table), for the by-name list."""
    rows: list[dict[str, object]] = []
    for m in matches:
        for me, opp in ((m.player_a, m.player_b), (m.player_b, m.player_a)):
            if me is None:
                continue
            rows.append(
                {
                    "table": m.table,
                    "name": me.name,
                    "kana": name_order(me.name, me.name_kana),
                    "az": name_order(me.name),
                    "opponent": opp.name if opp else None,
                    "bye": m.is_bye,
                    "seat": m.seat,
                }
            )
    return rows


def public_event(request: HttpRequest, event_id: int) -> HttpResponse:
    def page() -> HttpResponse:
        event = get_object_or_404(Event, pk=event_id)
        rnd = current_round(event)
        context = {
            "event": event,
            "round": rnd,
            "rounds": event.rounds.all(),
            "champion": champion(event),
            "plan": round_plan.shown(event),
        }
        return render(request, "events/public_event.html", context)

    return cached_page(request, ("event", event_id, event_change_key(event_id)), page)


def public_pairings(request: HttpRequest, event_id: int, number: int | None = None) -> HttpResponse:
    order = request.GET.get("order", "table")

    def page() -> HttpResponse:
        event = get_object_or_404(Event, pk=event_id)
        rnd = get_object_or_404(Round, event=event, number=number) if number else current_round(event)
        matches = list(rnd.matches.select_related("player_a", "player_b")) if rnd else []
        rows = pairing_rows(matches) if order != "table" else []
        if order == "kana":
            rows.sort(key=lambda r: r["kana"])  # type: ignore[arg-type, return-value]
        elif order == "az":
            rows.sort(key=lambda r: r["az"])  # type: ignore[arg-type, return-value]
        context = {
            "event": event,
            "round": rnd,
            "rows": rows,
            "matches": matches,
            "order": order,
            "rounds": event.rounds.all(),
            "print": request.GET.get("print") == "1",
        }
        return render(request, "events/public_pairings.html", context)

    # Pairings change only when a round is paired or edited (its version), never with results: the key
    # is one small query, and a cached page costs no other.
    return cached_page(request, ("pairings", event_id, number, rounds_key(event_id)), page)


STANDINGS_PAGE = 200  # rows per page: a phone shows them at once; a 4,096-player event has 21 pages


def public_standings(request: HttpRequest, event_id: int) -> HttpResponse:
    def page() -> HttpResponse:
        event = get_object_or_404(Event, pk=event_id)
        rows, placings = shown_rows(event, public=True)
        pages = max(1, -(-len(rows) // STANDINGS_PAGE))
        number = min(max(parse_id(request.GET.get("page"), digits=9) or 1, 1), pages)
        shown = rows[(number - 1) * STANDINGS_PAGE : number * STANDINGS_PAGE]
        context = {
            "event": event,
            "rows": shown,
            "placings": placings,
            "prizes": any(r.prize_text for r in rows),
            "page": number,
            "pages": range(1, pages + 1),
            "page_count": pages,
        }
        return render(request, "events/public_standings.html", context)

    return cached_page(request, ("standings", event_id, event_change_key(event_id)), page)


def player_path(request: HttpRequest, event_id: int, player_id: int) -> HttpResponse:
    """ "Why am I ranked here?": a player's opponents and results, round by round."""
    event = get_object_or_404(Event, pk=event_id)
    player = get_object_or_404(event.players, pk=player_id)
    table = {row.player_id: row for row in standings_for(event)}
    rows = _path_rows(event, player, table)
    loss = event.ruleset.scoring.late_entry_missed_round == "loss"
    mine = table.get(player.pk)
    shown, placings = shown_rows(event, public=True)
    placed = next((r for r in shown if r.swiss.player_id == player.pk), None)
    by_lot = [
        r.name
        for r in table.values()
        if mine is not None and r.player_id != player.pk and (r.points, r.values) == (mine.points, mine.values)
    ]
    return render(
        request,
        "events/player_path.html",
        {
            "event": event,
            "player": player,
            "row": mine,
            "rows": rows,
            "missed_is_loss": loss,
            "tied_by_lot": by_lot,
            "placed": placed,  # the place and prize the placings and the prize page give (PEN-2, PEN-8)
            "placings": placings,
            "finish": finish_of(player),  # the final placing, once it is final for this player
        },
    )


def _path_rows(event: Event, player: Player, table: dict[int, StandingRow]) -> list[dict[str, Any]]:
    """The player's rounds in order: each opponent, their standings row and the outcome."""
    matches = Match.objects.filter(round__event=event).filter(player_a=player) | Match.objects.filter(
        round__event=event, player_b=player
    )
    rows: list[dict[str, Any]] = []
    matches = matches.select_related("round", "player_a", "player_b")
    for m in matches.order_by("round__number"):
        side = m.side_of(player)
        opp = m.player_b if side == "a" else m.player_a
        if m.is_bye:
            outcome = "bye"
        elif m.status != Match.Status.CONFIRMED:
            outcome = "pending"
        elif m.result == "draw":
            outcome = "draw"
        else:
            outcome = "win" if m.result == side else "loss"
        rows.append(
            {
                "round": m.round,  # named on the page by round_name: 第1ラウンド, 準決勝, 決勝
                "opponent": opp,
                "opponent_row": table.get(opp.pk) if opp else None,
                "outcome": outcome,
            }
        )
    # A late entry's Swiss rounds before its first count as the ruleset scores them (missed rounds).
    swiss = event.rounds.filter(stage=Round.Stage.SWISS)
    seen = {r["round"].number for r in rows}
    missed = [r for r in swiss if player.late_entry_round and r.number < player.late_entry_round]
    rows += [
        {"round": r, "opponent": None, "opponent_row": None, "outcome": "missed"}
        for r in missed
        if r.number not in seen
    ]
    rows.sort(key=lambda r: r["round"].number)
    return rows


def projector(request: HttpRequest, event_id: int) -> HttpResponse:
    def page() -> HttpResponse:
        event = get_object_or_404(Event, pk=event_id)
        rnd = current_round(event)
        matches = list(rnd.matches.select_related("player_a", "player_b")) if rnd else []
        rows = sorted(pairing_rows(matches), key=lambda r: r["kana"])  # type: ignore[arg-type, return-value]
        winner = champion(event)
        # the bracket is over: the final placings
        placed = shown_rows(event, public=True)[0] if winner is not None else []
        context = {
            "event": event,
            "round": rnd,
            "rows": rows,
            "champion": winner,
            "placed": placed,
            "standings": _between_rounds(event, rnd) if winner is None else [],
        }
        return render(request, "events/projector.html", context)

    # the standings between rounds follow every correction: the key is the event's latest change too
    return cached_page(request, ("projector", event_id, rounds_key(event_id), event_change_key(event_id)), page)


def _between_rounds(event: Event, rnd: Round | None) -> list[Any]:
    """After a Swiss round is over and before the next is paired, the projector shows the standings (dropped
    players left out: everyone looks for their own place)."""
    if rnd is None or rnd.stage != Round.Stage.SWISS or rnd.status != Round.Status.FINISHED:
        return []
    return [row for row in standings_for(event) if not row.dropped]


def bracket_columns(event: Event) -> list[dict[str, Any]]:
    """The bracket's rounds, each with its stage name and its tables (seed, name, duel wins, winner)."""
    rounds = list(event.rounds.filter(stage=Round.Stage.ELIMINATION).order_by("number"))
    if not rounds:
        return []
    first = rounds[0].pairing_input
    seeds = {int(pid): k for k, pid in enumerate(first.get("seeds") or [], start=1)} if not first.get("random") else {}
    columns = []
    for k, rnd in enumerate(rounds):
        tables = []
        for m in rnd.matches.select_related("player_a", "player_b").order_by("table"):
            decided = m.status == Match.Status.CONFIRMED
            sides = [(m.player_a, m.duel_wins_a, "a"), (m.player_b, m.duel_wins_b, "b")]
            tables.append(
                {
                    "table": m.table,
                    "bye": m.is_bye,
                    "decided": decided,
                    "sides": [
                        {
                            "name": p.name if p else "",
                            "seed": seeds.get(p.pk) if p else None,
                            "score": score if decided and not m.is_bye else None,
                            "won": decided and m.result == side,
                        }
                        for p, score, side in sides
                    ],
                }
            )
        columns.append({"round": rnd, "name": stage_words(elimination.stage(k + 1, len(tables))), "tables": tables})
    return columns


def bracket(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    context = {"event": event, "columns": bracket_columns(event), "champion": champion(event)}
    return render(request, "events/bracket.html", context)
