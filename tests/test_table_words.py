"""A table is said 「1番卓」 everywhere (issue 24, item 9): in every translation, in the problem texts and notices
the API and the pages show, never 「1 卓」, 「1卓」 or 「1 番の卓」 (a count of tables, 「3卓」, is another word)."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "taikai"
ENTRY = re.compile(r'^msgid "(.*?)"\nmsgstr "(.*?)"$', re.M)
TABLE_NUMBER = re.compile(r"\b[Tt]able %\((\w+)\)s")  # "Table %(t)s", "table %(t)s": one table's number


def _po_entries() -> list[tuple[Path, str, str]]:
    out = []
    for po in SRC.rglob("locale/ja/LC_MESSAGES/django.po"):
        out += [(po, msgid, msgstr) for msgid, msgstr in ENTRY.findall(po.read_text(encoding="utf-8"))]
    return out


def test_every_translation_of_a_table_number_says_ban_taku() -> None:
    entries = _po_entries()
    assert len(entries) > 500  # the catalogs were read
    wrong = []
    for po, msgid, msgstr in entries:
        for var in TABLE_NUMBER.findall(msgid):
            if msgstr and f"%({var})s番卓" not in msgstr:
                wrong.append(f"{po.parent.parent.parent.parent.name}: {msgid!r} -> {msgstr!r}")
    assert wrong == []


def test_no_text_says_a_table_number_with_a_bare_taku() -> None:
    number = r"(\{table\}|\{tables\}|%\(t\)s|%\(tables\)s)"
    bare = re.compile(number + r"\s*卓|卓\s*(\{table\}|\{tables\})|番の卓|" + number + r"\s*番(?!卓)")
    texts = [p for p in SRC.rglob("*") if p.suffix in {".py", ".po", ".html", ".js"}]
    wrong = [f"{p.relative_to(SRC)}: {m.group(0)}" for p in texts for m in bare.finditer(p.read_text("utf-8"))]
    assert [w for w in wrong if "番卓" not in w] == []
