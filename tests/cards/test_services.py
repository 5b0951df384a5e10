"""Imports into the database: one transaction, idempotent, recorded and audited; events keep their list."""

from __future__ import annotations

import json
import sqlite3
from datetime import date
from pathlib import Path

import pytest

from taikai.audit.models import AuditEntry
from taikai.cards import services
from taikai.cards.formats import read_ydk
from taikai.cards.index import DbCardIndex, MemoryCardIndex
from taikai.cards.models import Banlist, Card, ImportRecord
from taikai.core import ruleset as rs
from taikai.core.deck import Deck, check_deck
from tests.cards.test_sources import CARDINFO
from tests.factories import CDB_EN, CDB_JA, LFLIST_OCG, SAMPLE_YDK, slice_cdb

SAMPLE = read_ydk(SAMPLE_YDK.read_text("utf-8"))
EXTRA_CARDS = [84013238, 36996508, 23434538, 55144522, 83764718, 83764719, 89631140, 62517849]


@pytest.fixture
def cdb_pair(tmp_path: Path) -> list[Path]:
    wanted = sorted({*SAMPLE.all_cards(), *EXTRA_CARDS})
    return [slice_cdb(CDB_EN, tmp_path / "en.cdb", wanted), slice_cdb(CDB_JA, tmp_path / "ja.cdb", wanted)]


pytestmark = pytest.mark.django_db


def test_importing_two_locale_files_gives_both_names(cdb_pair: list[Path]) -> None:
    [record] = services.import_card_files(cdb_pair)
    assert (record.created, record.updated, record.unchanged) == (Card.objects.count(), 0, 0)
    ash = Card.objects.get(passcode=14558127)
    assert (ash.name_en, ash.name_ja, ash.key_ja) == ("Ash Blossom & Joyous Spring", "灰流うらら", "灰流うらら")
    assert record.sha256 and " + " in record.source
    assert AuditEntry.objects.filter(action="taikai.cards.imported").count() == 1


def test_importing_again_changes_nothing_and_a_changed_file_updates(cdb_pair: list[Path]) -> None:
    services.import_card_files(cdb_pair)
    [again] = services.import_card_files(cdb_pair)
    assert (again.created, again.updated) == (0, 0)
    con = sqlite3.connect(cdb_pair[0])
    con.execute("UPDATE texts SET name = 'Ash Blossom' WHERE id = 14558127")
    con.commit()
    con.close()
    [changed] = services.import_card_files(cdb_pair)
    assert (changed.created, changed.updated) == (0, 1)
    assert Card.objects.get(passcode=14558127).name_en == "Ash Blossom"
    assert ImportRecord.objects.count() == 3


def test_a_failed_import_leaves_nothing_behind(cdb_pair: list[Path], tmp_path: Path) -> None:
    bad = tmp_path / "broken.cdb"
    bad.write_bytes(b"not sqlite")
    with pytest.raises(services.CardSourceError):
        services.import_card_files([*cdb_pair, bad])
    assert Card.objects.count() == 0 and ImportRecord.objects.count() == 0


def test_ygoprodeck_json_adds_release_dates_to_imported_cards(cdb_pair: list[Path], tmp_path: Path) -> None:  # DECK-7
    services.import_card_files(cdb_pair)
    path = tmp_path / "cardinfo.json"
    path.write_text(json.dumps(CARDINFO))
    records = services.import_card_files([path])
    assert [r.kind for r in records] == ["cards", "banlist"]
    ash = Card.objects.get(passcode=14558127)
    assert ash.ocg_date == date(2015, 11, 21)
    assert ash.name_ja == "灰流うらら"  # the .cdb's data is kept
    assert Card.objects.get(passcode=99999001).ot == 2  # a card the .cdb did not have is added
    assert services.library_banlist("YGOPRODeck OCG").as_core().entries == {14558127: 2}
    # DECK-7: the release date now counts against the event date.
    index = DbCardIndex()
    deck = Deck((), (1861629,), ())  # Decode Talker, released 2017-03-25
    early = check_deck(deck, index.facts(deck.all_cards()), None, rs.builtin("modern").deck, date(2017, 3, 1))
    assert [p.code for p in early] == ["main-too-small", "not-yet-released"]
    later = check_deck(deck, index.facts(deck.all_cards()), None, rs.builtin("modern").deck, date(2017, 3, 25))
    assert "not-yet-released" not in {p.code for p in later}


def test_lflist_import_is_idempotent_and_an_event_copy_is_frozen() -> None:
    record = services.import_lflist_file(LFLIST_OCG)
    assert (record.created, record.updated, record.unchanged) == (1, 0, 0)
    again = services.import_lflist_file(LFLIST_OCG)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 1)
    library = services.library_banlist("2026.07 OCG")
    assert library is not None and library.entries.count() == 200
    event_copy = services.copy_banlist(library)
    # A later list of the same name replaces the library's entries, never the event's copy.
    services.import_banlists([services.ParsedList("2026.07 OCG", {14558127: 0})], source="later")
    assert services.library_banlist("2026.07 OCG").as_core().entries == {14558127: 0}
    assert Banlist.objects.get(pk=event_copy.pk).as_core().entries[14558127] == 2
    assert event_copy.frozen


def test_db_index_answers_like_the_memory_index(cdb_pair: list[Path]) -> None:
    services.import_card_files(cdb_pair)
    db, memory = DbCardIndex(), MemoryCardIndex.from_cdb(cdb_pair)
    assert len(db) == len(memory)
    for name in ("灰流うらら", "ASH BLOSSOM & JOYOUS SPRING", "Ｎｏ．３９ 希望皇ホープ", "nothing"):
        assert db.resolve(name) == memory.resolve(name)
    for query in ("うらら", "No.39", "magician"):
        assert [c.passcode for c in db.find(query)] == [c.passcode for c in memory.find(query)]
    assert db.suggest("Ash Blosom") == memory.suggest("Ash Blosom")
    assert db.facts(SAMPLE.all_cards()) == memory.facts(SAMPLE.all_cards())


def test_a_card_saved_with_a_new_name_is_found_by_it_in_the_same_process(cdb_pair: list[Path]) -> None:
    services.import_card_files(cdb_pair)
    index = DbCardIndex()
    assert index.resolve("灰流うらら") is not None  # the process's name table is loaded
    ash = Card.objects.get(passcode=14558127)
    ash.name_ja = "灰流うららＸ"
    ash.save()  # same count, sum and newest passcode: only the save receiver can drop the table
    renamed = DbCardIndex().resolve("灰流うららＸ")
    assert renamed is not None and renamed.passcode == 14558127


def test_resolve_deck_text_re_sorts_a_ygopro_ydk_and_reports_unknown_names(cdb_pair: list[Path]) -> None:
    services.import_card_files(cdb_pair)
    ygopro = "#main\n" + "\n".join(map(str, SAMPLE.main + SAMPLE.extra)) + "\n!side\n"
    resolved = services.resolve_deck_text(ygopro + "\n".join(map(str, SAMPLE.side)))
    assert resolved.deck == SAMPLE and resolved.problems == ()
    # DECK-2: the report says which cards were moved, so a 40-card main deck of 50 lines explains itself.
    assert sum(n.params["count"] for n in resolved.notes) == len(SAMPLE.extra)
    assert {n.code for n in resolved.notes} == {"ydk-moved-to-extra"}
    resolved = services.resolve_deck_text("3 ブラック・マジシャン\n1 ブラック・マジシャソ\n")
    assert resolved.deck.main == (46986414,) * 3
    assert [(p.code, p.params["line"], p.params["matches"][0]) for p in resolved.problems] == [
        ("unknown-card", 2, "ブラック・マジシャン")
    ]


def test_check_deck_text_for_an_event_uses_its_frozen_list(cdb_pair: list[Path]) -> None:  # DECK-4
    services.import_card_files(cdb_pair)
    services.import_lflist_file(LFLIST_OCG)
    event_list = services.copy_banlist(services.library_banlist("2026.07 OCG"))
    text = SAMPLE_YDK.read_text("utf-8")
    result = services.check_deck_text(text, ruleset=rs.builtin("modern"), banlist=event_list, event_date=None)
    assert result.legal and result.as_dict()["counts"] == {"main": 40, "extra": 10, "side": 3}
    result = services.check_deck_text(
        text + "14558127\n", ruleset=rs.builtin("dkt-2011"), banlist=event_list, event_date=date(2026, 8, 1)
    )
    assert [p.code for p in result.problems] == ["not-extra-deck-card", "not-extra-deck-card", "semi-limited"]
    assert result.cards[14558127].name_ja == "灰流うらら"
