"""Issue 25 item 15: a 4 KB `cards.cdb` whose rows compute a huge string took a worker to 2.1 GB, past a time
bound that never fired (one step of the query builds the string); the violator import stored a 5,000-character
rung and a 100,000-character event name; archetypes took control characters. Now only plain tables and
columns are read from a cdb, numbers are cast and bounded by SQLite, and every imported text is bounded."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from taikai.cards import services as card_services
from taikai.cards.models import Card
from taikai.cards.sources import CardSourceError
from taikai.decks.archetypes import set_archetype
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.judging.models import DatabaseRecord
from taikai.judging.services import database
from tests.factories import World

pytestmark = pytest.mark.django_db
COLUMNS = "id INTEGER PRIMARY KEY, ot, alias, type, level, atk, def, race, attribute"
HUGE = "length(replace(hex(zeroblob(20000000)), '0', 'ab'))"  # 40 MB, then 60 MB, per row, in one step


def _cdb(path: Path, script: str) -> Path:
    con = sqlite3.connect(path)
    con.executescript(script)
    con.commit()
    con.close()
    return path


def _rows(table: str = "datas") -> str:
    return ";".join(f"INSERT INTO {table} (id, ot) VALUES ({89631139 + i}, 3)" for i in range(10))


@pytest.mark.parametrize(
    "script",
    [
        # a generated column: computed as each row is read
        f"CREATE TABLE datas ({COLUMNS.replace(', attribute', '')}, attribute AS ({HUGE}) VIRTUAL);{_rows()};"
        "CREATE TABLE texts (id INTEGER PRIMARY KEY, name TEXT)",
        # names from a view
        f"CREATE TABLE datas ({COLUMNS});{_rows()};"
        f"CREATE VIEW texts AS SELECT id, printf('%.*c', {HUGE}, 'x') AS name FROM datas",
        # a column taikai reads is missing
        "CREATE TABLE datas (id INTEGER PRIMARY KEY, ot);CREATE TABLE texts (id INTEGER PRIMARY KEY, name TEXT)",
    ],
    ids=["generated-column", "view", "missing-column"],
)
def test_a_cdb_that_is_not_plain_tables_is_refused_before_a_row_is_read(tmp_path: Path, script: str) -> None:
    path = _cdb(tmp_path / "cards.cdb", script)
    assert path.stat().st_size < 16 * 1024
    t0 = time.monotonic()
    with pytest.raises(CardSourceError) as refused:
        card_services.import_card_files([path])
    assert time.monotonic() - t0 < 2
    assert "not a card database" in str(refused.value) and "\n" not in str(refused.value)
    assert Card.objects.count() == 0


def test_numbers_are_cast_by_sqlite_and_bounded(tmp_path: Path) -> None:
    path = _cdb(
        tmp_path / "cards.cdb",
        f"CREATE TABLE datas ({COLUMNS});CREATE TABLE texts (id INTEGER PRIMARY KEY, name TEXT);"
        "INSERT INTO datas VALUES (89631139, 3, 0, 17, 8, '" + "9" * 5000 + "', 2500, 8192, 16);"
        "INSERT INTO texts VALUES (89631139, 'Blue-Eyes White Dragon')",
    )
    with pytest.raises(CardSourceError) as refused:  # before: int() of 5,000 digits, a ValueError (a 500)
        card_services.import_card_files([path])
    assert "out of range" in str(refused.value)


def _violators(**changes: Any) -> dict[str, Any]:
    row = {
        "key": "other:1",
        "card_game_id": "0123456789",
        "player_name": "山田",
        "infraction": "INF-3",
        "rung": "warning",
        "event_name": "地区大会",
        "event_date": "2026-11-01",
    } | changes
    return {"format": database.FORMAT, "version": 1, "source": "other", "records": [row]}


@pytest.mark.parametrize(
    "changes",
    [
        {"rung": "w" * 5000},
        {"event_name": "e" * 100_000},
        {"player_name": "p" * 101},
        {"key": "k" * 201},
        {"infraction": "INF-3\x1b[2J"},
        {"player_name": "山田\u202e"},
        {"event_name": 12},
    ],
    ids=["rung", "event-name", "player-name", "key", "escape", "bidi", "not-text"],
)
def test_the_violator_import_bounds_every_field(world: World, changes: dict[str, Any]) -> None:
    with pytest.raises(ServiceError) as refused:
        database.import_database(world.event, by=Staff(world.head_judge), data=_violators(**changes))
    assert refused.value.problem.code == "bad-import"
    assert not DatabaseRecord.objects.exists()
    assert database.import_database(world.event, by=Staff(world.head_judge), data=_violators()) == 1


@pytest.mark.parametrize("name", ["Snake-Eye\x1b]0;x\x07", "ラビュリンス\u202e", "R\x85R", "天盃\n龍"])
def test_an_archetype_with_a_control_character_is_refused(world: World, name: str) -> None:
    player = world.event.players.first()
    assert player is not None
    with pytest.raises(ServiceError) as refused:
        set_archetype(player, name=name, by=Staff(world.organizer))
    assert refused.value.problem.code == "archetype-name"
    assert set_archetype(player, name="スネークアイ", by=Staff(world.organizer)).name == "スネークアイ"
