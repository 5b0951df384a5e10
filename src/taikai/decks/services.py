"""Deck registration services: submit, lock, judge changes, and who still lacks a legal list.

Each state change runs in one ``transaction.atomic()`` with an audit entry; input that cannot be read
raises ``ServiceError`` before anything is written.

When lists lock (DECK-9): at ``Event.deck_deadline``; with no deadline, when the first round starts
(each match starts from the registered deck, DECK-10); or earlier, when staff lock them by hand. After
that only a judge changes a list, with a reason (``judge_change_deck``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from taikai.audit.actions import register as register_action
from taikai.audit.services import record
from taikai.cards.deck_formats import detect
from taikai.cards.formats import DeckFormatError, decode_bytes, looks_like_ydk, read_ydk, write_ydk
from taikai.cards.models import Banlist
from taikai.cards.services import (
    DeckCheck,
    ResolvedDeck,
    check_resolved,
    copy_banlist,
    library_banlist,
    resolve_deck_text,
)
from taikai.cards.textsheet import DeckTooLong
from taikai.core.deck import Banlist as CoreBanlist
from taikai.core.deck import check_languages
from taikai.decks import texts as _texts  # noqa: F401  (registers the problem texts)
from taikai.decks.lock import (  # noqa: F401  (the lock is part of this module's interface)
    deck_setup,
    events_due,
    first_round_start,
    is_locked,
    lock_decks,
    lock_due,
    lock_time,
)
from taikai.decks.models import DeckRegistration, EventDecks, RejectedDeckList
from taikai.decks.overview import (  # noqa: F401  (the overview is part of this module's interface)
    PlayerDeck,
    counts,
    deck_overview,
    missing_or_illegal,
    pending_rejection,
)
from taikai.events.actors import Actor, audit_user
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Event, Player
from taikai.events.permissions import require_judge, require_organizer, require_player_or_staff

DECK_SUBMITTED = register_action("taikai.deck.submitted", _("Deck list submitted"))
DECK_REJECTED = register_action(
    "taikai.deck.rejected", _("Deck list not accepted: it has problems, the registered legal list stays")
)
DECK_CHANGED_BY_JUDGE = register_action("taikai.deck.judge_changed", _("Deck list changed by a judge"))
DECK_BANLIST_FROZEN = register_action("taikai.deck.banlist_frozen", _("Forbidden/Limited list fixed for the event"))

# DECK-6/DECK-8: card languages a player may declare (OCG Japanese, TCG languages, Korean OCG).
LANGUAGES = ("ja", "en", "ko", "fr", "de", "it", "es", "pt")
MAX_CHARS = 20_000  # a 75-card sheet with long names is under 5,000
MAX_UPLOAD_BYTES = 64 * 1024
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


# --- reading what the player sent ----------------------------------------------------------------


def read_upload(name: str, data: bytes) -> str:
    """An uploaded ``.ydk``, ``ydke://`` file or text sheet as text: UTF-8 (with or without BOM) or
    Shift_JIS, as Japanese Windows editors save it."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise ServiceError("deck-input-too-large", limit=MAX_UPLOAD_BYTES // 1024)
    for encoding in ("auto", "cp932"):
        try:
            text = decode_bytes(data) if encoding == "auto" else data.decode(encoding)
        except (DeckFormatError, UnicodeDecodeError):
            continue
        if _CONTROL.search(text):
            continue  # decodes, but is not text (an image, a .cdb, a zip)
        if name.lower().endswith(".ydk") and text.strip() and not looks_like_ydk(text):
            # A .ydk without section lines: YGOPro reads bare passcodes as the main deck.
            try:
                text = write_ydk(read_ydk(text))
            except DeckFormatError as exc:
                raise ServiceError("deck-unreadable", detail=exc.reason, line=exc.line or "-") from exc
        return text
    raise ServiceError("deck-encoding")


def clean_languages(languages: Iterable[str]) -> list[str]:
    """DECK-8: the declared card languages, known codes only; none declared means Japanese cards."""
    found = [lang for lang in LANGUAGES if lang in {str(x).strip().lower() for x in languages}]
    return found or ["ja"]


def _clean_text(text: str) -> str:
    text = (text or "").replace("\r\n", "\n")
    if not text.strip():
        raise ServiceError("deck-empty")
    if len(text) > MAX_CHARS:
        raise ServiceError("deck-input-too-large", limit=MAX_UPLOAD_BYTES // 1024)
    return text


# --- the event's Forbidden/Limited list ----------------------------------------------------------


def event_banlist(event: Event, *, by: Actor, setup: EventDecks | None = None) -> Banlist | CoreBanlist | None:
    """The list in force for ``event``: its frozen copy, made from the library list on first use.

    With no library list of that name, the event's own snapshot (``Event.banlist_entries``) if any;
    otherwise None (the page warns staff that lists are checked without a list). ``setup``: the event's
    deck setup, when the caller has just read it in the same transaction."""
    setup = setup or deck_setup(event)
    if setup.banlist_id:
        return setup.banlist
    name = event.banlist_name or event.ruleset.deck.banlist
    library = library_banlist(name) if name else None
    if library is not None:
        return _freeze(event, library, by=by)
    if event.banlist_entries:
        return CoreBanlist(name, {int(k): int(v) for k, v in event.banlist_entries.items()})
    return None


def banlist_label(event: Event) -> str:
    setup = deck_setup(event)
    return setup.banlist_name or event.banlist_name or event.ruleset.deck.banlist


def _freeze(event: Event, library: Banlist, *, by: Actor) -> Banlist:
    with transaction.atomic():
        setup, _created = EventDecks.objects.select_for_update().get_or_create(event=event)
        if setup.banlist_id and setup.banlist_name == library.name:
            return setup.banlist  # type: ignore[return-value]  # banlist_id is set: someone froze it first
        copy = copy_banlist(library, actor=by, event_id=event.pk)
        before = setup.banlist_name
        setup.banlist, setup.banlist_name, setup.frozen_at = copy, library.name, timezone.now()
        setup.version += 1
        setup.save()
        record(
            DECK_BANLIST_FROZEN, actor=by, event_id=event.pk, obj=setup, before=before, after=library.name, copy=copy.pk
        )
    return copy


def choose_banlist(event: Event, name: str, *, by: Actor) -> Banlist:
    """Staff choose the event's list before lists lock: freeze a copy and re-check every list."""
    require_organizer(by, event)
    if is_locked(event):
        raise ServiceError("deck-locked")
    library = library_banlist(name)
    if library is None:
        raise ServiceError("unknown-banlist", name=name)
    # Names are resolved before the write transaction; only the rules run inside it.
    resolved = {r.pk: (r.source_text, _resolve(r.source_text)) for r in DeckRegistration.objects.filter(event=event)}
    with transaction.atomic():
        copy = _freeze(event, library, by=by)
        for registration in DeckRegistration.objects.select_for_update().filter(event=event):
            text, ready = resolved.get(registration.pk, ("", None))
            if ready is None or text != registration.source_text:
                ready = _resolve(registration.source_text)  # changed meanwhile
            _apply(registration, _check(event, ready, copy), registration.languages, copy)
            registration.save()
    return copy


# --- submitting and changing a list --------------------------------------------------------------


def _resolve(text: str, filename: str = "") -> ResolvedDeck:
    """Read the list and resolve its names: run before any write transaction (a long list of unknown
    names must never hold the database)."""
    try:
        return resolve_deck_text(text, filename=filename)
    except DeckTooLong as exc:
        raise ServiceError("deck-too-many-lines", limit=exc.limit, line=exc.line) from exc
    except DeckFormatError as exc:
        raise ServiceError("deck-unreadable", detail=exc.reason, line=exc.line or "-") from exc


def _check(event: Event, resolved: ResolvedDeck, banlist: Banlist | CoreBanlist | None) -> DeckCheck:
    core_list = banlist.as_core() if isinstance(banlist, Banlist) else banlist
    return check_resolved(resolved, ruleset=event.ruleset, banlist=core_list, event_date=event.date)


def _apply(
    reg: DeckRegistration | RejectedDeckList,
    check: DeckCheck,
    languages: list[str],
    banlist: Banlist | CoreBanlist | None,
) -> None:
    reg.main, reg.extra, reg.side = list(check.deck.main), list(check.deck.extra), list(check.deck.side)
    reg.problems = [p.as_dict() for p in check.problems]
    reg.notes = [p.as_dict() for p in check.notes]
    if isinstance(reg, DeckRegistration):
        reg.legal = check.legal
    reg.languages = languages
    reg.mixed_languages = bool(check_languages(languages))  # DECK-8
    reg.banlist = banlist if isinstance(banlist, Banlist) else None


def snapshot(reg: DeckRegistration | RejectedDeckList) -> dict[str, Any]:
    out = {
        "main": reg.main,
        "extra": reg.extra,
        "side": reg.side,
        "legal": reg.legal,
        "languages": reg.languages,
        "format": reg.format,
    }
    if isinstance(reg, DeckRegistration):
        out["version"] = reg.version
    return out


@dataclass(frozen=True)
class DeckInput:
    """What a player sends: pasted text, or an uploaded file (name and bytes), and card languages."""

    text: str = ""
    file_name: str = ""
    file_data: bytes | None = None
    languages: tuple[str, ...] = ()

    def read(self) -> tuple[str, str]:
        """(text, source name); an uploaded file wins over the text box."""
        if self.file_data:
            return _clean_text(read_upload(self.file_name, self.file_data)), self.file_name[:200]
        return _clean_text(self.text), ""


@dataclass(frozen=True)
class _Sent:
    """A list as sent and checked, before it is saved."""

    text: str
    source_name: str
    check: DeckCheck
    languages: list[str]
    banlist: Banlist | CoreBanlist | None

    @property
    def format(self) -> str:
        return detect(self.text, self.source_name).name


Submitted = DeckRegistration | RejectedDeckList  # what a list sent became: the registered list, or a rejected one


def submit_deck(player: Player, deck: DeckInput, *, by: Actor) -> Submitted:
    """The player (``PlayerSelf``, from their own page) or staff on their behalf registers a list.

    A list with problems is registered while no legal list is (the player sees them and fixes it); while a
    legal one is, it is kept as a ``RejectedDeckList`` and the legal one stays. Unreadable input is refused
    and nothing is written. After the lock only ``judge_change_deck`` changes a list."""
    event = player.event
    require_player_or_staff(by, player)
    text, source_name = deck.read()
    languages = clean_languages(deck.languages)
    if is_locked(event):
        raise ServiceError("deck-locked")
    resolved = _resolve(text, source_name)
    with transaction.atomic():
        setup = deck_setup(event)  # read once: the lock and the Forbidden/Limited list both come from it
        if is_locked(event, setup=setup):
            raise ServiceError("deck-locked")
        banlist = event_banlist(event, by=by, setup=setup)
        sent = _Sent(text, source_name, _check(event, resolved, banlist), languages, banlist)
        return _save(player, sent, by=by, action=DECK_SUBMITTED)


def judge_change_deck(
    registration: DeckRegistration,
    *,
    by: Actor,
    deck: DeckInput,
    reason: str,
) -> Submitted:
    """DECK-9: a judge changes a registered list (after the lock, the only way), with a reason.

    The same check holds: a list with problems does not replace a legal one (it is kept as rejected)."""
    event = registration.event
    require_judge(by, event)
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("reason-required")
    text, source_name = deck.read()
    languages = clean_languages(deck.languages or registration.languages)
    resolved = _resolve(text, source_name)
    with transaction.atomic():
        lock_due(event)  # the first write after the deadline stamps the lock time brought (no page does)
        banlist = event_banlist(event, by=by)
        sent = _Sent(text, source_name, _check(event, resolved, banlist), languages, banlist)
        return _save(
            registration.player,
            sent,
            by=by,
            action=DECK_CHANGED_BY_JUDGE,
            reason=reason[:500],
            expected_version=registration.version,
        )


def _save(
    player: Player,
    sent: _Sent,
    *,
    by: Actor,
    action: str,
    reason: str = "",
    expected_version: int | None = None,
) -> Submitted:
    now = timezone.now()
    reg = DeckRegistration.objects.select_for_update().filter(player=player).first()
    if reg is not None and expected_version is not None and reg.version != expected_version:
        raise Conflict("conflict")
    if reg is not None and reg.legal and not sent.check.legal:
        # Issue 22: a registered legal list stays until a new one passes the deck check (DECK-9).
        return _reject(reg, sent, by=by, reason=reason, now=now)
    before = snapshot(reg) if reg else None
    if reg is None:
        reg = DeckRegistration(event_id=player.event_id, player=player)
    reg.source_text, reg.source_name, reg.format = sent.text, sent.source_name, sent.format
    _apply(reg, sent.check, sent.languages, sent.banlist)
    reg.submitted_at, reg.submitted_by = now, audit_user(by)
    reg.version += 1
    if action == DECK_CHANGED_BY_JUDGE and is_locked(player.event, now):
        reg.locked_at = reg.locked_at or lock_time(player.event) or now
    try:
        with transaction.atomic():
            reg.save()
    except IntegrityError as exc:  # two first submissions at once
        raise Conflict("conflict") from exc
    extra: dict[str, Any] = {"reason": reason} if reason else {}
    record(
        action,
        actor=by,
        obj=reg,
        before=before,
        after=snapshot(reg),
        problems=[p["code"] for p in reg.problems],
        mixed_languages=reg.mixed_languages,
        **extra,
    )
    return reg


def _reject(reg: DeckRegistration, sent: _Sent, *, by: Actor, reason: str, now: dt.datetime) -> RejectedDeckList:
    """Keep the list that did not pass, with its problems, for the player and the judges; ``reg`` is untouched."""
    rejected = RejectedDeckList(
        event_id=reg.event_id,
        player_id=reg.player_id,
        registration=reg,
        registration_version=reg.version,
        source_text=sent.text,
        source_name=sent.source_name,
        format=sent.format,
        submitted_at=now,
        submitted_by=audit_user(by),
        reason=reason,
    )
    _apply(rejected, sent.check, sent.languages, sent.banlist)
    rejected.save()
    extra: dict[str, Any] = {"reason": reason} if reason else {}
    record(
        DECK_REJECTED,
        actor=by,
        obj=rejected,
        after=snapshot(rejected),
        registration=reg.pk,
        registered=snapshot(reg),
        problems=[p["code"] for p in rejected.problems],
        mixed_languages=rejected.mixed_languages,
        **extra,
    )
    return rejected
