"""The judging app's part of the event file (taikai.events.services.transfer, docs/event-json.md): judge calls,
penalties with their effects, appeals, the time procedure at each table, coin flips and die rolls, playoffs and
the prize table.

Rows name each other by the file's ids; an account is named by its user name and restored where this server
has it (a penalty's judge, whom the row cannot lack, is the importing organizer otherwise). Times stamped on
insert (a call's, a penalty's) are written from the file afterwards.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Model
from django.utils.dateparse import parse_datetime

from taikai.core.penalties import Landing
from taikai.core.rungs import RUNGS
from taikai.events.models import Event
from taikai.events.services import transfer
from taikai.events.services.transfer_ids import Ids
from taikai.judging.models import (
    Appeal,
    CallCaller,
    JudgeCall,
    Penalty,
    Playoff,
    PrizeRank,
    TableToolLog,
    TimeProcedureRun,
)

CALL_KEYS = ["table", "source", "reporter", "topic", "description", "dedupe_key", "status", "ruling"]
CALL_KEYS += ["ruling_seconds", "extended_seconds"]
PENALTY_KEYS = ["card_game_id", "player_name", "infraction", "rung", "default_rung", "rung_reason", "description"]
PENALTY_KEYS += ["downgrade_steps", "prize_loss", "intentional", "decided_place", "in_database", "lands_on"]
PENALTY_KEYS += ["effects", "waiting_for_next_match", "overturned"]
APPEAL_KEYS = ["reason", "status", "decision_note"]
LANDINGS = ("", *(landing.value for landing in Landing))


def _time(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value else None


def _parsed(value: Any) -> dt.datetime | None:
    return parse_datetime(str(value)) if value else None


def _name(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def _stamp(model: type[Model], pk: int, **times: Any) -> None:
    """A time the row stamps on insert (auto_now_add), set from the file."""
    parsed = {k: _parsed(v) for k, v in times.items() if _parsed(v) is not None}
    if parsed:
        model._default_manager.filter(pk=pk).update(**parsed)


def export_calls(event: Event) -> list[dict[str, Any]]:
    calls = JudgeCall.objects.filter(event=event).select_related("raised_by_user", "taken_by").order_by("id")
    calls = calls.prefetch_related("callers")
    return [
        {
            "id": c.pk,
            **{k: getattr(c, k) for k in CALL_KEYS},
            "match_id": c.match_id,
            "raised_by_player_id": c.raised_by_player_id,
            "raised_by_user": _name(c.raised_by_user),
            "taken_by": _name(c.taken_by),
            "created_at": _time(c.created_at),
            "taken_at": _time(c.taken_at),
            "closed_at": _time(c.closed_at),
            "callers": [
                {
                    "player_id": r.player_id,
                    "question": r.question,
                    "called_at": _time(r.called_at),
                    "withdrawn_at": _time(r.withdrawn_at),
                }
                for r in c.callers.all()
            ],
        }
        for c in calls
    ]


def import_calls(event: Event, rows: list[dict[str, Any]], ids: Ids) -> None:
    made = ids.more.setdefault("judge_calls", {})
    for row in rows:
        if row["source"] not in JudgeCall.Source.values or row["status"] not in JudgeCall.Status.values:
            raise ValueError("judge call source or status")
        call = JudgeCall.objects.create(
            event=event,
            **{k: row[k] for k in CALL_KEYS},
            match_id=ids.optional("matches", row.get("match_id")),
            raised_by_player_id=ids.optional("players", row.get("raised_by_player_id")),
            raised_by_user=ids.user(row.get("raised_by_user")),
            taken_by=ids.user(row.get("taken_by")),
            taken_at=_parsed(row.get("taken_at")),
            closed_at=_parsed(row.get("closed_at")),
        )
        _stamp(JudgeCall, call.pk, created_at=row.get("created_at"))
        made[int(row["id"])] = call.pk
        for caller in row.get("callers", []):  # a file from before callers were kept has none
            _import_caller(call, caller, ids)


def _import_caller(call: JudgeCall, row: dict[str, Any], ids: Ids) -> None:
    if _parsed(row["called_at"]) is None:
        raise ValueError("caller's time")
    made = CallCaller.objects.create(
        call=call,
        player_id=ids.players[int(row["player_id"])],
        question=str(row.get("question") or ""),
        withdrawn_at=_parsed(row.get("withdrawn_at")),
    )
    _stamp(CallCaller, made.pk, called_at=row["called_at"])


def export_penalties(event: Event) -> list[dict[str, Any]]:
    penalties = Penalty.objects.filter(event=event).select_related("issued_by").order_by("id")
    return [
        {
            "id": p.pk,
            **{k: getattr(p, k) for k in PENALTY_KEYS},
            "player_id": p.player_id,
            "match_id": p.match_id,
            "call_id": p.call_id,
            "team_source_id": p.team_source_id,
            "issued_by": _name(p.issued_by),
            "issued_at": _time(p.issued_at),
            "overturned_at": _time(p.overturned_at),
        }
        for p in penalties
    ]


def import_penalties(event: Event, rows: list[dict[str, Any]], ids: Ids) -> None:
    made = ids.more.setdefault("penalties", {})
    for row in sorted(rows, key=lambda r: int(r["id"])):  # a team copy comes after the penalty it copies
        if row["rung"] not in RUNGS or row["default_rung"] not in ("", *RUNGS) or row["lands_on"] not in LANDINGS:
            raise ValueError("penalty rung or landing")
        penalty = Penalty.objects.create(
            event=event,
            **{k: row[k] for k in PENALTY_KEYS if k != "effects"},
            effects=[_renumbered(effect, ids) for effect in row["effects"]],
            player_id=ids.players[int(row["player_id"])],
            match_id=ids.optional("matches", row.get("match_id")),
            call_id=ids.optional("judge_calls", row.get("call_id")),
            team_source_id=ids.optional("penalties", row.get("team_source_id")),
            issued_by=ids.user(row.get("issued_by")) or ids.owner,
            overturned_at=_parsed(row.get("overturned_at")),
        )
        _stamp(Penalty, penalty.pk, issued_at=row.get("issued_at"))
        made[int(row["id"])] = penalty.pk


def _renumbered(effect: dict[str, Any], ids: Ids) -> dict[str, Any]:
    """An effect names the match, player or team it changed (to undo it on an overturn): the copy's rows."""
    tables = {"match": ids.matches, "player": ids.players, "team": ids.teams}
    return {k: tables[k][int(v)] if k in tables and v is not None else v for k, v in dict(effect).items()}


def export_appeals(event: Event) -> list[dict[str, Any]]:
    appeals = Appeal.objects.filter(event=event).select_related("filed_by_user", "decided_by").order_by("id")
    return [
        {
            **{k: getattr(a, k) for k in APPEAL_KEYS},
            "player_id": a.player_id,
            "penalty_id": a.penalty_id,
            "call_id": a.call_id,
            "filed_by_user": _name(a.filed_by_user),
            "decided_by": _name(a.decided_by),
            "created_at": _time(a.created_at),
            "decided_at": _time(a.decided_at),
        }
        for a in appeals
    ]


def import_appeals(event: Event, rows: list[dict[str, Any]], ids: Ids) -> None:
    for row in rows:
        if row["status"] not in Appeal.Status.values:
            raise ValueError("appeal status")
        appeal = Appeal.objects.create(
            event=event,
            **{k: row[k] for k in APPEAL_KEYS},
            player_id=ids.players[int(row["player_id"])],
            penalty_id=ids.optional("penalties", row.get("penalty_id")),
            call_id=ids.optional("judge_calls", row.get("call_id")),
            filed_by_user=ids.user(row.get("filed_by_user")),
            decided_by=ids.user(row.get("decided_by")),
            decided_at=_parsed(row.get("decided_at")),
        )
        _stamp(Appeal, appeal.pk, created_at=row.get("created_at"))


def export_time_procedures(event: Event) -> list[dict[str, Any]]:
    runs = TimeProcedureRun.objects.filter(match__round__event=event).select_related("started_by").order_by("id")
    return [
        {
            "match_id": r.match_id,
            "start": r.start,
            "inputs": r.inputs,
            "started_by": _name(r.started_by),
            "result_entered": r.result_entered,
        }
        for r in runs
    ]


def import_time_procedures(event: Event, rows: list[dict[str, Any]], ids: Ids) -> None:
    for row in rows:
        TimeProcedureRun.objects.create(
            match_id=ids.matches[int(row["match_id"])],
            start=row["start"],
            inputs=list(row["inputs"]),
            started_by=ids.user(row.get("started_by")) or ids.owner,
            result_entered=bool(row["result_entered"]),
        )


def export_table_tools(event: Event) -> list[dict[str, Any]]:
    rows = TableToolLog.objects.filter(event=event).select_related("by_user").order_by("id")
    return [
        {
            "table": t.table,
            "kind": t.kind,
            "value": t.value,
            "by_user": _name(t.by_user),
            "by_player_id": t.by_player_id,
            "created_at": _time(t.created_at),
        }
        for t in rows
    ]


def import_table_tools(event: Event, rows: list[dict[str, Any]], ids: Ids) -> None:
    for row in rows:
        if row["kind"] not in TableToolLog.Kind.values:
            raise ValueError("table tool kind")
        tool = TableToolLog.objects.create(
            event=event,
            table=int(row["table"]),
            kind=row["kind"],
            value=str(row["value"])[:20],
            by_user=ids.user(row.get("by_user")),
            by_player_id=ids.optional("players", row.get("by_player_id")),
        )
        _stamp(TableToolLog, tool.pk, created_at=row.get("created_at"))


def export_playoffs(event: Event) -> list[dict[str, Any]]:
    playoffs = Playoff.objects.filter(event=event).select_related("created_by").order_by("id")
    return [
        {
            "prize_label": p.prize_label,
            "slots": p.slots,
            "candidates": p.candidates,
            "pairs": p.pairs,
            "created_by": _name(p.created_by),
            "created_at": _time(p.created_at),
        }
        for p in playoffs
    ]


def import_playoffs(event: Event, rows: list[dict[str, Any]], ids: Ids) -> None:
    entrants = ids.teams if event.is_team_event else ids.players  # a playoff is between entrants
    for row in rows:
        playoff = Playoff.objects.create(
            event=event,
            prize_label=str(row["prize_label"])[:100],
            slots=int(row["slots"]),
            candidates=[entrants[int(c)] for c in row["candidates"]],
            pairs=[[entrants[int(x)] if x is not None else None for x in pair] for pair in row["pairs"]],
            created_by=ids.user(row.get("created_by")) or ids.owner,
        )
        _stamp(Playoff, playoff.pk, created_at=row.get("created_at"))


def export_prizes(event: Event) -> list[dict[str, Any]]:
    return [
        {"label": r.label, "first": r.first, "last": r.last, "shared": r.shared}
        for r in PrizeRank.objects.filter(event=event).order_by("first", "id")
    ]


def import_prizes(event: Event, rows: list[dict[str, Any]], ids: Ids) -> None:
    for row in rows:
        first, last = int(row["first"]), int(row["last"])
        if not 1 <= first <= last or not str(row["label"]).strip():
            raise ValueError("prize rank")
        PrizeRank.objects.create(
            event=event, label=str(row["label"])[:100], first=first, last=last, shared=bool(row.get("shared", True))
        )


# In this order: a penalty names its judge call, an appeal its penalty.
transfer.register_section("judge_calls", export_calls, import_calls)
transfer.register_section("penalties", export_penalties, import_penalties)
transfer.register_section("appeals", export_appeals, import_appeals)
transfer.register_section("time_procedures", export_time_procedures, import_time_procedures)
transfer.register_section("table_tools", export_table_tools, import_table_tools)
transfer.register_section("playoffs", export_playoffs, import_playoffs)
transfer.register_section("prize_ranks", export_prizes, import_prizes)
