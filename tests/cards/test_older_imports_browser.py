"""The organizer uploads an older cards.cdb on a phone, sees that nothing was overwritten and why, then ticks
"Overwrite with an older file" (issue 22, finding 9)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from taikai.cards.models import Card
from tests.cards.test_older_imports import NEMESES, NEWER, PANDA, write_json
from tests.factories import CDB_2020, CDB_EN, PHONE, NewPage, screenshot, slice_cdb

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_older_cards_cdb_uploaded_on_a_phone_overwrites_nothing_until_asked(
    new_page: NewPage, tmp_path: Path
) -> None:
    get_user_model().objects.create_user("organizer", password="a long password", is_staff=True)
    wanted = [NEMESES, PANDA, 14558127, 101303071]
    newer = slice_cdb(CDB_EN, tmp_path / "cards.cdb", wanted)
    cardinfo = write_json(tmp_path / "cardinfo.json", NEWER)
    older = slice_cdb(CDB_2020, tmp_path / "cards-2020.cdb", wanted)

    page = new_page(viewport=PHONE, locale="ja-JP")
    page.goto(page.base_url + "/cards/import/")
    page.fill("input[name=username]", "organizer")
    page.fill("input[name=password]", "a long password")
    page.click("button.primary")
    page.set_input_files("input[name=cards]", [str(newer), str(cardinfo)])
    page.click("text=取り込む")
    expect(page.locator("#import-notes")).to_contain_text("2026-07-25 時点のファイル")

    page.set_input_files("input[name=cards]", [str(older)])
    page.click("text=取り込む")
    notes = page.locator("#import-notes")
    expect(notes).to_contain_text("保存済みのデータ（2026-07-25 時点）より古いため、2 枚を上書きしませんでした")
    expect(page.locator("#summary")).to_contain_text("古いため見送り")
    screenshot(page, "cards-older-upload-ja-phone")
    assert Card.objects.get(passcode=NEMESES).name_en == "Nemeses Corridor"

    page.set_input_files("input[name=cards]", [str(older)])
    page.check("input[name=allow_older]")
    page.click("text=取り込む")
    expect(page.locator("#import-notes")).to_contain_text("指定により上書きしました")
    assert Card.objects.get(passcode=PANDA).ot == 2
