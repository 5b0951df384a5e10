"""Card data never rolls back (issue 22, finding 9): a file older than what is stored changes nothing it would
make older unless the organizer asks, and every import says what it added, updated and skipped as older.

The "older" files are the real ones (the 2020 cards.cdb after the 2026 one) or copies of them edited here."""

from __future__ import annotations

import copy
import json
import sqlite3
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from taikai.audit.models import AuditEntry
from taikai.cards import report, services
from taikai.cards.models import Banlist, Card, ImportRecord
from tests.factories import CDB_2020, CDB_EN, LFLIST_OCG, slice_cdb

pytestmark = pytest.mark.django_db

NEMESES = 72090076  # "Nemeses Corridor" in 2026, "Nemesys Corridor" (OCG only, ot 1) in the 2020 file
PANDA = 35488287  # Brotherhood of the Fire Fist - Panda: OCG and TCG in 2026, TCG only (ot 2) in the 2020 file
ASH = 14558127
ELFNOTES = 101303071  # Elfnotes: Aristeia of Trust, only in the 2026 file
TOADALLY = 90809975  # Toadally Awesome
MAXX_C = 23434538  # Limited on the July 2026 OCG list


def cardinfo(rows: list[tuple[int, str, str, str]]) -> dict[str, Any]:
    """A YGOPRODeck cardinfo.php?misc=yes answer: (passcode, name, OCG release date, OCG F/L status)."""
    data = []
    for passcode, name, released, status in rows:
        row: dict[str, Any] = {
            "id": passcode,
            "name": name,
            "type": "Effect Monster",
            "frameType": "effect",
            "card_images": [{"id": passcode}],
            "misc_info": [{"formats": ["OCG", "TCG"], "ocg_date": released}],
        }
        if status:
            row["banlist_info"] = {"ban_ocg": status}
        data.append(row)
    return {"data": data}


# The newer document: Ash as printed (2015-11-21), and the 2026 Elfnotes card standing for "a card released
# after the 2020 file" (its date here is the test's, July 2026), so the 2026 cards.cdb is dated by it.
NEWER = cardinfo(
    [
        (ASH, "Ash Blossom & Joyous Spring", "2015-11-21", "Semi-Limited"),
        (ELFNOTES, "Elfnotes: Aristeia of Trust", "2026-07-25", ""),
        (TOADALLY, "Toadally Awesome", "2016-07-09", "Forbidden"),
    ]
)


def write_json(path: Path, document: dict[str, Any]) -> Path:
    path.write_text(json.dumps(document))
    return path


def older_document() -> dict[str, Any]:
    """The newer document edited back in time: its newest date is 2019, Toadally Awesome is Limited again."""
    older = copy.deepcopy(NEWER)
    older["data"] = [row for row in older["data"] if row["id"] != ELFNOTES]
    for row in older["data"]:
        if row["id"] == TOADALLY:
            row["banlist_info"] = {"ban_ocg": "Limited"}
            row["misc_info"][0]["ocg_date"] = "2019-01-01"  # a wrong date the newer file corrected
    return older


def cards_state() -> dict[int, tuple[str, str, int]]:
    return {p: (en, ja, ot) for p, en, ja, ot in Card.objects.values_list("passcode", "name_en", "name_ja", "ot")}


def test_the_2020_cards_cdb_after_the_2026_one_reverts_no_name_and_no_ot(tmp_path: Path) -> None:
    # The testers' case: 129 English names and 314 ot values went back to 2020 (OCG cards became TCG-only).
    newer = services.import_card_files([CDB_EN, write_json(tmp_path / "cardinfo.json", NEWER)])
    assert newer[0].edition == date(2026, 7, 25)  # the newest release among its cards, from the JSON given with it
    before = cards_state()
    [older] = services.import_card_files([CDB_2020])
    assert older.edition == date(2016, 7, 9) and older.summary["older"] is True
    after = cards_state()
    assert {p: after[p] for p in before} == before  # nothing stored went back
    assert after[NEMESES][0] == "Nemeses Corridor" and after[PANDA][2] == 3
    assert older.created == 176 and older.updated == 0  # cards only the 2020 file has are still added
    assert older.skipped >= 314  # at least every card whose ot would have gone back
    line = report.summary_line(older, "en")
    assert f"{older.skipped} skipped as older" in line and "176 added, 0 updated" in line
    [note] = report.notes(older, "ja")
    assert "2016-07-09 時点のファイル" in note.text and "2026-07-25 時点" in note.text and "--allow-older" in note.text
    entry = AuditEntry.objects.filter(action="taikai.cards.imported").latest("id")
    assert entry.after["skipped_as_older"] == older.skipped and entry.after["older"] is True


def test_the_organizer_may_ask_for_the_older_cards_cdb(tmp_path: Path) -> None:
    wanted = [NEMESES, PANDA, ASH, ELFNOTES]
    newer = slice_cdb(CDB_EN, tmp_path / "2026.cdb", wanted)
    services.import_card_files([newer, write_json(tmp_path / "cardinfo.json", NEWER)])
    older = slice_cdb(CDB_2020, tmp_path / "2020.cdb", wanted)
    [kept] = services.import_card_files([older])
    assert (kept.created, kept.updated, kept.skipped) == (0, 0, 2)
    [taken] = services.import_card_files([older], allow_older=True)
    assert (taken.updated, taken.skipped) == (2, 0) and taken.summary["allow_older"] is True
    assert Card.objects.get(passcode=NEMESES).name_en == "Nemesys Corridor"
    assert Card.objects.get(passcode=PANDA).ot == 2
    assert "指定により上書きしました" in report.notes(taken, "ja")[0].text


def test_a_cards_cdb_with_no_known_date_is_imported_as_before_and_says_so(tmp_path: Path) -> None:
    # Neither file carries a date and no release date is known: nothing to compare, so the later file wins
    # (as before), and the summary says the file had no date.
    wanted = [NEMESES, PANDA, ASH]
    services.import_card_files([slice_cdb(CDB_EN, tmp_path / "2026.cdb", [*wanted, ELFNOTES])])
    [record] = services.import_card_files([slice_cdb(CDB_2020, tmp_path / "2020.cdb", wanted)])
    assert record.edition is None and (record.updated, record.skipped) == (2, 0)
    [note] = report.notes(record, "en")
    assert note.text.startswith("no date in the file") and "1 stored cards are not in this file" in note.text
    assert "日付なし" in report.notes(record, "ja")[0].text


def test_an_older_ygoprodeck_document_leaves_the_forbidden_list_alone(tmp_path: Path) -> None:
    # The testers' case: an older JSON turned Toadally Awesome from Forbidden to Limited and said "2 updated".
    services.import_card_files([write_json(tmp_path / "new.json", NEWER)])
    assert services.library_banlist("YGOPRODeck OCG").as_core().entries[TOADALLY] == 0
    cards, lists = services.import_card_files([write_json(tmp_path / "old.json", older_document())])
    assert lists.skipped == 1 and (lists.created, lists.updated) == (0, 0)
    assert services.library_banlist("YGOPRODeck OCG").as_core().entries[TOADALLY] == 0
    assert cards.skipped == 1 and Card.objects.get(passcode=TOADALLY).ocg_date == date(2016, 7, 9)
    [note] = report.notes(lists, "ja")
    assert note.items == ["「Toadally Awesome」 禁止 のまま（ファイルでは 制限）"]
    assert "2019-01-01 時点のリスト" in note.text and "2026-07-25 時点" in note.text
    assert "1 skipped as older" in report.summary_line(lists, "en")


def test_with_the_flag_the_older_document_changes_the_list_and_names_the_change(tmp_path: Path) -> None:
    services.import_card_files([write_json(tmp_path / "new.json", NEWER)])
    _, lists = services.import_card_files([write_json(tmp_path / "old.json", older_document())], allow_older=True)
    assert lists.updated == 1 and lists.skipped == 0
    assert services.library_banlist("YGOPRODeck OCG").as_core().entries[TOADALLY] == 1
    [note] = report.notes(lists, "en")
    assert note.items == ["Toadally Awesome: Forbidden → Limited"]
    assert note.text.startswith("YGOPRODeck OCG: 1 entries changed") and "overwritten as asked" in note.text
    # The list is now as of the older document: the newer one is no longer "older" and puts it back.
    _, again = services.import_card_files([write_json(tmp_path / "new.json", NEWER)])
    assert again.updated == 1 and Banlist.objects.get(name="YGOPRODeck OCG", frozen=False).edition == date(2026, 7, 25)


def test_an_lflist_reimported_with_a_changed_limit_names_the_entry(tmp_path: Path) -> None:
    services.import_lflist_file(LFLIST_OCG)
    edited = tmp_path / "ocg.lflist.conf"
    text = LFLIST_OCG.read_text("utf-8")
    assert f"\n{MAXX_C} 1 " in text
    edited.write_text(text.replace(f"\n{MAXX_C} 1 ", f"\n{MAXX_C} 0 "), "utf-8")
    record = services.import_lflist_file(edited, label="ocg.lflist.conf")
    assert (record.updated, record.skipped) == (1, 0) and record.source == "ocg.lflist.conf"
    [note] = report.notes(record, "ja")
    assert note.items == ['「Maxx "C"」 制限 → 禁止']  # no card data stored: the list's comment names it
    assert "2026-07-01 時点のリスト（リスト名の日付）" in note.text


def test_a_list_named_without_a_date_is_imported_as_before_and_says_so(tmp_path: Path) -> None:
    undated = tmp_path / "house.lflist.conf"
    undated.write_text(f"!House list\n{TOADALLY} 0\n{ASH} 1\n", "utf-8")
    services.import_lflist_file(undated)
    undated.write_text(f"!House list\n{TOADALLY} 1\n{ASH} 1\n", "utf-8")
    record = services.import_lflist_file(undated)
    assert record.updated == 1 and record.edition is None
    [note] = report.notes(record, "en")
    assert "no date in the list name" in note.text and note.items == [f"{TOADALLY}: Forbidden → Limited"]


def test_an_older_list_under_the_same_name_is_left_alone() -> None:
    # A list dated in its name cannot be older than itself; one whose date comes from elsewhere can.
    services.import_banlists([services.ParsedList("2026.07 OCG", {TOADALLY: 0})], source="july")
    older = services.ParsedList("2026.07 OCG", {TOADALLY: 1}, edition=date(2025, 1, 1), dated_by="document")
    record = services.import_banlists([older], source="an older copy")
    assert record.skipped == 1 and services.library_banlist("2026.07 OCG").as_core().entries == {TOADALLY: 0}


def test_every_import_writes_an_audit_entry_naming_its_source_and_date(tmp_path: Path) -> None:
    services.import_card_files([write_json(tmp_path / "cardinfo.json", NEWER)], labels={})
    services.import_lflist_file(LFLIST_OCG, label="https://example.org/OCG.lflist.conf")
    entries = list(AuditEntry.objects.filter(action__startswith="taikai.cards.").order_by("id"))
    assert [e.action for e in entries] == [
        "taikai.cards.imported",
        "taikai.cards.banlist_imported",
        "taikai.cards.banlist_imported",
    ]
    assert entries[0].after["edition"] == "2026-07-25" and entries[0].after["skipped_as_older"] == 0
    assert entries[2].after["source"] == "https://example.org/OCG.lflist.conf"
    assert ImportRecord.objects.count() == 3


def test_a_cdb_is_dated_by_release_dates_already_stored(tmp_path: Path) -> None:
    # The dates may come from an earlier YGOPRODeck import instead of a document given with the file.
    services.import_card_files([write_json(tmp_path / "cardinfo.json", NEWER)])
    [record] = services.import_card_files([slice_cdb(CDB_EN, tmp_path / "en.cdb", [ASH, ELFNOTES])])
    assert record.edition == date(2026, 7, 25) and record.summary["edition_basis"] == "cards"


def test_a_future_release_date_does_not_date_a_file(tmp_path: Path) -> None:
    # An announced card's release date says nothing about when the file was made.
    announced = cardinfo([(ASH, "Ash Blossom & Joyous Spring", "2015-11-21", ""), (99999002, "Soon", "2999-01-01", "")])
    [record] = services.import_card_files([write_json(tmp_path / "cardinfo.json", announced)])
    assert record.edition == date(2015, 11, 21)


def test_a_cdb_edit_is_what_the_skip_counts(tmp_path: Path) -> None:
    # An edited copy of the 2026 file (one name changed) that is older than the stored data is held back.
    wanted = [ASH, ELFNOTES]
    newer = slice_cdb(CDB_EN, tmp_path / "2026.cdb", wanted)
    services.import_card_files([newer, write_json(tmp_path / "cardinfo.json", NEWER)])
    older = slice_cdb(CDB_EN, tmp_path / "older.cdb", [ASH])  # newest card: Ash (2015)
    con = sqlite3.connect(older)
    con.execute("UPDATE texts SET name = 'Ash Blossom' WHERE id = ?", (ASH,))
    con.commit()
    con.close()
    [record] = services.import_card_files([older])
    assert record.skipped == 1 and Card.objects.get(passcode=ASH).name_en == "Ash Blossom & Joyous Spring"
