"""Real card data from ../shared/data (read in place, never copied) and small card files made from it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
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

SAMPLE_TEXT = SAMPLE_YDK.read_text("utf-8") if SAMPLE_YDK.is_file() else ""
# Cards the tests use beyond the sample deck: Pot of Greed (Forbidden), Maxx "C" (Limited).
EXTRA_CARDS = [55144522, 23434538]


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
