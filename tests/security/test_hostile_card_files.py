"""Small hostile card files are refused quickly, with one line, before anything is written (issue 16, M6)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from taikai.cards import limits
from taikai.cards import services as card_services
from taikai.cards.models import Banlist, Card
from taikai.cards.sources import CardSourceError

pytestmark = pytest.mark.django_db


def _cdb(path: Path, datas_sql: str, texts_sql: str) -> Path:
    con = sqlite3.connect(path)
    con.executescript(datas_sql + ";" + texts_sql + ";")
    con.commit()
    con.close()
    return path


def test_a_tiny_cdb_that_expands_to_a_million_cards_is_refused_quickly(tmp_path: Path) -> None:
    # A few hundred bytes: "datas" is a view that counts to a million (before: 106 s under the write lock).
    counting = (
        "CREATE VIEW datas AS WITH RECURSIVE n(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM n WHERE id < 1000000)"
        " SELECT id, 3 AS ot, 0 AS alias, 17 AS type, 4 AS level, 1000 AS atk, 1000 AS def, 1 AS race,"
        " 1 AS attribute FROM n"
    )
    path = _cdb(tmp_path / "cards.cdb", counting, "CREATE TABLE texts (id INTEGER PRIMARY KEY, name TEXT)")
    assert path.stat().st_size < 16 * 1024
    t0 = time.monotonic()
    with pytest.raises(CardSourceError) as refused:
        card_services.import_card_files([path])
    assert time.monotonic() - t0 < 10
    assert "not a card database" in str(refused.value)  # a view: refused before it is read (issue 25)
    assert "\n" not in str(refused.value)
    assert Card.objects.count() == 0


def test_a_megabyte_card_name_is_refused(tmp_path: Path) -> None:
    path = _cdb(
        tmp_path / "names.cdb",
        "CREATE TABLE datas (id INTEGER PRIMARY KEY, ot, alias, type, level, atk, def, race, attribute);"
        "INSERT INTO datas VALUES (89631139, 3, 0, 17, 8, 3000, 2500, 8192, 16)",
        "CREATE TABLE texts (id INTEGER PRIMARY KEY, name TEXT);"
        "INSERT INTO texts VALUES (89631139, 'Blue-Eyes ' || replace(hex(zeroblob(500000)), '00', 'xy'))",
    )
    with pytest.raises(CardSourceError) as refused:
        card_services.import_card_files([path])
    assert f"longer than {limits.MAX_NAME} characters" in str(refused.value)
    assert Card.objects.count() == 0


def test_a_slow_query_in_a_cdb_is_stopped(tmp_path: Path) -> None:
    con = sqlite3.connect(":memory:")
    limits.bound_sqlite(con, seconds=0.2)
    t0 = time.monotonic()
    with pytest.raises(sqlite3.OperationalError):
        con.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n").fetchall()
    assert time.monotonic() - t0 < 3


def test_a_lflist_with_too_many_entries_is_refused_before_the_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two million entries took 95 s under the write lock; the bound is checked on the parsed file first
    # (made small here so the test stays fast).
    monkeypatch.setattr(limits, "MAX_ENTRIES", 1000)
    path = tmp_path / "lflist.conf"
    path.write_text("!2026.01 OCG\n" + "".join(f"{10000000 + i} 1\n" for i in range(1001)))
    with pytest.raises(CardSourceError) as refused:
        card_services.import_lflist_file(path)
    assert "more than 1000 entries" in str(refused.value)
    assert not Banlist.objects.exists()
