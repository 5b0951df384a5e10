"""The whole event as one documented JSON file (docs/event-json.md), and its import.

Format ``taikai-event`` version 2 (version 1 files still import). Import creates a new event with new ids,
marked as an imported copy; every reference inside the file uses the file's own ids, so a round trip
reproduces the event exactly (tested). The other apps add their parts (penalties, deck lists, ...) as
sections (``register_section``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from taikai.audit.services import record
from taikai.core.open_match import Ruling
from taikai.core.ruleset import RulesetError, from_document
from taikai.events import actions
from taikai.events.actors import Actor, user_of
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Player, ResultReport, Round, StaffRole, Team, TeamMatch, create_round
from taikai.events.permissions import require_organizer, require_site_organizer
from taikai.events.services import transfer_history as history
from taikai.events.services.transfer_ids import Ids

FORMAT, VERSION = "taikai-event", 2
READABLE = (1, 2)  # the versions this server imports; a newer file is refused naming both
EVENT_KEYS = [
    "name",
    "date",
    "venue",
    "ruleset_name",
    "ruleset_document",
    "ruleset_fingerprint",
    "format",
    "swiss_rounds",
    "top_cut",
    "deck_deadline",
    "banlist_name",
    "banlist_entries",
    "is_team_event",
    "status",
    "tiebreak_seed",
]
# Which of swiss_rounds/top_cut were read from the attendance table at round 1, for how many (issue 22).
PLAN_ATTENDANCE_KEYS = ["swiss_rounds_attendance", "top_cut_attendance"]
# Keys a version 1 file may lack (they came later); read with their model default.
LATER_EVENT_KEYS = ["registration_closed", "archetypes_published_at", *PLAN_ATTENDANCE_KEYS]
PLAYER_KEYS = [
    "id",
    "name",
    "name_kana",
    "card_game_id",
    "contact",
    "team_id",
    "seat",
    "checked_in_at",
    "id_card_shown",
    "ineligible_reason",
    "late_entry_round",
    "dropped_after_round",
    "disqualified",
    "access_token_hash",
    "pin_hash",
]
ROUND_KEYS = [
    "id",
    "number",
    "stage",
    "status",
    "seed",
    "pairing_input",
    "pairing_report",
    "time_limit_seconds",
    "started_at",
    "pauses",
    "time_called_at",
]
MATCH_KEYS = [
    "id",
    "round_id",
    "table",
    "player_a_id",
    "player_b_id",
    "team_match_id",
    "seat",
    "is_bye",
    "status",
    "record",
    "result",
    "duel_wins_a",
    "duel_wins_b",
    "duel_draws",
    "basis",
    "extension_seconds",
    "manual",
    "ruling",
    "penalty_duels",
]
RULINGS = ("", *(ruling.value for ruling in Ruling))  # what may have ended a match instead of its duels
# Keys a version 1 file may lack, with the value they had before they existed.
LATER_KEYS = {"disqualified": False, "declined_top_cut": False, "ruling": "", "penalty_duels": []}
REPORT_KEYS = ["match_id", "by_player_id", "record", "basis", "idempotency_key"]
# Hashes of the personal links and PINs: a 6-digit PIN hash falls offline in minutes, so an export leaves
# them out unless asked for (moving a running event to another server with the players' links working).
SECRET_PLAYER_KEYS = ("access_token_hash", "pin_hash")


def _json(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.date | dt.datetime) else value


def _rows(qs: Any, keys: list[str]) -> list[dict[str, Any]]:
    return [{k: _json(getattr(obj, k)) for k in keys} for obj in qs]


def export_event(event: Event, *, by: Actor, secrets: bool = False) -> dict[str, Any]:
    """The whole event, players' contact details included: the organizer's (PRODUCT.md). Personal-link and PIN
    hashes only with ``secrets`` (moving the event with its links)."""
    require_organizer(by, event)
    player_keys = PLAYER_KEYS if secrets else [k for k in PLAYER_KEYS if k not in SECRET_PLAYER_KEYS]
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "event": {k: _json(getattr(event, k)) for k in [*EVENT_KEYS, *LATER_EVENT_KEYS]},
        "staff": [{"username": s.user.get_username(), "role": s.role} for s in event.staff.select_related("user")],
        "teams": _rows(event.teams.all(), ["id", "name", "dropped_after_round"]),
        "players": _rows(event.players.all(), [*player_keys, "declined_top_cut"]),
        "rounds": _rows(event.rounds.all(), ROUND_KEYS),
        "team_matches": _rows(
            TeamMatch.objects.filter(round__event=event),
            ["id", "round_id", "table", "team_a_id", "team_b_id", "result"],
        ),
        "matches": _rows(Match.objects.filter(round__event=event).order_by("id"), MATCH_KEYS),
        **{name: export(event) for name, (export, _import) in SECTIONS.items()},
        "notices": history.export_notices(event),
        "corrections": history.export_corrections(event),
        "announcements": history.export_announcements(event),
        "reports": [
            {
                **{k: _json(getattr(r, k)) for k in REPORT_KEYS},
                "by_user": r.by_user.get_username() if r.by_user else None,
            }
            for r in ResultReport.objects.filter(match__round__event=event).select_related("by_user").order_by("id")
        ],
    }


def _dt(value: Any) -> dt.datetime | None:
    return parse_datetime(value) if value else None


# Sections the apps add to the file (penalties, deck lists, the prize table, ...): name -> (export, import).
# The events app knows no other app; an app registers its section when it starts (AppConfig.ready).
Exporter = Callable[[Event], list[dict[str, Any]]]
Importer = Callable[[Event, list[dict[str, Any]], Ids], None]
SECTIONS: dict[str, tuple[Exporter, Importer]] = {}


def register_section(name: str, export: Exporter, import_: Importer) -> None:
    """``import_`` receives the new event, the section's rows and the ids of what was imported before it."""
    SECTIONS[name] = (export, import_)


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
                event_id=event.pk,
                obj=event,
                counts={k: len(data.get(k, [])) for k in ("players", "rounds", "matches")},
            )
    except (RulesetError, IntegrityError, DataError, ValidationError) as exc:
        raise ServiceError("import-invalid", part="data") from exc
    return event


def _import(data: dict[str, Any], owner: Any) -> Event:
    with _part("event"):
        e = data["event"]
        from_document(e["ruleset_document"])  # validates the stored ruleset
        date = parse_date(e["date"])
        if date is None:
            raise ServiceError("bad-choice", field="date", value=e["date"])
        event = Event.objects.create(
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
    User = get_user_model()
    with _part("staff"):
        StaffRole.objects.get_or_create(event=event, user=owner, defaults={"role": StaffRole.Role.ORGANIZER})
        for s in data.get("staff", []):
            user = User.objects.filter(username=s["username"]).first()
            if s.get("role") not in StaffRole.Role.values:
                raise ValueError(f"unknown staff role {s.get('role')!r}")
            if user is not None and user != owner:
                StaffRole.objects.get_or_create(event=event, user=user, defaults={"role": s["role"]})
    with _part("teams"):
        teams = {
            t["id"]: Team.objects.create(event=event, name=t["name"], dropped_after_round=t["dropped_after_round"])
            for t in data.get("teams", [])
        }
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
    rounds: dict[int, Round] = {}
    new_id = {old: p.pk for old, p in players.items()}
    with _part("rounds"):
        for r in data["rounds"]:
            fields = {k: r[k] for k in ROUND_KEYS if k not in ("id", "started_at", "time_called_at")}
            fields["pairing_input"] = _remap_pairing_input(fields["pairing_input"], new_id)
            rounds[r["id"]] = create_round(
                event=event, started_at=_dt(r["started_at"]), time_called_at=_dt(r["time_called_at"]), **fields
            )
    with _part("team_matches"):
        team_matches = {
            t["id"]: TeamMatch.objects.create(
                round=rounds[t["round_id"]],
                table=t["table"],
                team_a=teams[t["team_a_id"]],
                team_b=teams.get(t["team_b_id"]),
                result=t["result"],
            )
            for t in data.get("team_matches", [])
        }
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
    with _part("reports"):
        for rep in data.get("reports", []):
            ResultReport.objects.create(
                match=matches[rep["match_id"]],
                by_player=players.get(rep["by_player_id"]) if rep["by_player_id"] is not None else None,
                by_user=User.objects.filter(username=rep.get("by_user") or "").first(),
                record=rep["record"],
                basis=rep["basis"],
                idempotency_key=rep["idempotency_key"],
            )
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
