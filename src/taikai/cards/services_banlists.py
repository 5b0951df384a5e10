"""Changing Forbidden/Limited lists: imports into the library (by name) and an event's own frozen copy.

A list dated earlier than the stored list of its name is left alone unless the organizer asks (issue 22); the
record names every entry that changed, from what to what.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from taikai.audit import services as audit
from taikai.audit.actions import register as register_action
from taikai.audit.services import AuditActor
from taikai.cards import editions, limits
from taikai.cards.editions import Dating
from taikai.cards.formats import DeckFormatError, decode_bytes
from taikai.cards.importing import Counts, log_import, sha256, within_limits
from taikai.cards.lflist import LflistError, LflistFile, ParsedList, list_date, read_lflist, squash
from taikai.cards.models import Banlist, BanlistEntry, ImportRecord
from taikai.db.heavy import require_outside_write

BANLIST_IMPORTED = register_action("taikai.cards.banlist_imported", _("Forbidden/Limited list imported"))
BANLIST_COPIED = register_action("taikai.cards.banlist_copied", _("Forbidden/Limited list copied for an event"))


def import_banlists(
    lists: list[ParsedList],
    *,
    source: str,
    sha256: str = "",
    actor: AuditActor | None = None,
    warnings: list[dict[str, Any]] | None = None,
    allow_older: bool = False,
) -> ImportRecord:
    """Library lists by name: a new name is created, a known one has its entries replaced, unless the list
    is dated earlier than the stored one (then it is left alone, unless ``allow_older``). The record names
    every entry that changed (or would have), from what to what."""
    with transaction.atomic():
        counts = Counts()
        reports = [_import_list(parsed, source, allow_older, counts) for parsed in lists]
        dates = [p.edition or list_date(p.name) for p in lists]
        details = {"lists": [p.name for p in lists], "warnings": warnings or [], "list_reports": reports}
        edition = max((d for d in dates if d is not None), default=None)
        kind, read = ImportRecord.Kind.BANLIST, len(lists)
        return log_import(
            kind, BANLIST_IMPORTED, source, sha256, edition, actor=actor, counts=counts, read=read, details=details
        )


_MAX_CHANGES = 500  # entries named per list in the record (two OCG lists differ by a few dozen)


def _import_list(parsed: ParsedList, source: str, allow_older: bool, counts: Counts) -> dict[str, Any]:
    """One list stored (or left alone), and what happened to it, for the record."""
    banlist, was_created = Banlist.objects.get_or_create(name=parsed.name, frozen=False)
    stored = {p: (n, c) for p, n, c in banlist.entries.values_list("passcode", "limit", "comment")}
    old = {p: n for p, (n, _) in stored.items()}
    comments = {p: c for p, (_, c) in stored.items() if c} | parsed.comments  # names a removed entry too
    dating = Dating(parsed.edition or list_date(parsed.name), banlist.edition, parsed.dated_by, allow_older)
    changes = [] if was_created else editions.limit_changes(old, parsed.entries)
    differs = bool(changes) or banlist.whitelist != parsed.whitelist
    status = "created" if was_created else "older" if differs and dating.holds_back else "updated" if differs else ""
    report = {
        "name": parsed.name,
        "status": status or "unchanged",
        "entries": len(parsed.entries),
        "changes": [[p, a, b, comments.get(p, "")] for p, a, b in changes[:_MAX_CHANGES]],
        **dating.as_dict(),
    }
    if status == "older":
        counts.skipped += 1
        return report
    if status == "":
        if banlist.edition is None and dating.edition is not None:
            Banlist.objects.filter(pk=banlist.pk).update(edition=dating.edition)
        return report
    counts.created += status == "created"
    counts.updated += status == "updated"
    banlist.whitelist = parsed.whitelist
    banlist.source = source[:500]
    banlist.edition = dating.edition
    banlist.save()
    banlist.entries.all().delete()
    BanlistEntry.objects.bulk_create(
        BanlistEntry(banlist=banlist, passcode=p, limit=n, comment=parsed.comments.get(p, "")[:200])
        for p, n in parsed.entries.items()
    )
    return report


def read_lflist_file(path: str | Path) -> LflistFile:
    """An ``lflist.conf`` read and parsed (no database): do it before the write transaction."""
    path = Path(path)
    require_outside_write("reading a banlist file")
    within_limits(limits.check_text_size, path.stat().st_size, str(path))
    try:
        text = decode_bytes(path.read_bytes())
    except OSError as exc:
        raise LflistError(0, f"{path}: {exc.strerror or exc}") from exc
    except DeckFormatError as exc:
        raise LflistError(0, f"{path}: {exc.reason}") from exc
    return read_lflist(text)


def import_lflist_file(
    path: str | Path, *, actor: AuditActor | None = None, label: str | None = None, allow_older: bool = False
) -> ImportRecord:
    """Every readable list in the file; the record's summary keeps the warnings (lines skipped). Parsed and
    checked against the bounds before the write transaction. ``label`` names the file in the record (the
    uploaded file's name, the URL); a list dated earlier than the stored one is left alone unless ``allow_older``."""
    path = Path(path)
    parsed = read_lflist_file(path)
    within_limits(limits.check_lists, parsed.lists, label or str(path))
    warnings = [p.as_dict() for p in parsed.warnings]
    return import_banlists(
        parsed.lists,
        source=label or str(path),
        sha256=sha256([path]),
        actor=actor,
        warnings=warnings,
        allow_older=allow_older,
    )


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


def frozen_from_file(
    document: dict[str, Any], *, actor: AuditActor | None = None, event_id: int | None = None
) -> Banlist:
    """An event's frozen copy as an event file carries it (``{"name", "whitelist", "source", "entries":
    [[passcode, limit, comment], ...]}``), for the imported event: the list its deck checks ran under."""
    with transaction.atomic():
        copy = Banlist.objects.create(
            name=str(document["name"])[:100],
            whitelist=bool(document.get("whitelist", False)),
            frozen=True,
            source=str(document.get("source", ""))[:500],
        )
        BanlistEntry.objects.bulk_create(
            BanlistEntry(banlist=copy, passcode=int(code), limit=int(limit), comment=str(comment)[:200])
            for code, limit, comment in document.get("entries", [])
        )
        audit.record(BANLIST_COPIED, actor=actor, obj=copy, event_id=event_id, after=copy.pk, imported=True)
    return copy


def as_file(banlist: Banlist) -> dict[str, Any]:
    """The document ``frozen_from_file`` reads."""
    entries = banlist.entries.order_by("passcode").values_list("passcode", "limit", "comment")
    return {
        "name": banlist.name,
        "whitelist": banlist.whitelist,
        "source": banlist.source,
        "entries": [list(e) for e in entries],
    }


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
