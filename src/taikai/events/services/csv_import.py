"""Players registered from a CSV file (a spreadsheet made at a shop): every row checked, then written in batches."""

from __future__ import annotations

import csv
import hashlib
import io
import time
import unicodedata

from django.conf import settings
from django.db import transaction

from taikai.audit.models import AuditEntry
from taikai.audit.services import record
from taikai.core.problems import Problem
from taikai.events import actions
from taikai.events.actors import Actor
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player
from taikai.events.permissions import require_organizer
from taikai.events.services.links import LINK_FIELDS, new_token
from taikai.events.services.registration import clean_values, register_row

# CSV headers the import reads, in English or Japanese (a spreadsheet made at a Japanese shop).
CSV_HEADERS = {
    "name": ("name", "名前", "氏名"),
    "name_kana": ("name_kana", "ふりがな", "よみがな", "フリガナ"),
    "card_game_id": ("card_game_id", "カードゲームID", "カードゲームid", "コナミID"),
    "contact": ("contact", "連絡先"),
}
CSV_TEMPLATE = "名前,ふりがな,カードゲームID,連絡先\r\n山田 太郎,やまだ たろう,0000000001,\r\n"


def _csv_columns(header: list[str]) -> dict[str, str]:
    """Our field -> the header cell naming it (NFKC, so full-width letters and spaces read the same)."""
    cells = {unicodedata.normalize("NFKC", h).strip().lower(): h for h in header}
    found = {}
    for field, names in CSV_HEADERS.items():
        for name in names:
            if name.lower() in cells:
                found[field] = cells[name.lower()]
                break
    return found


def _decode_csv(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            return data.decode("cp932")
        except UnicodeDecodeError as exc:
            raise ServiceError("csv-encoding") from exc


CSV_BATCH = 50  # rows per write transaction: SQLite's one writer lock is held for one batch, not the file
# Between batches the import steps aside this long: the writer lock (a thread lock, then a file lock) is not
# fair, and without a pause the import took it back before another event's waiting write could.
CSV_PAUSE = 0.02


def import_players_csv(event: Event, *, by: Actor, data: bytes) -> list[Player]:
    """CSV with a header: name, card_game_id, and optionally name_kana, contact (or 名前, カードゲームID,
    ふりがな, 連絡先), at most ``TAIKAI_CSV_MAX_ROWS`` rows. Every row is checked before any is written: a
    file with a bad row writes nothing, and every bad row is reported with its line and reason.

    The rows are then written in batches of ``CSV_BATCH``, each its own transaction with its own audit entry
    naming the file (its SHA-256) and the Card Game IDs it registered, so another event's write waits for
    one batch at most. If the server stops mid-way, the finished batches stay registered; sending the same
    file again registers the rest (its rows already registered by this file are skipped, not refused).
    Each imported player gets their personal link at once (issue 24, item 20)."""
    require_organizer(by, event)
    if not event.registration_open:
        raise ServiceError("registration-closed-late-entry")
    file_id = hashlib.sha256(data).hexdigest()
    rows = _checked_csv_rows(event, data, _imported_by(event, file_id))
    created: list[Player] = []
    for start in range(0, len(rows), CSV_BATCH):
        batch = rows[start : start + CSV_BATCH]
        with transaction.atomic():
            done = [_with_link(register_row(event, by, values)) for _line, values in batch]
            record(
                actions.PLAYERS_IMPORTED,
                actor=by,
                event_id=event.pk,
                count=len(done),
                links_issued=len(done),
                file=file_id,
                card_game_ids=[p.card_game_id for p in done],
                rows=len(rows),
                written=start + len(done),
            )
        created += done
        if start + CSV_BATCH < len(rows):
            time.sleep(CSV_PAUSE)
    return created


def _with_link(player: Player) -> Player:
    """An imported player gets their personal link at once (issue 24, item 20), so the desk can print every
    slip before the doors open, the KTS way; the link is derived again from its seed when a slip prints."""
    new_token(player)
    player.version += 1
    player.save(update_fields=[*LINK_FIELDS, "version"])
    return player


def _imported_by(event: Event, file_id: str) -> set[str]:
    """The Card Game IDs an earlier import of this very file registered (it may have stopped mid-way)."""
    entries = AuditEntry.objects.filter(event_id=event.pk, action=actions.PLAYERS_IMPORTED, data__file=file_id)
    return {str(c) for data in entries.values_list("data", flat=True) for c in (data or {}).get("card_game_ids", [])}


def _checked_csv_rows(event: Event, data: bytes, imported: set[str]) -> list[tuple[int, dict[str, str]]]:
    """Every row read and checked, outside any transaction; the rows to register, or ServiceError."""
    reader = csv.DictReader(io.StringIO(_decode_csv(data)))
    try:
        header = list(reader.fieldnames or [])
    except csv.Error as exc:
        raise ServiceError(
            "csv-rows", problems=(Problem("csv-row", line=1, inner=Problem("csv-unreadable-line")),)
        ) from exc
    columns = _csv_columns(header)
    missing = [CSV_HEADERS[f][1] for f in ("name", "card_game_id") if f not in columns]
    if missing:
        raise ServiceError("csv-missing-columns", columns=", ".join(missing))
    cap = settings.SERVER_LIMITS.csv_max_rows
    rows: list[tuple[int, dict[str, str]]] = []
    problems: list[Problem] = []
    taken = set(Player.objects.filter(event=event).values_list("card_game_id", flat=True))
    seen: dict[str, int] = {}
    count = 0
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error:  # a field over the csv module's 131,072 characters, an unclosed quote at the end
            problems.append(Problem("csv-row", line=reader.line_num + 1, inner=Problem("csv-unreadable-line")))
            break
        line = reader.line_num  # the physical line the row ends on
        raw = {field: (row.get(header) or "") for field, header in columns.items()}
        if not any(v.strip() for v in raw.values()):
            continue  # a blank line at the end of a spreadsheet export
        count += 1
        if count > cap:
            raise ServiceError("csv-too-many-rows", limit=cap)
        try:
            values = clean_values(
                name=raw["name"],
                card_game_id=raw["card_game_id"],
                name_kana=raw.get("name_kana", ""),
                contact=raw.get("contact", ""),
            )
        except ServiceError as exc:
            problems.append(Problem("csv-row", line=line, inner=exc.problem))
            continue
        cgid = values["card_game_id"]
        if cgid in taken and cgid in imported:
            continue  # registered by an earlier run of this same file (it stopped mid-way): not twice
        if cgid in taken:
            problems.append(Problem("csv-row", line=line, inner=Problem("already-registered", card_game_id=cgid)))
        elif cgid in seen:
            problems.append(Problem("csv-row", line=line, inner=Problem("csv-duplicate", first=seen[cgid])))
        else:
            seen[cgid] = line
            rows.append((line, values))
    if problems:
        raise ServiceError("csv-rows", problems=tuple(problems))
    return rows
