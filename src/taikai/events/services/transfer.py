"""The whole event as one documented JSON file (docs/event-json.md): its format, its keys and its export.

Format ``taikai-event`` version 2 (version 1 files still import). Import (``transfer_import``) creates a new
event with new ids, marked as an imported copy; every reference inside the file uses the file's own ids, so a
round trip reproduces the event exactly (tested). The other apps add their parts (penalties, deck lists, ...) as
sections (``register_section``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.utils import timezone

from taikai.core.open_match import Ruling
from taikai.events.actors import Actor
from taikai.events.models import Event, Match, ResultReport, TeamMatch
from taikai.events.permissions import require_organizer
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


# Sections the apps add to the file (penalties, deck lists, the prize table, ...): name -> (export, import).
# The events app knows no other app; an app registers its section when it starts (AppConfig.ready).
Exporter = Callable[[Event], list[dict[str, Any]]]
Importer = Callable[[Event, list[dict[str, Any]], Ids], None]
SECTIONS: dict[str, tuple[Exporter, Importer]] = {}


def register_section(name: str, export: Exporter, import_: Importer) -> None:
    """``import_`` receives the new event, the section's rows and the ids of what was imported before it."""
    SECTIONS[name] = (export, import_)
