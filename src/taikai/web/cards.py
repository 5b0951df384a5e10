"""The organizer's card-data page: upload a cards.cdb (and an lflist.conf) and see what the import did:
what it added, updated and skipped because the file is older than the stored data (unless the organizer ticks
"Overwrite with an older file"), what the file is as of, and each F/L entry changed from what to what.

An edge over the cards services (which sit below the event apps), so it lives with the other pages here."""

from __future__ import annotations

import tempfile
from pathlib import Path

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _

from taikai.cards import report, services
from taikai.cards.lflist import LflistError
from taikai.cards.models import Banlist, Card, ImportRecord
from taikai.cards.sources import CardSourceError
from taikai.cards.texts import describe
from taikai.core.problems import Problem
from taikai.events.actors import Staff

CARD_SUFFIXES = (".cdb", ".json")
MAX_UPLOAD = 64 * 1024 * 1024


def _save(upload: UploadedFile[bytes], folder: Path, index: int, suffixes: tuple[str, ...]) -> Path:
    suffix = Path(upload.name or "").suffix.lower()
    if suffix not in suffixes:
        raise CardSourceError(
            _("%(name)s: expected a %(kinds)s file") % {"name": upload.name, "kinds": "/".join(suffixes)}
        )
    if (upload.size or 0) > MAX_UPLOAD:
        raise CardSourceError(_("%(name)s: the file is too large") % {"name": upload.name})
    # Our own file name: the uploaded name is only kept for the record.
    path = folder / f"upload-{index}{suffix}"
    with path.open("wb") as out:
        for chunk in upload.chunks():
            out.write(chunk)
    return path


@login_required
def import_page(request: HttpRequest) -> HttpResponse:
    if not request.user.is_staff:
        raise PermissionDenied
    records: list[ImportRecord] = []
    error = ""
    if request.method == "POST":
        card_files = request.FILES.getlist("cards")
        lflists = request.FILES.getlist("lflist")
        if not card_files and not lflists:
            error = _("Choose a cards.cdb or an lflist.conf file.")
        else:
            try:
                records = _import(request, card_files, lflists, allow_older=request.POST.get("allow_older") == "1")
            except (CardSourceError, LflistError, UnicodeDecodeError) as exc:
                error = str(exc)
    lang = (translation.get_language() or "ja")[:2]
    context = {
        "records": records,
        "notes": [note for record in records for note in report.notes(record, lang)],
        "warnings": _warnings(records),
        "error": error,
        "history": ImportRecord.objects.select_related("actor")[:10],
        "card_count": Card.objects.count(),
        "banlists": Banlist.objects.filter(frozen=False).order_by("-imported_at")[:10],
    }
    return render(request, "cards/import.html", context, status=400 if error else 200)


def _warnings(records: list[ImportRecord]) -> list[str]:
    """Lines an lflist import skipped, as sentences in the page's language, each naming its file."""
    lang = (translation.get_language() or "ja")[:2]
    out = []
    for record in records:
        for raw in (record.summary or {}).get("warnings", []):
            params = {k: v for k, v in raw.items() if k != "code"}
            out.append(f"{record.source.removeprefix('upload:')}: {describe(Problem(raw['code'], **params), lang)}")
    return out


def _import(
    request: HttpRequest,
    card_files: list[UploadedFile[bytes]],
    lflists: list[UploadedFile[bytes]],
    *,
    allow_older: bool,
) -> list[ImportRecord]:
    with tempfile.TemporaryDirectory(prefix="taikai-upload-") as tmp:
        folder = Path(tmp)
        cards = [_save(f, folder, i, CARD_SUFFIXES) for i, f in enumerate(card_files)]
        lists = [_save(f, folder, 100 + i, (".conf", ".txt")) for i, f in enumerate(lflists)]
        # The record keeps the name the organizer uploaded, not the temporary path.
        labels = {str(p): f"upload:{f.name}" for p, f in zip([*cards, *lists], [*card_files, *lflists], strict=True)}
        by = Staff(request.user)
        records = services.import_card_files(cards, actor=by, labels=labels, allow_older=allow_older) if cards else []
        records += [
            services.import_lflist_file(p, actor=by, label=labels[str(p)], allow_older=allow_older) for p in lists
        ]
    return records
