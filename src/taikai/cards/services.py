"""Changing card data: imports (cards, F/L lists) and an event's own copy of a list.

Every import runs in one transaction, is idempotent (a re-import updates rows and reports what
changed), keeps an ``ImportRecord`` and writes an audit entry.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import astuple, replace
from datetime import date
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from taikai.audit import services as audit
from taikai.audit.actions import register as register_action
from taikai.audit.services import AuditActor
from taikai.cards import limits
from taikai.cards.check import DeckCheck, ResolvedDeck, check_resolved, resolve_deck_text
from taikai.cards.formats import DeckFormatError, decode_bytes
from taikai.cards.index import CardIndex
from taikai.cards.lflist import LflistError, LflistFile, ParsedList, read_lflist, squash
from taikai.cards.models import Banlist, BanlistEntry, Card, ImportRecord
from taikai.cards.names import name_key
from taikai.cards.sources import CardData, CardSourceError, Progress, read_cdbs, read_ygoprodeck
from taikai.core.deck import Banlist as CoreBanlist
from taikai.core.ruleset import DeckRules, Ruleset
from taikai.db.heavy import require_outside_write

CARDS_IMPORTED = register_action("taikai.cards.imported", _("Card database imported"))
BANLIST_IMPORTED = register_action("taikai.cards.banlist_imported", _("Forbidden/Limited list imported"))
BANLIST_COPIED = register_action("taikai.cards.banlist_copied", _("Forbidden/Limited list copied for an event"))

_FIELDS = ("alias", "type", "ot", "level", "atk", "defense", "race", "attribute", "ocg_date", "name_en", "name_ja")
_BATCH = 500


def _sha256(paths: Iterable[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _row(card: CardData) -> Card:
    return Card(
        passcode=card.passcode,
        **{name: getattr(card, name) for name in _FIELDS},
        key_en=name_key(card.name_en),
        key_ja=name_key(card.name_ja),
    )


def _existing(passcodes: Iterable[int]) -> dict[int, CardData]:
    out: dict[int, CardData] = {}
    wanted = list(passcodes)
    for start in range(0, len(wanted), 5000):
        for values in Card.objects.filter(passcode__in=wanted[start : start + 5000]).values_list("passcode", *_FIELDS):
            out[values[0]] = CardData(values[0], **dict(zip(_FIELDS, values[1:], strict=True)))
    return out


def import_cards(
    cards: dict[int, CardData],
    *,
    source: str,
    sha256: str = "",
    actor: AuditActor | None = None,
    progress: Progress | None = None,
    only_fill: bool = False,
) -> ImportRecord:
    """Insert new cards and update changed ones. ``only_fill`` keeps the stored card data and only adds
    what is missing (OCG release dates, a missing name): used for YGOPRODeck JSON over a ``.cdb``."""
    with transaction.atomic():
        existing = _existing(cards)
        changed: list[CardData] = []
        created = updated = 0
        for passcode, card in cards.items():
            old = existing.get(passcode)
            if old is not None and only_fill:
                card = replace(
                    old,
                    ocg_date=card.ocg_date or old.ocg_date,
                    name_en=old.name_en or card.name_en,
                    name_ja=old.name_ja or card.name_ja,
                )
            elif old is not None:
                card = old.merged(card)  # names are kept per language: a file without one never erases it
            if old is None:
                created += 1
            elif astuple(old) != astuple(card):
                updated += 1
            else:
                continue
            changed.append(card)
        total = len(changed)
        for start in range(0, total, _BATCH):
            Card.objects.bulk_create(
                [_row(c) for c in changed[start : start + _BATCH]],
                update_conflicts=True,
                unique_fields=["passcode"],
                update_fields=[*_FIELDS, "key_en", "key_ja"],
            )
            if progress:
                progress(min(start + _BATCH, total), total)
        record = ImportRecord.objects.create(
            kind=ImportRecord.Kind.CARDS,
            source=source[:1000],
            sha256=sha256,
            actor=actor.audit_user() if actor is not None else None,
            created=created,
            updated=updated,
            unchanged=len(cards) - created - updated,
            summary={"cards": len(cards), "in_database": Card.objects.count()},
        )
        audit.record(CARDS_IMPORTED, actor=actor, obj=record, after=_summary(record))
    return record


def _summary(record: ImportRecord) -> dict[str, Any]:
    return {
        "source": record.source,
        "created": record.created,
        "updated": record.updated,
        "unchanged": record.unchanged,
        **record.summary,
    }


def import_card_files(
    paths: Iterable[str | Path],
    *,
    actor: AuditActor | None = None,
    progress: Progress | None = None,
    labels: dict[str, str] | None = None,
    languages: dict[str, str] | None = None,
) -> list[ImportRecord]:
    """``.cdb`` files (merged by passcode into one import) and YGOPRODeck ``.json`` files (each its own).

    ``labels`` names a file in the record instead of its path (e.g. the name of an uploaded file);
    ``languages`` says a ``.cdb``'s name language ("ja"/"en") where it is known (otherwise guessed).
    Every file is read before the write transaction opens."""
    files = [Path(p) for p in paths]
    labels = labels or {}
    cdbs = [p for p in files if p.suffix.lower() != ".json"]
    require_outside_write("reading card files")
    records = []
    if cdbs:
        cards = read_cdbs(cdbs, languages=languages, progress=progress)
        source = " + ".join(labels.get(str(p), str(p)) for p in cdbs)
        _within_limits(limits.check_cards, cards.values(), source)
        records.append(import_cards(cards, source=source, sha256=_sha256(cdbs), actor=actor, progress=progress))
    for path in (p for p in files if p.suffix.lower() == ".json"):
        records.extend(import_ygoprodeck_file(path, actor=actor, progress=progress, label=labels.get(str(path))))
    return records


def import_ygoprodeck_file(
    path: Path, *, actor: AuditActor | None = None, progress: Progress | None = None, label: str | None = None
) -> list[ImportRecord]:
    try:
        _within_limits(limits.check_text_size, path.stat().st_size, label or str(path))
        document = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise CardSourceError(f"{path}: not readable JSON ({exc})") from exc
    cards, lists = read_ygoprodeck(document)
    _within_limits(limits.check_cards, cards, label or str(path))
    sha = _sha256([path])
    held = {c.passcode for c in cards}
    with transaction.atomic():
        record = import_cards(
            {c.passcode: c for c in cards},
            source=label or str(path),
            sha256=sha,
            actor=actor,
            progress=progress,
            only_fill=True,
        )
        parsed = [p for name, entries in lists.items() if (p := _updated_list(name, entries, held)) is not None]
        records = [record]
        if parsed:
            records.append(import_banlists(parsed, source=label or str(path), sha256=sha, actor=actor))
    return records


def _updated_list(name: str, entries: dict[int, int], held: set[int]) -> ParsedList | None:
    """A YGOPRODeck list updated for the cards the document holds; every other entry is kept, so an
    old or partial file never cuts a list down (a 14-card file must not replace a 136-entry list)."""
    stored = library_banlist(name)
    if stored is None:
        return ParsedList(name, dict(entries)) if entries else None
    kept = {p: n for p, n in stored.entries.values_list("passcode", "limit") if p not in held}
    return ParsedList(name, {**kept, **entries})


def import_banlists(
    lists: list[ParsedList],
    *,
    source: str,
    sha256: str = "",
    actor: AuditActor | None = None,
    warnings: list[dict[str, Any]] | None = None,
) -> ImportRecord:
    """Library lists by name: a new name is created, a known one has its entries replaced."""
    with transaction.atomic():
        created = updated = unchanged = 0
        for parsed in lists:
            banlist, was_created = Banlist.objects.get_or_create(name=parsed.name, frozen=False)
            old = set(banlist.entries.values_list("passcode", "limit"))
            new = set(parsed.entries.items())
            if was_created:
                created += 1
            elif old != new or banlist.whitelist != parsed.whitelist:
                updated += 1
            else:
                unchanged += 1
                continue
            banlist.whitelist = parsed.whitelist
            banlist.source = source[:500]
            banlist.save()
            banlist.entries.all().delete()
            BanlistEntry.objects.bulk_create(
                BanlistEntry(banlist=banlist, passcode=p, limit=n, comment=parsed.comments.get(p, "")[:200])
                for p, n in parsed.entries.items()
            )
        record = ImportRecord.objects.create(
            kind=ImportRecord.Kind.BANLIST,
            source=source[:1000],
            sha256=sha256,
            actor=actor.audit_user() if actor is not None else None,
            created=created,
            updated=updated,
            unchanged=unchanged,
            summary={"lists": [p.name for p in lists], "warnings": warnings or []},
        )
        audit.record(BANLIST_IMPORTED, actor=actor, obj=record, after=_summary(record))
    return record


def read_lflist_file(path: str | Path) -> LflistFile:
    """An ``lflist.conf`` read and parsed (no database): do it before the write transaction."""
    path = Path(path)
    require_outside_write("reading a banlist file")
    _within_limits(limits.check_text_size, path.stat().st_size, str(path))
    try:
        text = decode_bytes(path.read_bytes())
    except OSError as exc:
        raise LflistError(0, f"{path}: {exc.strerror or exc}") from exc
    except DeckFormatError as exc:
        raise LflistError(0, f"{path}: {exc.reason}") from exc
    return read_lflist(text)


def import_lflist_file(path: str | Path, *, actor: AuditActor | None = None, label: str | None = None) -> ImportRecord:
    """Every readable list in the file; the record's summary keeps the warnings (lines skipped). Parsed and
    checked against the bounds before the write transaction."""
    path = Path(path)
    parsed = read_lflist_file(path)
    _within_limits(limits.check_lists, parsed.lists, label or str(path))
    warnings = [p.as_dict() for p in parsed.warnings]
    return import_banlists(
        parsed.lists, source=label or str(path), sha256=_sha256([path]), actor=actor, warnings=warnings
    )


def _within_limits(check: Any, value: Any, label: str) -> None:
    try:
        check(value, label)
    except limits.LimitError as exc:
        raise CardSourceError(str(exc)) from exc


def copy_banlist(banlist: Banlist, *, actor: AuditActor | None = None, event_id: int | None = None) -> Banlist:
    """A frozen copy for one event: later imports of the same name do not touch it."""
    with transaction.atomic():
        copy = Banlist.objects.create(
            name=banlist.name, whitelist=banlist.whitelist, frozen=True, source=banlist.source
        )
        BanlistEntry.objects.bulk_create(
            BanlistEntry(banlist=copy, passcode=e.passcode, limit=e.limit, comment=e.comment)
            for e in banlist.entries.all()
        )
        audit.record(BANLIST_COPIED, actor=actor, obj=copy, event_id=event_id, before=banlist.pk, after=copy.pk)
    return copy


def library_banlist(name: str) -> Banlist | None:
    """The library list called ``name``: exact, then ignoring case and spaces (as in file mode)."""
    exact = Banlist.objects.filter(name=name, frozen=False).first()
    if exact is not None or not name.strip():
        return exact
    wanted = squash(name)
    for banlist in Banlist.objects.filter(frozen=False):
        if squash(banlist.name) == wanted:
            return banlist
    return None


def check_deck_text(
    text: str,
    *,
    ruleset: Ruleset | DeckRules,
    banlist: Banlist | CoreBanlist | None,
    event_date: date | None,
    index: CardIndex | None = None,
) -> DeckCheck:
    """A pasted or uploaded list (.ydk, ydke://, text sheet) checked against an event's ruleset and list.

    ``banlist`` is the event's frozen copy (``copy_banlist``) or a core list. Raises ``DeckFormatError``
    for input that cannot be read."""
    core_list = banlist.as_core() if isinstance(banlist, Banlist) else banlist
    resolved = resolve_deck_text(text, index)
    return check_resolved(resolved, ruleset=ruleset, banlist=core_list, event_date=event_date)


__all__ = [
    "DeckCheck",
    "DeckFormatError",
    "ResolvedDeck",
    "check_deck_text",
    "check_resolved",
    "copy_banlist",
    "import_banlists",
    "import_card_files",
    "import_cards",
    "import_lflist_file",
    "import_ygoprodeck_file",
    "library_banlist",
    "read_lflist_file",
    "resolve_deck_text",
]
