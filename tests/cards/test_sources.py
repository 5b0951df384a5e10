"""Reading cards.cdb files and YGOPRODeck JSON."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from taikai.cards.sources import CardSourceError, read_cdb, read_cdbs, read_ygoprodeck, type_bits
from taikai.core import deck as core
from tests.factories import CDB_EN, CDB_JA

CARDINFO = {
    "data": [
        {
            "id": 14558127,
            "name": "Ash Blossom & Joyous Spring",
            "type": "Tuner Monster",
            "frameType": "effect",
            "race": "Zombie",
            "attribute": "FIRE",
            "atk": 0,
            "def": 1800,
            "level": 3,
            "card_images": [{"id": 14558127}, {"id": 14558128}],
            "banlist_info": {"ban_tcg": "Limited", "ban_ocg": "Semi-Limited"},
            "misc_info": [{"formats": ["TCG", "OCG"], "ocg_date": "2015-11-21", "tcg_date": "2016-05-05"}],
        },
        {
            "id": 1861629,
            "name": "Decode Talker",
            "type": "Link Monster",
            "frameType": "link",
            "linkval": 3,
            "card_images": [{"id": 1861629}],
            "misc_info": [{"formats": ["TCG", "OCG"], "ocg_date": "2017-03-25"}],
        },
        {
            "id": 5318639,
            "name": "Mystical Space Typhoon",
            "type": "Spell Card",
            "frameType": "spell",
            "race": "Quick-Play",
            "misc_info": [{"formats": ["TCG", "OCG"], "ocg_date": "2002-05-16"}],
        },
        {
            "id": 13331639,
            "name": "Supreme King Z-ARC",
            "type": "Pendulum Effect Fusion Monster",
            "frameType": "fusion_pendulum",
            "misc_info": [{"formats": ["OCG", "TCG"], "ocg_date": "2017-03-25"}],
        },
        {
            "id": 99999001,
            "name": "A TCG-only card",
            "type": "Effect Monster",
            "frameType": "effect",
            "misc_info": [{"formats": ["TCG"]}],
        },
    ]
}


def test_english_and_japanese_cdbs_merge_by_passcode() -> None:
    cards = read_cdbs([CDB_EN, CDB_JA])
    assert len(cards) == 14484
    ash = cards[14558127]
    assert (ash.name_en, ash.name_ja, ash.alias) == ("Ash Blossom & Joyous Spring", "灰流うらら", 0)
    assert cards[14558128].alias == 14558127


def test_the_language_of_a_cdb_is_read_from_its_names() -> None:
    assert read_cdb(CDB_JA)[0].name_ja and not read_cdb(CDB_JA)[0].name_en
    assert read_cdb(CDB_EN)[0].name_en and not read_cdb(CDB_EN)[0].name_ja


def test_a_file_that_is_not_a_cdb_is_refused(tmp_path: Path) -> None:
    bogus = tmp_path / "cards.cdb"
    bogus.write_text("hello")
    with pytest.raises(CardSourceError):
        read_cdb(bogus)
    with pytest.raises(CardSourceError):
        read_cdb(tmp_path / "missing.cdb")


def test_ygoprodeck_json_gives_release_dates_alternate_art_and_lists() -> None:  # DECK-7
    cards, lists = read_ygoprodeck(json.loads(json.dumps(CARDINFO)))
    by_code = {c.passcode: c for c in cards}
    assert by_code[14558127].ocg_date == date(2015, 11, 21)
    assert by_code[14558128].alias == 14558127
    assert by_code[1861629].facts().extra_kind == "link"
    assert by_code[13331639].facts().extra_kind == "fusion"
    assert "pendulum" in by_code[13331639].facts().kinds
    assert by_code[99999001].ot == core.OT_TCG
    assert lists == {"YGOPRODeck OCG": {14558127: 2}, "YGOPRODeck TCG": {14558127: 1}}


def test_type_strings_map_to_ygopro_bits() -> None:
    assert type_bits({"type": "Spell Card", "frameType": "spell", "race": "Quick-Play"}) == core.SPELL | 0x10000
    assert type_bits({"type": "Token", "frameType": "token"}) & core.TOKEN
    assert type_bits({"type": "Synchro Tuner Monster", "frameType": "synchro"}) & core.TUNER


def test_a_json_document_without_data_is_refused() -> None:
    with pytest.raises(CardSourceError):
        read_ygoprodeck({"error": "No card matching your query was found in the database."})
