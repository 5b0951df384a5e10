"""Reading card data from the files users supply: YGOPro/EDOPro ``cards.cdb`` and YGOPRODeck JSON.

Readers return plain ``CardData`` keyed by passcode; storing them is ``services.import_cards``'s job.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

from taikai.cards import limits
from taikai.cards.names import is_japanese
from taikai.core import deck as core

Progress = Callable[[int, int], None]


class CardSourceError(Exception):
    """A card file that cannot be read; the message names the file and the reason."""


@dataclass(frozen=True)
class CardData:
    passcode: int
    alias: int = 0
    type: int = 0
    ot: int = 0
    level: int = 0
    atk: int = 0
    defense: int = 0
    race: int = 0
    attribute: int = 0
    ocg_date: date | None = None
    name_en: str = ""
    name_ja: str = ""

    def facts(self) -> core.CardFacts:
        return core.CardFacts.of(self)

    def merged(self, other: CardData) -> CardData:
        """``other``'s non-empty values over this one's (later files win, empty names never erase)."""
        changes = {
            name: getattr(other, name)
            for name in ("name_en", "name_ja", "ocg_date")
            if getattr(other, name) not in ("", None)
        }
        for name in ("alias", "type", "ot", "level", "atk", "defense", "race", "attribute"):
            changes[name] = getattr(other, name)
        return replace(self, **changes)


def merge(*sources: Iterable[CardData]) -> dict[int, CardData]:
    """Several sources merged by passcode, e.g. an English and a Japanese ``cards.cdb``."""
    out: dict[int, CardData] = {}
    for source in sources:
        for card in source:
            old = out.get(card.passcode)
            out[card.passcode] = card if old is None else old.merged(card)
    return out


# --- cards.cdb -----------------------------------------------------------------------------------


def read_cdb(path: str | Path, lang: str | None = None) -> list[CardData]:
    """Every card in one ``cards.cdb`` (tables ``datas`` and ``texts``).

    The names' language is ``lang`` if given, otherwise guessed from the names themselves: a
    Japanese-locale file carries kana and kanji in most names.
    """
    path = Path(path)
    if not path.is_file():
        raise CardSourceError(f"{path}: no such file")
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        limits.bound_sqlite(con)  # issue 16 M6: bounded in time and rows
        try:
            _check_schema(con, path)
            # Numbers are cast by SQLite (64-bit at most) and names cut there, before Python holds a value.
            numbers = ", ".join(f"CAST(d.{c} AS INTEGER)" for c in CDB_COLUMNS["datas"])
            rows = con.execute(
                f"SELECT {numbers}, substr(CAST(t.name AS TEXT), 1, {limits.MAX_NAME + 1})"
                f" FROM datas d LEFT JOIN texts t ON t.id = d.id ORDER BY d.id LIMIT {limits.MAX_CARDS + 1}"
            ).fetchall()
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise CardSourceError(f"{path}: not a cards.cdb ({exc})") from exc
    if len(rows) > limits.MAX_CARDS:
        raise CardSourceError(f"{path}: more than {limits.MAX_CARDS} cards; not a card database")
    if any(not -(2**31) <= (v or 0) < 2**31 for row in rows for v in row[:9]):  # a real file's fit in 32 bits
        raise CardSourceError(f"{path}: a number out of range; not a card database")
    if lang is None:
        lang = _guess_language([r[9] or "" for r in rows])
    cards = []
    for pid, ot, alias, typ, level, atk, dfn, race, attr, name in rows:
        text = str(name or "").strip()
        cards.append(
            CardData(
                passcode=int(pid),
                alias=int(alias or 0),
                type=int(typ or 0),
                ot=int(ot or 0),
                level=int(level or 0),
                atk=int(atk or 0),
                defense=int(dfn or 0),
                race=int(race or 0),
                attribute=int(attr or 0),
                name_en="" if lang == "ja" else text,
                name_ja=text if lang == "ja" else "",
            )
        )
    return cards


# The columns taikai reads, in this order; a real cards.cdb has more (descriptions, setcodes...).
CDB_COLUMNS = {
    "datas": ("id", "ot", "alias", "type", "level", "atk", "def", "race", "attribute"),
    "texts": ("id", "name"),
}


def _check_schema(con: sqlite3.Connection, path: Path) -> None:
    """Only real tables with real columns: a view, a virtual table or a generated column computes its values
    as they are read, and one such row can build a gigabyte string in a single step that no time bound
    interrupts (issue 25: a 4 KB file took a worker to 2.1 GB; 10 rows ran 175 s)."""
    for table, needed in CDB_COLUMNS.items():
        found = con.execute("SELECT type, sql FROM sqlite_master WHERE lower(name) = ?", (table,)).fetchall()
        if (
            len(found) != 1
            or found[0][0] != "table"
            or str(found[0][1] or "").lstrip().upper().startswith("CREATE VIRTUAL")
        ):
            raise CardSourceError(f"{path}: {table} is not a plain table; not a card database")
        columns = {
            str(name).lower(): hidden for _cid, name, *_rest, hidden in con.execute(f"PRAGMA table_xinfo({table})")
        }
        if any(columns.get(c) != 0 for c in needed):  # missing, or hidden / generated (xinfo's last field)
            raise CardSourceError(f"{path}: {table} lacks a plain column of {', '.join(needed)}; not a card database")


def _guess_language(names: list[str]) -> str:
    sample = [n for n in names if n][:2000]
    japanese = sum(1 for n in sample if is_japanese(n))
    return "ja" if sample and japanese * 2 > len(sample) else "en"


def read_cdbs(
    paths: Iterable[str | Path], *, languages: dict[str, str] | None = None, progress: Progress | None = None
) -> dict[int, CardData]:
    """Several ``cards.cdb`` merged by passcode; ``languages`` maps a path to its name language where
    known. ``progress`` is told after each file is read (files are read before anything is written)."""
    files = list(paths)
    sources = []
    for number, path in enumerate(files, start=1):
        sources.append(read_cdb(path, (languages or {}).get(str(path))))
        if progress:
            progress(number, len(files))
    return merge(*sources)


# --- YGOPRODeck cardinfo.php JSON ----------------------------------------------------------------

_FRAME_BITS = {
    "normal": core.MONSTER | core.NORMAL,
    "effect": core.MONSTER | core.EFFECT,
    "ritual": core.MONSTER | core.RITUAL,
    "fusion": core.MONSTER | core.FUSION,
    "synchro": core.MONSTER | core.SYNCHRO,
    "xyz": core.MONSTER | core.XYZ,
    "link": core.MONSTER | core.LINK,
    "token": core.MONSTER | core.TOKEN,
    "spell": core.SPELL,
    "trap": core.TRAP,
}
_WORD_BITS = {"tuner": core.TUNER, "pendulum": core.PENDULUM, "effect": core.EFFECT, "normal": core.NORMAL}
# The 2020-era ``type`` strings ("Spell Card", "Flip Effect Monster", "Union Effect Monster", "Toon
# Monster", "Synchro Tuner Monster") and no ``frameType``: the kind is in the words.
_KIND_WORDS = {"monster": core.MONSTER, "spell": core.SPELL, "trap": core.TRAP, "token": core.MONSTER | core.TOKEN}
_EFFECT_WORDS = {"flip": 0x200000, "union": 0x400, "toon": 0x400000, "spirit": 0x200, "gemini": 0x800}
_RACE_BITS = {  # spell/trap property
    "quick-play": 0x10000,
    "continuous": 0x20000,
    "equip": 0x40000,
    "field": 0x80000,
    "counter": 0x100000,
    "ritual": core.RITUAL,
}
_ATTRIBUTES = {"EARTH": 0x1, "WATER": 0x2, "FIRE": 0x4, "WIND": 0x8, "LIGHT": 0x10, "DARK": 0x20, "DIVINE": 0x40}
YGOPRODECK_LISTS = {"ban_ocg": "YGOPRODeck OCG", "ban_tcg": "YGOPRODeck TCG"}
_STATUS_LIMITS = {"forbidden": 0, "banned": 0, "limited": 1, "semi-limited": 2}


def type_bits(card: dict[str, Any]) -> int:
    """YGOPro type bits from YGOPRODeck's ``type``/``frameType``/``race`` strings."""
    words = str(card.get("type", "")).lower().replace("-", " ").split()
    frame = str(card.get("frameType", "")).lower().split("_")[0]
    bits = _FRAME_BITS.get(frame, 0)
    for word, bit in _KIND_WORDS.items():
        if word in words:
            bits |= bit
    for word, bit in _EFFECT_WORDS.items():
        if word in words and bits & core.MONSTER:
            bits |= bit | core.EFFECT
    for word in ("fusion", "synchro", "xyz", "link", "ritual"):
        if word in words:
            bits |= _FRAME_BITS[word]
    for word, bit in _WORD_BITS.items():
        if word in words:
            bits |= bit
    if bits & (core.SPELL | core.TRAP):
        bits |= _RACE_BITS.get(str(card.get("race", "")).lower(), 0)
    if bits & core.MONSTER and not bits & (core.NORMAL | core.EFFECT | core.TOKEN):
        bits |= core.EFFECT
    return bits


def _parse_date(value: object) -> date | None:
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


def ygoprodeck_dates(document: Any) -> list[date]:
    """Every release date (``misc_info``'s ``ocg_date`` and ``tcg_date``) in a ``cardinfo.php`` answer:
    what dates the document (YGOPRODeck's cardinfo carries no database version or date of its own)."""
    rows = document.get("data") if isinstance(document, dict) else document
    out = []
    for row in rows if isinstance(rows, list) else []:
        misc = row.get("misc_info") if isinstance(row, dict) else None
        for info in misc if isinstance(misc, list) else []:
            for key in ("ocg_date", "tcg_date"):
                day = _parse_date(info.get(key)) if isinstance(info, dict) else None
                if day is not None:
                    out.append(day)
    return out


def read_ygoprodeck(document: Any) -> tuple[list[CardData], dict[str, dict[int, int]]]:
    """Cards and F/L lists (from ``banlist_info``) in a ``cardinfo.php`` answer.

    Alternate artworks (``card_images`` ids other than the card's own) become cards aliased to it.
    """
    rows = document.get("data") if isinstance(document, dict) else document
    if not isinstance(rows, list):
        raise CardSourceError("not a YGOPRODeck cardinfo document (no 'data' list)")
    cards: list[CardData] = []
    lists: dict[str, dict[int, int]] = {name: {} for name in YGOPRODECK_LISTS.values()}
    card_rows = [row for row in rows if isinstance(row, dict) and isinstance(row.get("id"), int)]
    if not card_rows:
        # "0 added" would say the import worked: a deck export, an empty answer, another site's JSON
        raise CardSourceError(f"not a YGOPRODeck cardinfo document: none of its {len(rows)} rows is a card")
    for row in card_rows:
        card = _ygoprodeck_card(row)
        cards.append(card)
        for image in row.get("card_images") or []:
            alt = image.get("id") if isinstance(image, dict) else None
            if isinstance(alt, int) and alt != card.passcode:
                cards.append(replace(card, passcode=alt, alias=card.passcode))
        for key, name in YGOPRODECK_LISTS.items():
            status = str((row.get("banlist_info") or {}).get(key, "")).lower()
            if status in _STATUS_LIMITS:
                lists[name][card.passcode] = _STATUS_LIMITS[status]
    return cards, lists


def _ygoprodeck_card(row: dict[str, Any]) -> CardData:
    misc = row.get("misc_info") or [{}]
    misc = misc[0] if isinstance(misc, list) and misc and isinstance(misc[0], dict) else {}
    formats = [str(f).lower() for f in misc.get("formats", [])]
    ot = (core.OT_OCG if "ocg" in formats else 0) | (core.OT_TCG if "tcg" in formats else 0)
    if not formats:
        ot = core.OT_OCG | core.OT_TCG
    level = row.get("level") or row.get("linkval") or 0
    scale = row.get("scale") or 0
    return CardData(
        passcode=int(row["id"]),
        type=type_bits(row),
        ot=ot,
        level=int(level) | (int(scale) << 24) | (int(scale) << 16),
        atk=int(row.get("atk") or 0),
        defense=int(row.get("def") or 0),
        attribute=_ATTRIBUTES.get(str(row.get("attribute", "")), 0),
        ocg_date=_parse_date(misc.get("ocg_date")),
        name_en=str(row.get("name", "")).strip(),
    )
