"""Registration, check-in, drops, and the players' personal links (no password accounts)."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import time
import unicodedata

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils import timezone

from taikai.audit.models import AuditEntry
from taikai.audit.services import record
from taikai.core.collation import name_order
from taikai.core.open_match import Ruling
from taikai.core.penalties import head_judge_required
from taikai.core.problems import Problem
from taikai.db.heavy import require_outside_write
from taikai.events import actions, reads
from taikai.events.actors import Actor, Visitor
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player, as_dict
from taikai.events.permissions import (
    require_head_judge,
    require_judge,
    require_organizer,
    require_player_or_organizer,
    require_registration,
    require_staff,
)
from taikai.events.services import notices
from taikai.events.services.links import LINK_FIELDS, new_token
from taikai.events.services.links import issue_access as issue_access
from taikai.events.services.links import player_for_token as player_for_token
from taikai.events.services.links import print_all_slips as print_all_slips
from taikai.events.services.links import reprint_slip as reprint_slip
from taikai.events.services.links import revoke_access as revoke_access

PLAYER_FIELDS = [
    "name",
    "name_kana",
    "card_game_id",
    "contact",
    "checked_in_at",
    "id_card_shown",
    "late_entry_round",
    "dropped_after_round",
    "ineligible_reason",
    "disqualified",
]


def normalize_card_game_id(raw: str) -> str:
    """REG-1/REG-2: exactly 10 digits; full-width digits, spaces and hyphens are accepted and removed."""
    value = unicodedata.normalize("NFKC", raw or "").replace(" ", "").replace("-", "")
    if not value:
        raise ServiceError("required", field="card_game_id")
    # Decimal digits of any script (Arabic-Indic, Devanagari...) become ASCII, so one ID has one spelling;
    # other "digits" (superscripts, circled numbers) are refused.
    if all(unicodedata.decimal(ch, None) is not None for ch in value):
        value = "".join(str(unicodedata.decimal(ch)) for ch in value)
    if not value.isascii() or not value.isdigit() or len(value) != 10:
        raise ServiceError("bad-card-game-id", value=raw)
    return value


def _clean_name(raw: str, field: str, required: bool = True) -> str:
    value = unicodedata.normalize("NFKC", raw or "").strip()
    if any(unicodedata.category(ch) == "Cc" for ch in value):  # NUL, escapes: never part of a name
        raise ServiceError("bad-characters", field=field)
    if required and not value:
        raise ServiceError("required", field=field)
    if len(value) > 100:
        raise ServiceError("too-long", field=field, limit=100)
    return value


def _played_rounds(event: Event) -> int:
    return reads.swiss_rounds_played(event.pk)


def register_player(
    event: Event,
    *,
    by: Actor,
    name: str,
    card_game_id: str,
    name_kana: str = "",
    contact: str = "",
    late_entry: bool = False,
) -> Player:
    """The organizer registers anyone; a visitor registers themself on a phone while registration is open.

    Once registration is closed (by the organizer, or by pairing round 1) a new arrival joins only as an
    explicit late entry (``late_entry=True``), who holds the missed Swiss rounds as the ruleset scores them
    (scoring.late_entry_missed_round). Nobody joins a finished event."""
    require_registration(by, event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError("event-finished")
    if not late_entry and (event.status != Event.Status.REGISTRATION or event.registration_closed):
        raise ServiceError("registration-closed-late-entry")
    values = _clean_values(name=name, card_game_id=card_game_id, name_kana=name_kana, contact=contact)
    with transaction.atomic():
        played = _played_rounds(event)
        if played and not late_entry:  # round 1 was paired after the event was read
            raise ServiceError("registration-closed-late-entry")
        try:
            player = Player.objects.create(event=event, late_entry_round=(played + 1) if played else None, **values)
        except IntegrityError as exc:  # player_once_per_event: this Card Game ID is registered already
            raise ServiceError("already-registered", card_game_id=values["card_game_id"]) from exc
        record(
            actions.PLAYER_REGISTERED,
            actor=by,
            event_id=event.pk,
            obj=player,
            after=as_dict(player, PLAYER_FIELDS),
            late_entry=bool(played) or late_entry,
        )
    return player


def remove_spam_registrations(event: Event, *, by: Actor, since: dt.datetime) -> int:
    """Issue 16, M4: the organizer removes in one action every player who registered themself on a phone
    since ``since`` and has not been checked in nor paired. Desk registrations are never touched."""
    require_organizer(by, event)
    self_registered = AuditEntry.objects.filter(
        event_id=event.pk, action=actions.PLAYER_REGISTERED, actor_label=Visitor().audit_label(), at__gte=since
    ).values_list("object_id", flat=True)
    ids = [int(i) for i in self_registered if str(i).isdigit()]
    with transaction.atomic():
        paired = set(event.rounds.values_list("matches__player_a_id", flat=True)) | set(
            event.rounds.values_list("matches__player_b_id", flat=True)
        )
        doomed = list(Player.objects.filter(event=event, pk__in=ids, checked_in_at__isnull=True).exclude(pk__in=paired))
        if not doomed:
            return 0
        record(
            actions.SPAM_REGISTRATIONS_REMOVED,
            actor=by,
            event_id=event.pk,
            obj=event,
            before={"players": [as_dict(p, PLAYER_FIELDS) | {"id": p.pk} for p in doomed]},
            count=len(doomed),
        )
        Player.objects.filter(pk__in=[p.pk for p in doomed]).delete()
    return len(doomed)


def _clean_values(*, name: str, card_game_id: str, name_kana: str, contact: str) -> dict[str, str]:
    return {
        "name": _clean_name(name, "name"),
        "name_kana": _clean_name(name_kana, "name_kana", required=False),
        "card_game_id": normalize_card_game_id(card_game_id),
        "contact": (contact or "").strip()[:200],
    }


def update_player(player: Player, *, by: Actor, **changes: str) -> Player:
    """Correct a player's name, reading, Card Game ID or contact (a typo at the desk), at any time."""
    require_staff(by, player.event)
    unknown = set(changes) - {"name", "name_kana", "card_game_id", "contact"}
    if unknown:
        raise ServiceError("bad-field", field=sorted(unknown)[0])
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        before = as_dict(player, PLAYER_FIELDS)
        current = {k: getattr(player, k) for k in ("name", "name_kana", "card_game_id", "contact")}
        values = _clean_values(**{**current, **changes})
        taken = Player.objects.filter(event_id=player.event_id, card_game_id=values["card_game_id"])
        if taken.exclude(pk=player.pk).exists():
            raise ServiceError("already-registered", card_game_id=values["card_game_id"])
        for key, value in values.items():
            setattr(player, key, value)
        player.version += 1
        player.save()
        record(
            actions.PLAYER_UPDATED,
            actor=by,
            event_id=player.event_id,
            obj=player,
            before=before,
            after=as_dict(player, PLAYER_FIELDS),
        )
    return player


def delete_player(player: Player, *, by: Actor) -> None:
    """Remove a registration made by mistake, before round 1 is paired; afterwards a player drops instead
    (their results stay in the record). The audit entry keeps what was deleted."""
    require_organizer(by, player.event)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.event.rounds.exists():
            raise ServiceError("player-delete-after-start")
        before = {**as_dict(player, PLAYER_FIELDS), "id": player.pk}
        event_id = player.event_id
        try:
            with transaction.atomic():
                player.delete()
        except ProtectedError as exc:  # e.g. a penalty already names the player
            raise ServiceError("player-has-records", name=before["name"]) from exc
        record(actions.PLAYER_DELETED, actor=by, event_id=event_id, before=before)


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
            done = [_with_link(_register_row(event, by, values)) for _line, values in batch]
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
    player.save(update_fields=LINK_FIELDS)
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
            values = _clean_values(
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


def _register_row(event: Event, by: Actor, fields: dict[str, str]) -> Player:
    """A registration from a form or a CSV row (text fields only: never a late entry)."""
    return register_player(
        event,
        by=by,
        name=fields.get("name", ""),
        card_game_id=fields.get("card_game_id", ""),
        name_kana=fields.get("name_kana", ""),
        contact=fields.get("contact", ""),
    )


def register_with_access(event: Event, *, by: Actor, **fields: str) -> tuple[Player, str]:
    """Register and hand out the personal link at once (returned once), so a deck list can be sent before
    the event; check-in later only confirms attendance."""
    with transaction.atomic():
        player = _register_row(event, by, fields)
        token = new_token(player)
        player.version += 1
        player.save(update_fields=LINK_FIELDS)
        record(actions.PLAYER_ACCESS_ISSUED, actor=by, event_id=event.pk, obj=player)
    return player, token


def check_in(player: Player, *, by: Actor, id_card_shown: bool = True) -> tuple[Player, str]:
    """REG-1/REG-3: the desk saw the ID card. A player registered with a link keeps it (the token is "");
    one without (imported from a CSV file) gets their personal link now (returned once)."""
    require_organizer(by, player.event)
    with transaction.atomic():
        # of=("self",): the event is read with the row (one statement), only the player's row is locked
        locked = reads.locked_player(player.pk)
        if locked is None:
            raise Player.DoesNotExist  # as the ORM's get() said for a player removed meanwhile
        player = locked
        if player.event.status == Event.Status.FINISHED:
            raise ServiceError("event-finished")
        before = as_dict(player, PLAYER_FIELDS)
        if (
            player.checked_in_at is None
            and player.late_entry_round is None
            and player.event.status != Event.Status.REGISTRATION
        ):
            # Checking in after Swiss rounds were paired is a late entry: the rounds missed are scored as
            # the ruleset says (a player not checked in is never paired, so they were missed). Before round 1
            # is paired the event is still in registration and no round was missed.
            played = _played_rounds(player.event)
            player.late_entry_round = (played + 1) if played else None
        player.checked_in_at = player.checked_in_at or timezone.now()
        player.id_card_shown = id_card_shown
        token = "" if player.access_token_hash else new_token(player)
        player.version += 1
        player.save(update_fields=["late_entry_round", "checked_in_at", "id_card_shown", *LINK_FIELDS])
        record(
            actions.PLAYER_CHECKED_IN,
            actor=by,
            event_id=player.event_id,
            obj=player,
            before=before,
            after=as_dict(player, PLAYER_FIELDS),
        )
    return player, token


PIN_HASHER = "taikai_pin_argon2"  # taikai.security.hashers.PinHasher: why PINs are hashed cheaper than passwords


def set_pin(player: Player, *, pin: str) -> None:
    """The player chooses a PIN on their own page, to recover the link with their Card Game ID.

    A new PIN has at least ``TAIKAI_PIN_DIGITS`` digits (6 by default; 4-digit PINs fell to guessing). A PIN
    chosen earlier under the 4-digit rule keeps working: the player cannot be asked to change it mid-event,
    and the per-ID throttle across all addresses makes guessing it take days, longer than an event.
    The hash is computed before the transaction, which only stores it: it is slow on purpose and must not
    hold the writer lock (issue 16, M1).
    """
    pin = unicodedata.normalize("NFKC", pin or "").strip()
    if not pin.isascii() or not pin.isdigit() or not settings.LIMITS.pin_digits <= len(pin) <= 12:
        raise ServiceError("bad-pin", digits=settings.LIMITS.pin_digits)
    require_outside_write("hashing a PIN")
    pin_hash = make_password(pin, hasher=PIN_HASHER)
    with transaction.atomic():
        Player.objects.filter(pk=player.pk).update(pin_hash=pin_hash)
        record(actions.PLAYER_PIN_SET, actor_label=f"player:{player.pk}", event_id=player.event_id, obj=player)


def recover_access(event: Event, *, card_game_id: str, pin: str) -> tuple[Player, str]:
    try:
        cgid = normalize_card_game_id(card_game_id)
    except ServiceError as exc:
        raise ServiceError("recovery-failed") from exc
    player = Player.objects.filter(event=event, card_game_id=cgid).first()
    require_outside_write("checking a PIN")
    # Check a hash even when no player matches, so timing does not reveal registered IDs.
    ok = check_password(
        unicodedata.normalize("NFKC", pin or ""),
        player.pin_hash if player and player.pin_hash else make_password(None, hasher=PIN_HASHER),
    )
    if player is None or not player.pin_hash or not ok:
        raise ServiceError("recovery-failed")
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        token = new_token(player)
        player.version += 1
        player.save(update_fields=LINK_FIELDS)
        record(actions.PLAYER_ACCESS_RECOVERED, actor_label=f"player:{player.pk}", event_id=event.pk, obj=player)
    return player, token


def drop_player(player: Player, *, by: Actor) -> Player:
    """A dropped player is never paired again; their results stay in the standings. The player drops
    themself, or the organizer drops them. A drop while their table is being played concedes that match
    (``core.open_match``): the opponent wins and the round does not wait for it."""
    require_player_or_organizer(by, player)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.dropped:
            raise ServiceError("already-dropped")
        before = as_dict(player, PLAYER_FIELDS)
        player.dropped_after_round = player.event.rounds.count()
        player.version += 1
        player.save()
        record(
            actions.PLAYER_DROPPED,
            actor=by,
            event_id=player.event_id,
            obj=player,
            before=before,
            after=as_dict(player, PLAYER_FIELDS),
        )
        _end_open_match(player, by, Ruling.DROP_CONCESSION)
    return player


def _end_open_match(player: Player, by: Actor, ruling: Ruling) -> None:
    # imported here: results (which rulings builds on) settles team matches through teams, which imports this
    from taikai.events.services import rulings

    rulings.end_open_match(player, by=by, ruling=ruling)


def disqualify_player(player: Player, *, by: Actor) -> Player:
    """PEN-1: a disqualified player is never paired again and is placed after everyone else; their results stay.
    Only the event's head judge disqualifies where the ruleset says so (PEN-6, CS 3); under the official rules
    alone any judge does (OFF: 審判の判断). The judging app calls this when it applies a DQ."""
    if head_judge_required(player.event.ruleset.penalties):
        require_head_judge(by, player.event)
    else:
        require_judge(by, player.event)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.disqualified:
            raise ServiceError("already-disqualified")
        before = as_dict(player, [*PLAYER_FIELDS, "disqualified"])
        if player.dropped_after_round is None:
            player.dropped_after_round = player.event.rounds.count()
        player.disqualified = True
        player.version += 1
        player.save()
        record(
            actions.PLAYER_DISQUALIFIED,
            actor=by,
            event_id=player.event_id,
            obj=player,
            before=before,
            after=as_dict(player, [*PLAYER_FIELDS, "disqualified"]),
        )
    return player


def undrop_player(player: Player, *, by: Actor) -> Player:
    """Take back a drop made by mistake, while no round has been paired since: the player is paired in the
    next round as before. A disqualification (PEN-1) is lifted only by overturning its penalty."""
    require_organizer(by, player.event)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if not player.dropped:
            raise ServiceError("not-dropped")
        event = player.event
        if event.status == Event.Status.FINISHED or event.rounds.count() != player.dropped_after_round:
            raise ServiceError("undrop-too-late")
        if player.disqualified:
            raise ServiceError("undrop-disqualified")
        before = as_dict(player, PLAYER_FIELDS)
        player.dropped_after_round = None
        player.version += 1
        player.save()
        record(
            actions.PLAYER_UNDROPPED,
            actor=by,
            event_id=event.pk,
            obj=player,
            before=before,
            after=as_dict(player, PLAYER_FIELDS),
        )
    return player


def mark_ineligible(player: Player, *, by: Actor, reason: str) -> Player:
    """REG-2: the organizer marks a player without the right to take part (参加資格: e.g. a Card Game ID with
    wrong data), with a reason. From then on the player is not paired; an empty reason restores it. Marked
    while their table is being played, they cannot play it on: the opponent wins it (``core.open_match``);
    a restored right does not undo that decided result (a correction does). The player is told, with the reason."""
    require_organizer(by, player.event)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        before = as_dict(player, PLAYER_FIELDS)
        player.ineligible_reason = reason.strip()[:300]
        player.save()
        if player.ineligible_reason and not before["ineligible_reason"]:
            notices.tell(player, None, "ineligible", reason=player.ineligible_reason)
            _end_open_match(player, by, Ruling.INELIGIBLE_FORFEIT)
        record(
            actions.PLAYER_UPDATED,
            actor=by,
            event_id=player.event_id,
            obj=player,
            before=before,
            after=as_dict(player, PLAYER_FIELDS),
        )
    return player


def search_players(event: Event, query: str, limit: int = 20) -> list[Player]:
    """The check-in desk's search box: by Card Game ID (digits) or by name / kana, NFKC-normalised."""
    q = unicodedata.normalize("NFKC", query or "").strip()
    players = Player.objects.filter(event=event)
    if not q:
        return sorted(players, key=lambda p: name_order(p.name, p.name_kana))[:limit]
    digits = q.replace("-", "").replace(" ", "")
    if digits.isdigit():
        return list(players.filter(card_game_id__startswith=digits)[:limit])
    from django.db.models import Q

    found = players.filter(Q(name__icontains=q) | Q(name_kana__icontains=q))
    return sorted(found, key=lambda p: name_order(p.name, p.name_kana))[:limit]
