"""An import's record in words, Japanese or English, for the command line and the upload page: what it added,
changed and left alone because the file is older, what the file is as of, and which F/L entries changed from
what to what (issue 22: whoever is affected sees it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from taikai import messages
from taikai.cards.models import Card, ImportRecord
from taikai.cards.texts import LIMIT_NAMES
from taikai.core.problems import Problem

_UNLISTED = {"ja": "リスト外", "en": "not listed"}
_UNLIMITED = {"ja": "無制限", "en": "Unlimited"}


@dataclass(frozen=True)
class Note:
    """One sentence about an import, with the F/L entries it names under it."""

    text: str
    items: list[str] = field(default_factory=list)


def _text(code: str, lang: str, **params: Any) -> str:
    return messages.text(Problem(code, **params), lang)


def summary_line(record: ImportRecord, lang: str) -> str:
    """Added / updated / unchanged / skipped-as-older, naming the file as the user gave it."""
    return _text(
        "import-summary",
        lang,
        source=record.source,
        created=record.created,
        updated=record.updated,
        unchanged=record.unchanged,
        skipped=record.skipped,
    )


def dating_text(dating: Mapping[str, Any], lang: str) -> str:
    """What the file (or one list) is as of, and what that meant against the stored data."""
    basis = dating.get("edition_basis") or "document"
    if not dating.get("edition"):
        return _text(f"no-date-{basis}", lang, not_in_file=dating.get("not_in_file", 0))
    basis_text = _text(f"basis-{basis}", lang)
    params = {
        "edition": dating["edition"],
        "stored": dating.get("stored_edition"),
        "basis": basis_text,
        "skipped": dating.get("skipped", 0),
    }
    if dating.get("older"):
        kept = "older-kept-list" if "name" in dating else "older-kept"
        return _text("older-allowed" if dating.get("allow_older") else kept, lang, **params)
    return _text("dated-list" if "name" in dating else "dated", lang, **params)


def notes(record: ImportRecord, lang: str) -> list[Note]:
    """A card import's date; for a list import, each list changed or left alone, with its entries."""
    summary = record.summary or {}
    if record.kind == ImportRecord.Kind.CARDS:
        dating = {**summary, "skipped": record.skipped}
        return [Note(dating_text(dating, lang))] if "edition_basis" in summary else []
    reports = [r for r in summary.get("list_reports", []) if r.get("status") in ("updated", "older")]
    names = _card_names([c[0] for r in reports for c in r.get("changes", [])], lang)
    out = []
    for report in reports:
        older = report["status"] == "older"
        items = [_change(change, lang, names, kept=older) for change in report.get("changes", [])]
        code = "list-older" if older else "list-updated"
        text = _text(code, lang, name=report["name"], count=len(items), dating=dating_text(report, lang))
        out.append(Note(text, items))
    return out


def _limit(value: int | None, lang: str) -> str:
    if value is None:
        return _UNLISTED.get(lang, _UNLISTED["en"])
    names = LIMIT_NAMES.get(lang, LIMIT_NAMES["en"])
    return names.get(value) or _UNLIMITED.get(lang, _UNLIMITED["en"])


def _change(change: list[Any], lang: str, names: Mapping[int, str], *, kept: bool) -> str:
    passcode, old, new, comment = (list(change) + [""])[:4]
    card = names.get(passcode) or comment or str(passcode)
    code = "limit-change-kept" if kept else "limit-change"
    return _text(code, lang, card=card, old=_limit(old, lang), new=_limit(new, lang))


def _card_names(passcodes: list[int], lang: str) -> dict[int, str]:
    if not passcodes:
        return {}
    return {card.passcode: card.facts().name(lang) for card in Card.objects.filter(passcode__in=set(passcodes))}
