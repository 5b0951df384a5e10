"""The organizer uploads a cards.cdb and an lflist.conf in the browser and sees what the import did."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from taikai.audit.models import AuditEntry
from taikai.cards.models import Card, ImportRecord
from tests.factories import CDB_2020, CDB_EN, CDB_JA, LFLIST_JA, slice_cdb

pytestmark = pytest.mark.django_db
PASSCODES = [14558127, 14558128, 46986414]


@pytest.fixture
def staff() -> Client:
    user = get_user_model().objects.create_user("organizer", password="a long password", is_staff=True)
    client = Client()
    client.force_login(user)
    return client


def upload(path: Path, name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, path.read_bytes())


def test_staff_uploads_two_cdbs_and_a_list_and_sees_the_summary(staff: Client, tmp_path: Path) -> None:
    en = slice_cdb(CDB_EN, tmp_path / "en.cdb", PASSCODES)
    ja = slice_cdb(CDB_JA, tmp_path / "ja.cdb", PASSCODES)
    response = staff.post(
        "/cards/import/",
        {"cards": [upload(en, "cards.cdb"), upload(ja, "cards-ja.cdb")], "lflist": [upload(LFLIST_JA, "lflist.conf")]},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "upload:cards.cdb + upload:cards-ja.cdb" in page
    assert Card.objects.get(passcode=14558127).name_ja == "灰流うらら"
    assert [r.kind for r in ImportRecord.objects.order_by("id")] == ["cards", "banlist"]
    entry = AuditEntry.objects.get(action="taikai.cards.imported")
    assert entry.actor.get_username() == "organizer"


def test_the_page_is_in_japanese_by_default(staff: Client) -> None:
    page = staff.get("/cards/import/").content.decode()
    assert "カードデータ" in page and "禁止・制限リスト" in page


def test_a_wrong_file_is_refused_with_a_message(staff: Client) -> None:
    bogus = SimpleUploadedFile("cards.cdb", b"not a database")
    response = staff.post("/cards/import/", {"cards": [bogus]})
    assert response.status_code == 400
    assert "not a cards.cdb" in response.content.decode()
    assert Card.objects.count() == 0
    response = staff.post("/cards/import/", {"cards": [SimpleUploadedFile("evil.exe", b"MZ")]})
    assert response.status_code == 400


def test_only_logged_in_staff_may_import() -> None:
    anonymous = Client()
    assert anonymous.get("/cards/import/").status_code == 302
    player = get_user_model().objects.create_user("player", password="a long password")
    client = Client()
    client.force_login(player)
    assert client.get("/cards/import/").status_code == 403


def test_an_lflist_line_that_cannot_be_read_is_skipped_and_shown(staff: Client) -> None:
    text = b"!2026.7\n14558127 2 --Ash\nforty 1\n!Genesys\n$genesys\n14558127 10\n"
    response = staff.post("/cards/import/", {"lflist": [SimpleUploadedFile("rush.lflist.conf", text)]})
    assert response.status_code == 200
    page = response.content.decode()
    assert "rush.lflist.conf: 3 行目を読み飛ばしました" in page
    assert "「Genesys」はポイント制のリスト" in page


def test_an_older_upload_is_held_back_and_the_page_says_so_until_the_organizer_ticks_the_box(
    staff: Client, tmp_path: Path
) -> None:
    # Issue 22: the older 2020 cards.cdb, uploaded after the 2026 one, reverts nothing unless asked.
    from tests.cards.test_older_imports import NEMESES, NEWER, PANDA, write_json

    wanted = [NEMESES, PANDA, 14558127, 101303071]
    newer = slice_cdb(CDB_EN, tmp_path / "2026.cdb", wanted)
    cardinfo = write_json(tmp_path / "cardinfo.json", NEWER)
    staff.post("/cards/import/", {"cards": [upload(newer, "cards.cdb"), upload(cardinfo, "cardinfo.json")]})
    older = slice_cdb(CDB_2020, tmp_path / "2020.cdb", wanted)
    page = staff.post("/cards/import/", {"cards": [upload(older, "cards-2020.cdb")]}).content.decode()
    assert "古いため見送り" in page and "2026-07-25 時点" in page and "古いファイルでも上書きする" in page
    record = ImportRecord.objects.latest("id")
    assert (record.source, record.skipped, record.updated) == ("upload:cards-2020.cdb", 2, 0)
    assert Card.objects.get(passcode=NEMESES).name_en == "Nemeses Corridor"
    staff.cookies["taikai_language"] = "en"
    english = staff.post(
        "/cards/import/", {"cards": [upload(older, "cards-2020.cdb")], "allow_older": "1"}
    ).content.decode()
    assert "overwritten as asked" in english and "Skipped (older)" in english
    assert Card.objects.get(passcode=PANDA).ot == 2
    assert AuditEntry.objects.filter(action="taikai.cards.imported").count() == 4


def test_a_changed_forbidden_list_names_each_entry_on_the_page(staff: Client, tmp_path: Path) -> None:
    staff.post("/cards/import/", {"lflist": [upload(LFLIST_JA, "lflist.conf")]})
    text = LFLIST_JA.read_text("utf-8").replace("\n23434538 1", "\n23434538 0", 1)
    edited = tmp_path / "edited.conf"
    edited.write_text(text, "utf-8")
    page = staff.post("/cards/import/", {"lflist": [upload(edited, "lflist.conf")]}).content.decode()
    assert "2026.7: 1 件変更" in page and "制限 → 禁止" in page
