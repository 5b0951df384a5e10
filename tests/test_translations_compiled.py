"""Every Japanese text in an app's .po is in its compiled .mo: Django reads only the .mo, and compilemessages
skips a .mo newer than its .po (after a merge or a checkout), which once showed new pages in English."""

from __future__ import annotations

import ast
import gettext
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "taikai"
CATALOGS = sorted(SRC.glob("*/locale/ja/LC_MESSAGES/django.po"))


def _entries(po: Path) -> list[tuple[str, str, str]]:
    """(context, msgid, msgstr) of each translated singular entry that is not fuzzy."""
    out: list[tuple[str, str, str]] = []
    entry: dict[str, str] = {}
    key, fuzzy = "", False

    def flush() -> None:
        nonlocal entry, fuzzy
        if entry.get("msgid") and entry.get("msgstr") and not fuzzy and "msgid_plural" not in entry:
            out.append((entry.get("msgctxt", ""), entry["msgid"], entry["msgstr"]))
        entry, fuzzy = {}, False

    for line in po.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            flush()
        elif line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            entry[key] = entry.get(key, "") + ast.literal_eval(line)
        else:
            key, _, rest = line.partition(" ")
            if key.startswith("msgid") and "msgid" in entry and key == "msgid":
                flush()
            entry[key] = ast.literal_eval(rest)
    flush()
    return out


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parts[-5])
def test_the_compiled_catalog_holds_every_translation(po: Path) -> None:
    with open(po.with_suffix(".mo"), "rb") as f:
        compiled = gettext.GNUTranslations(f)
    missing = []
    for context, msgid, msgstr in _entries(po):
        got = compiled.pgettext(context, msgid) if context else compiled.gettext(msgid)
        if got != msgstr:
            missing.append(msgid[:60])
    assert missing == [], f"{po}: run scripts/messages.sh or compilemessages after touching the .po"


def test_the_po_reader_reads_a_translated_entry(tmp_path: Path) -> None:
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Close"\nmsgstr "閉じる"\n'
    )
    assert _entries(po) == [("", "Close", "閉じる")]
