"""Importing an event file (``transfer``'s format, docs/event-json.md) as a new event, marked as an imported copy.

Every reference inside the file uses the file's own ids; each part is read in order (the event, staff, teams,
players, rounds, team matches, matches, reports, then the apps' sections and the events app's history), and a
broken part is named in the refusal (``import-invalid``), in one transaction: nothing of a refused file stays.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from taikai.audit.services import record
from taikai.core.ruleset import RulesetError, from_document
from taikai.events import actions
from taikai.events.actors import Actor, user_of
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Player, ResultReport, Round, StaffRole, Team, TeamMatch, create_round
from taikai.events.permissions import require_site_organizer
from taikai.events.services import transfer_history as history
from taikai.events.services.transfer import (
    EVENT_KEYS,
    FORMAT,
    LATER_KEYS,
    MATCH_KEYS,
    PLAN_ATTENDANCE_KEYS,
    PLAYER_KEYS,
    READABLE,
    ROUND_KEYS,
    RULINGS,
    SECRET_PLAYER_KEYS,
    SECTIONS,
    Importer,
)
from taikai.events.services.transfer_ids import Ids

# The events app's own record of what was decided and told, imported after every section (transfer_history).
HISTORY: dict[str, Importer] = {
    "notices": history.import_notices,
    "corrections": history.import_corrections,
    "announcements": history.import_announcements,
}


_BROKEN = (
    KeyError,
    TypeError,
    ValueError,
    AttributeError,
    IndexError,
    RulesetError,
    IntegrityError,
    DataError,
    ValidationError,
)


@contextlib.contextmanager
def _part(name: str) -> Iterator[None]:
    """Name the part of the file that is broken, instead of a Python error ("KeyError: 'event'")."""
    try:
        yield
    except ServiceError:
        raise
    except _BROKEN as exc:
        raise ServiceError("import-invalid", part=name) from exc


def _check_shape(data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ServiceError("import-invalid", part="format")
    if data.get("version") not in READABLE or isinstance(data.get("version"), bool):
        raise ServiceError(
            "import-version", version=str(data.get("version")), readable=", ".join(str(v) for v in READABLE)
        )
    if not isinstance(data.get("event"), dict):
        raise ServiceError("import-invalid", part="event")
    for key in ("players", "rounds", "matches", "staff", "teams", "team_matches", "reports", *HISTORY, *SECTIONS):
        rows = data.get(key, [])
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise ServiceError("import-invalid", part=key)


def import_event(data: Any, *, by: Actor) -> Event:
    require_site_organizer(by)
    _check_shape(data)
    _refuse_control_characters(data)
    try:
        with transaction.atomic():
            event = _import(data, user_of(by))
            record(
                actions.EVENT_IMPORTED,
                actor=by,
                obj=event,
                counts={k: len(data.get(k, [])) for k in ("players", "rounds", "matches")},
            )
    except (RulesetError, IntegrityError, DataError, ValidationError) as exc:
        raise ServiceError("import-invalid", part="data") from exc
    return event


def _import(data: dict[str, Any], owner: Any) -> Event:
    event = _event_row(data, owner)
    _staff(event, data, owner)
    teams = _teams(event, data)
    players = _players(event, data, teams)
    new_id = {old: p.pk for old, p in players.items()}
    rounds = _rounds(event, data, new_id)
    team_matches = _team_matches(data, rounds, teams)
    matches = _matches(data, rounds, players, team_matches)
    _reports(data, matches, players)
    ids = Ids(
        players=new_id,
        matches={old: m.pk for old, m in matches.items()},
        rounds={old: r.pk for old, r in rounds.items()},
        teams={old: t.pk for old, t in teams.items()},
        owner=owner,
    )
    for name, (_export, import_section) in SECTIONS.items():
        with _part(name):
            import_section(event, data.get(name, []), ids)
    with _part("matches"):
        _renumber_penalty_duels(list(matches.values()), ids.more.get("penalties", {}))
    for name, import_part in HISTORY.items():
        with _part(name):
            import_part(event, data.get(name, []), ids)
    return event


def _event_row(data: dict[str, Any], owner: Any) -> Event:
    with _part("event"):
        e = data["event"]
        from_document(e["ruleset_document"])  # validates the stored ruleset
        date = parse_date(e["date"])
        if date is None:
            raise ServiceError("bad-choice", field="date", value=e["date"])
        return Event.objects.create(
            **{k: e[k] for k in EVENT_KEYS if k not in ("date", "deck_deadline")},
            date=date,
            deck_deadline=_dt(e.get("deck_deadline")),
            registration_closed=bool(e.get("registration_closed", False)),
            **{k: e.get(k) for k in PLAN_ATTENDANCE_KEYS},
            archetypes_published_at=_dt(e.get("archetypes_published_at")),
            created_by=owner,
            imported_at=timezone.now(),
            imported_from=_origin(data, e),
        )


def _staff(event: Event, data: dict[str, Any], owner: Any) -> None:
    with _part("staff"):
        StaffRole.objects.get_or_create(event=event, user=owner, defaults={"role": StaffRole.Role.ORGANIZER})
        for s in data.get("staff", []):
            user = get_user_model().objects.filter(username=s["username"]).first()
            if s.get("role") not in StaffRole.Role.values:
                raise ValueError(f"unknown staff role {s.get('role')!r}")
            if user is not None and user != owner:
                StaffRole.objects.get_or_create(event=event, user=user, defaults={"role": s["role"]})


def _teams(event: Event, data: dict[str, Any]) -> dict[int, Team]:
    with _part("teams"):
        return {
            t["id"]: Team.objects.create(event=event, name=t["name"], dropped_after_round=t["dropped_after_round"])
            for t in data.get("teams", [])
        }


def _players(event: Event, data: dict[str, Any], teams: dict[int, Team]) -> dict[int, Player]:
    players: dict[int, Player] = {}
    with _part("players"):
        for p in data["players"]:
            p = {**LATER_KEYS, **p}
            fields = {k: p[k] for k in PLAYER_KEYS if k not in ("id", "team_id", "checked_in_at", *SECRET_PLAYER_KEYS)}
            fields.update({k: str(p.get(k) or "") for k in SECRET_PLAYER_KEYS})
            # A copy of an event on the server that holds the original must not open with the original's links.
            token = fields["access_token_hash"]
            if token and Player.objects.filter(access_token_hash=token).exists():
                fields["access_token_hash"] = ""
            players[p["id"]] = Player.objects.create(
                event=event,
                team=teams.get(p["team_id"]),
                checked_in_at=_dt(p["checked_in_at"]),
                declined_top_cut=bool(p["declined_top_cut"]),
                **fields,
            )
    return players


def _rounds(event: Event, data: dict[str, Any], new_id: dict[int, int]) -> dict[int, Round]:
    rounds: dict[int, Round] = {}
    with _part("rounds"):
        for r in data["rounds"]:
            fields = {k: r[k] for k in ROUND_KEYS if k not in ("id", "started_at", "time_called_at")}
            fields["pairing_input"] = _remap_pairing_input(fields["pairing_input"], new_id)
            rounds[r["id"]] = create_round(
                event=event, started_at=_dt(r["started_at"]), time_called_at=_dt(r["time_called_at"]), **fields
            )
    return rounds


def _team_matches(data: dict[str, Any], rounds: dict[int, Round], teams: dict[int, Team]) -> dict[int, TeamMatch]:
    with _part("team_matches"):
        return {
            t["id"]: TeamMatch.objects.create(
                round=rounds[t["round_id"]],
                table=t["table"],
                team_a=teams[t["team_a_id"]],
                team_b=teams.get(t["team_b_id"]),
                result=t["result"],
            )
            for t in data.get("team_matches", [])
        }


def _matches(
    data: dict[str, Any], rounds: dict[int, Round], players: dict[int, Player], team_matches: dict[int, TeamMatch]
) -> dict[int, Match]:
    matches: dict[int, Match] = {}
    with _part("matches"):
        for m in data["matches"]:
            m = {**LATER_KEYS, **m}
            fields = {k: m[k] for k in MATCH_KEYS if not k.endswith("_id") and k != "id"}
            if fields["ruling"] not in RULINGS or not isinstance(fields["penalty_duels"], list):
                raise ValueError("match ruling or penalty duels")
            matches[m["id"]] = Match.objects.create(
                round=rounds[m["round_id"]],
                player_a=players[m["player_a_id"]],
                player_b=players[m["player_b_id"]] if m["player_b_id"] is not None else None,
                team_match=team_matches.get(m["team_match_id"]),
                **fields,
            )
    return matches


def _reports(data: dict[str, Any], matches: dict[int, Match], players: dict[int, Player]) -> None:
    with _part("reports"):
        for rep in data.get("reports", []):
            ResultReport.objects.create(
                match=matches[rep["match_id"]],
                by_player=players.get(rep["by_player_id"]) if rep["by_player_id"] is not None else None,
                by_user=get_user_model().objects.filter(username=rep.get("by_user") or "").first(),
                record=rep["record"],
                basis=rep["basis"],
                idempotency_key=rep["idempotency_key"],
            )


def _origin(data: dict[str, Any], e: dict[str, Any]) -> str:
    """What the dashboard says of an imported copy: the file's event and when it was exported."""
    exported = parse_datetime(str(data.get("exported_at") or ""))
    when = timezone.localtime(exported).strftime("%Y-%m-%d %H:%M") if exported else ""
    return f"{str(e.get('name', ''))[:150]} {when}".strip()


def _renumber_penalty_duels(matches: list[Match], penalties: dict[int, int]) -> None:
    """A duel a penalty decided names its penalty by id (``Match.penalty_duels``): the new penalty's id."""
    for m in matches:
        if m.penalty_duels:
            m.penalty_duels = [
                {**d, "penalty": str(penalties.get(int(d["penalty"]), ""))} if d.get("penalty") else d
                for d in m.penalty_duels
            ]
            m.save(update_fields=["penalty_duels"])


def _refuse_control_characters(data: Any, depth: int = 0) -> None:
    """NUL and other control characters never belong in the file's texts (PostgreSQL cannot store NUL)."""
    if depth > 64:
        raise ServiceError("import-invalid", part="nesting")
    if isinstance(data, str):
        if any(ord(ch) < 0x20 and ch not in "\t\n\r" for ch in data):
            raise ServiceError("import-invalid", part="text (a control character)")
    elif isinstance(data, dict):
        for key, value in data.items():
            _refuse_control_characters(key, depth + 1)
            _refuse_control_characters(value, depth + 1)
    elif isinstance(data, list):
        for value in data:
            _refuse_control_characters(value, depth + 1)


def _remap_pairing_input(inp: dict[str, Any], new_id: dict[int, int]) -> dict[str, Any]:
    """A stored pairing input names players by id: renumber them so the round stays reproducible."""
    out = dict(inp)
    if "players" in out:
        out["players"] = [
            {**p, "id": new_id[p["id"]], "opponents": [new_id[o] for o in p["opponents"]]} for p in out["players"]
        ]
        out["forbidden"] = [[new_id[a], new_id[b]] for a, b in out.get("forbidden", [])]
    for key in ("seeds", "advancing"):
        if key in out:
            out[key] = [new_id[x] for x in out[key]]
    return out


def _dt(value: Any) -> dt.datetime | None:
    return parse_datetime(value) if value else None
