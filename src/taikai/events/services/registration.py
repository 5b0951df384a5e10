"""Registration and check-in: a player joins the event at the desk, on their phone or as a late entry.

Importing a CSV file of players is ``csv_import``; the personal link is ``links`` and its recovery with a PIN
``recovery``; a drop, a disqualification or a lost right to take part is ``participation``.
"""

from __future__ import annotations

import datetime as dt
import unicodedata

from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils import timezone

from taikai.audit.models import AuditEntry
from taikai.audit.services import fields_of, record, save_and_log
from taikai.core.collation import name_order
from taikai.events import actions, reads
from taikai.events.actors import Actor, Visitor
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player
from taikai.events.permissions import require_organizer, require_registration, require_staff
from taikai.events.services.links import LINK_FIELDS, new_token

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
    values = clean_values(name=name, card_game_id=card_game_id, name_kana=name_kana, contact=contact)
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
            obj=player,
            after=fields_of(player, PLAYER_FIELDS),
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
            obj=event,
            before={"players": [fields_of(p, PLAYER_FIELDS) | {"id": p.pk} for p in doomed]},
            count=len(doomed),
        )
        Player.objects.filter(pk__in=[p.pk for p in doomed]).delete()
    return len(doomed)


def clean_values(*, name: str, card_game_id: str, name_kana: str, contact: str) -> dict[str, str]:
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
        before = fields_of(player, PLAYER_FIELDS)
        current = {k: getattr(player, k) for k in ("name", "name_kana", "card_game_id", "contact")}
        values = clean_values(**{**current, **changes})
        taken = Player.objects.filter(event_id=player.event_id, card_game_id=values["card_game_id"])
        if taken.exclude(pk=player.pk).exists():
            raise ServiceError("already-registered", card_game_id=values["card_game_id"])
        for key, value in values.items():
            setattr(player, key, value)
        save_and_log(
            player,
            actions.PLAYER_UPDATED,
            actor=by,
            before=before,
            shown=PLAYER_FIELDS,
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
        before = {**fields_of(player, PLAYER_FIELDS), "id": player.pk}
        event_id = player.event_id
        try:
            with transaction.atomic():
                player.delete()
        except ProtectedError as exc:  # e.g. a penalty already names the player
            raise ServiceError("player-has-records", name=before["name"]) from exc
        record(actions.PLAYER_DELETED, actor=by, event_id=event_id, before=before)


def register_row(event: Event, by: Actor, fields: dict[str, str]) -> Player:
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
        player = register_row(event, by, fields)
        token = new_token(player)
        save_and_log(player, actions.PLAYER_ACCESS_ISSUED, actor=by, fields=LINK_FIELDS)
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
        before = fields_of(player, PLAYER_FIELDS)
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
        save_and_log(
            player,
            actions.PLAYER_CHECKED_IN,
            actor=by,
            fields=["late_entry_round", "checked_in_at", "id_card_shown", *LINK_FIELDS],
            before=before,
            shown=PLAYER_FIELDS,
        )
    return player, token


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
