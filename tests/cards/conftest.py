"""Real card data from ../shared/data (read in place, never copied) and small fixtures made here."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from taikai.cards.index import MemoryCardIndex

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
CDB_EN = DATA / "cards" / "cards-en-2026-08.cdb"
CDB_JA = DATA / "cards" / "cards-ja-2026-08.cdb"
CDB_2020 = DATA / "cards" / "cards-en-2020-03-30.cdb"
LFLIST_OCG = DATA / "banlists" / "ocg-2026.07.lflist.conf"
LFLIST_JA = DATA / "banlists" / "ocg-2026.7-ja.lflist.conf"
LFLIST_ALL = DATA / "banlists" / "ygopro-all.lflist.conf"
LFLIST_SPEED = DATA / "banlists" / "ignis-Speed.lflist.conf"
CDB_PRERELEASE = DATA / "cards" / "babel-prerelease-dbgv.cdb"
BLOG_SHEET = DATA / "decks" / "ja-blog-stardust-2010.txt"
SAMPLE_YDK = DATA / "decks" / "sample_deck.ydk"
SAMPLE_YDKE = DATA / "decks" / "sample_deck.ydke.txt"

if not DATA.is_dir():  # pragma: no cover
    pytest.skip("../shared/data is not available", allow_module_level=True)


@pytest.fixture(scope="session")
def index() -> MemoryCardIndex:
    """All 14,484 cards with English and Japanese names, straight from the .cdb pair."""
    return MemoryCardIndex.from_cdb([CDB_EN, CDB_JA])


def slice_cdb(source: Path, target: Path, passcodes: list[int]) -> Path:
    """A small cards.cdb holding only ``passcodes`` of ``source`` (a fixture the test makes itself)."""
    con = sqlite3.connect(target)
    con.execute(f"ATTACH DATABASE 'file:{source}?mode=ro' AS src")
    for table in ("datas", "texts"):
        sql = con.execute("SELECT sql FROM src.sqlite_master WHERE name = ?", (table,)).fetchone()[0]
        con.execute(sql)
        marks = ",".join("?" * len(passcodes))
        con.execute(f"INSERT INTO {table} SELECT * FROM src.{table} WHERE id IN ({marks})", passcodes)
    con.commit()
    con.execute("DETACH DATABASE src")
    con.close()
    return target
