"""Changing card data: imports (cards, F/L lists) and an event's own copy of a list.

Every import runs in one transaction, is idempotent (a re-import updates rows and reports what
changed), keeps an ``ImportRecord`` and writes an audit entry. A file older than the stored data changes
nothing it would make older unless the organizer asks (``allow_older``; taikai.cards.editions). The lists'
services live in ``services_banlists`` and are named here too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import astuple, dataclass, replace
from datetime import date
from pathlib import Path

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from taikai.audit.actions import register as register_action
from taikai.audit.services import AuditActor
from taikai.cards import editions, limits
from taikai.cards.check import DeckCheck, ResolvedDeck, check_resolved, resolve_deck_text
from taikai.cards.editions import Dating
from taikai.cards.formats import DeckFormatError
from taikai.cards.importing import Counts, log_import, sha256, within_limits
from taikai.cards.index import CardIndex
from taikai.cards.lflist import ParsedList
from taikai.cards.models import Banlist, Card, ImportRecord
from taikai.cards.names import name_key
from taikai.cards.services_banlists import (
    copy_banlist,
    import_banlists,
    import_lflist_file,
    library_banlist,
    read_lflist_file,
)
from taikai.cards.sources import CardData, CardSourceError, Progress, read_cdbs, read_ygoprodeck, ygoprodeck_dates
from taikai.core.deck import Banlist as CoreBanlist
from taikai.core.ruleset import DeckRules, Ruleset
from taikai.db.heavy import require_outside_write

CARDS_IMPORTED = register_action("taikai.cards.imported", _("Card database imported"))

_FIELDS = ("alias", "type", "ot", "level", "atk", "defense", "race", "attribute", "ocg_date", "name_en", "name_ja")
_BATCH = 500


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


def _stored_edition(fmt: str) -> date | None:
    """The newest date of the earlier card imports of this format: what the stored card data is as of."""
    records = ImportRecord.objects.filter(kind=ImportRecord.Kind.CARDS, summary__format=fmt, edition__isnull=False)
    newest: date | None = records.aggregate(newest=Max("edition"))["newest"]
    return newest


def _changed_cards(
    cards: dict[int, CardData], existing: dict[int, CardData], *, only_fill: bool, hold_back: bool
) -> tuple[list[CardData], Counts]:
    """The rows to write, and how many cards are new, changed, or left as they are because the file is older
    (those may still get a missing name or date: ``editions.fill_only``)."""
    changed: list[CardData] = []
    counts = Counts()
    for passcode, card in cards.items():
        old = existing.get(passcode)
        if old is None:
            counts.created += 1
            changed.append(card)
            continue
        if only_fill:
            card = replace(
                old,
                ocg_date=card.ocg_date or old.ocg_date,
                name_en=old.name_en or card.name_en,
                name_ja=old.name_ja or card.name_ja,
            )
        else:
            card = old.merged(card)  # names are kept per language: a file without one never erases it
        if hold_back and astuple(kept := editions.fill_only(old, card)) != astuple(card):
            counts.skipped += 1
            card = kept
        elif astuple(old) != astuple(card):
            counts.updated += 1
        if astuple(old) != astuple(card):
            changed.append(card)
    return changed, counts


def import_cards(
    cards: dict[int, CardData],
    *,
    source: str,
    sha256: str = "",
    actor: AuditActor | None = None,
    progress: Progress | None = None,
    only_fill: bool = False,
    fmt: str = "cdb",
    edition: date | None = None,
    allow_older: bool = False,
) -> ImportRecord:
    """Insert new cards and update changed ones. ``only_fill`` keeps the stored card data and only adds
    what is missing (OCG release dates, a missing name): used for YGOPRODeck JSON over a ``.cdb``.

    ``edition`` is what the file is as of (None: it carries no date). A file older than the earlier imports of
    its format (``fmt``) only adds what is missing, unless ``allow_older``."""
    with transaction.atomic():
        dating = Dating(edition, _stored_edition(fmt), "cards" if fmt == "cdb" else "document", allow_older)
        existing = _existing(cards)
        not_in_file = Card.objects.count() - len(existing)
        changed, counts = _changed_cards(cards, existing, only_fill=only_fill, hold_back=dating.holds_back)
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
        details = {
            "format": fmt,
            "cards": len(cards),
            "in_database": Card.objects.count(),
            "not_in_file": not_in_file,
            **dating.as_dict(),
        }
        kind = ImportRecord.Kind.CARDS
        return log_import(
            kind, CARDS_IMPORTED, source, sha256, edition, actor=actor, counts=counts, read=len(cards), details=details
        )


@dataclass(frozen=True)
class _Document:
    """A YGOPRODeck document read and checked, before anything is written."""

    label: str
    cards: list[CardData]
    lists: dict[str, dict[int, int]]
    sha256: str
    edition: date | None


def _cdb_edition(cards: dict[int, CardData], documents: list[_Document]) -> date | None:
    """A cards.cdb carries no date: it is as of the newest release among its cards, as the stored data
    knows them or a YGOPRODeck document imported with it says."""
    today = timezone.localdate()
    dates = [c.ocg_date for d in documents for c in d.cards if c.passcode in cards]
    wanted = list(cards)
    for start in range(0, len(wanted), 5000):
        known = Card.objects.filter(passcode__in=wanted[start : start + 5000], ocg_date__lte=today)
        dates.append(known.aggregate(newest=Max("ocg_date"))["newest"])
    return editions.newest(dates, today)


def import_card_files(
    paths: Iterable[str | Path],
    *,
    actor: AuditActor | None = None,
    progress: Progress | None = None,
    labels: dict[str, str] | None = None,
    languages: dict[str, str] | None = None,
    allow_older: bool = False,
) -> list[ImportRecord]:
    """``.cdb`` files (merged by passcode into one import) and YGOPRODeck ``.json`` files (each its own).

    ``labels`` names a file in the record instead of its path (the name of an uploaded file, the URL it was
    downloaded from); ``languages`` says a ``.cdb``'s name language ("ja"/"en") where it is known (otherwise
    guessed); ``allow_older`` lets a file older than the stored data replace it. Every file is read before the
    write transaction opens, the JSON first, so its release dates can date the ``.cdb``."""
    files = [Path(p) for p in paths]
    labels = labels or {}
    cdbs = [p for p in files if p.suffix.lower() != ".json"]
    require_outside_write("reading card files")
    documents = [_read_ygoprodeck(p, labels.get(str(p))) for p in files if p.suffix.lower() == ".json"]
    records = []
    if cdbs:
        cards = read_cdbs(cdbs, languages=languages, progress=progress)
        source = " + ".join(labels.get(str(p), str(p)) for p in cdbs)
        within_limits(limits.check_cards, cards.values(), source)
        edition = _cdb_edition(cards, documents)
        records.append(
            import_cards(
                cards,
                source=source,
                sha256=sha256(cdbs),
                actor=actor,
                progress=progress,
                edition=edition,
                allow_older=allow_older,
            )
        )
    for document in documents:
        records.extend(_import_ygoprodeck(document, actor=actor, progress=progress, allow_older=allow_older))
    return records


def _read_ygoprodeck(path: Path, label: str | None) -> _Document:
    label = label or str(path)
    try:
        within_limits(limits.check_text_size, path.stat().st_size, label)
        document = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise CardSourceError(f"{label}: not readable JSON ({exc})") from exc
    cards, lists = read_ygoprodeck(document)
    within_limits(limits.check_cards, cards, label)
    edition = editions.newest(ygoprodeck_dates(document), timezone.localdate())
    return _Document(label, cards, lists, sha256([path]), edition)


def import_ygoprodeck_file(
    path: Path,
    *,
    actor: AuditActor | None = None,
    progress: Progress | None = None,
    label: str | None = None,
    allow_older: bool = False,
) -> list[ImportRecord]:
    require_outside_write("reading a YGOPRODeck file")
    document = _read_ygoprodeck(path, label)
    return _import_ygoprodeck(document, actor=actor, progress=progress, allow_older=allow_older)


def _import_ygoprodeck(
    document: _Document, *, actor: AuditActor | None, progress: Progress | None, allow_older: bool
) -> list[ImportRecord]:
    held = {c.passcode for c in document.cards}
    with transaction.atomic():
        record = import_cards(
            {c.passcode: c for c in document.cards},
            source=document.label,
            sha256=document.sha256,
            actor=actor,
            progress=progress,
            only_fill=True,
            fmt="ygoprodeck",
            edition=document.edition,
            allow_older=allow_older,
        )
        parsed = [
            p
            for name, entries in document.lists.items()
            if (p := _updated_list(name, entries, held, document.edition)) is not None
        ]
        records = [record]
        if parsed:
            records.append(
                import_banlists(
                    parsed, source=document.label, sha256=document.sha256, actor=actor, allow_older=allow_older
                )
            )
    return records


def _updated_list(name: str, entries: dict[int, int], held: set[int], edition: date | None) -> ParsedList | None:
    """A YGOPRODeck list updated for the cards the document holds; every other entry is kept, so an
    old or partial file never cuts a list down (a 14-card file must not replace a 136-entry list).
    The list is as of the document's date (its name has none)."""
    stored = library_banlist(name)
    if stored is None:
        return ParsedList(name, dict(entries), edition=edition, dated_by="document") if entries else None
    kept = {p: n for p, n in stored.entries.values_list("passcode", "limit") if p not in held}
    return ParsedList(name, {**kept, **entries}, edition=edition, dated_by="document")


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
    "CardSourceError",
    "ParsedList",
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
