"""Card look-up by name: Japanese or English, full-width or half-width, partial (NFKC)."""

from __future__ import annotations

from taikai.cards.index import MemoryCardIndex
from taikai.cards.names import name_key


def test_name_keys_fold_width_case_and_spaces() -> None:
    assert name_key("増殖するＧ") == name_key("増殖するG")
    assert name_key("Ｎｏ．３９ 希望皇ホープ") == name_key("No.39希望皇ホープ")
    assert name_key("Blue–Eyes White Dragon") == name_key("blue-eyes white dragon")


def test_resolve_prefers_the_original_printing(index: MemoryCardIndex) -> None:
    assert index.resolve("灰流うらら").passcode == 14558127
    assert index.resolve("ash blossom & joyous spring").passcode == 14558127
    assert index.resolve("Dark Magician").passcode == 46986414
    assert index.resolve("no such card") is None


def test_find_partial_names_in_either_language(index: MemoryCardIndex) -> None:
    assert index.find("うらら")[0].passcode == 14558127
    assert index.find("ｎｏ．３９")[0].passcode == 84013237  # full-width, exact name first
    assert index.find("Utopia")[0].name_en == "Utopian Aura"  # a name starting with the query first
    assert 84013237 in [c.passcode for c in index.find("Utopia")]
    assert index.find("14558127")[0].name_ja == "灰流うらら"
    assert index.find("") == []


def test_suggest_closest_names(index: MemoryCardIndex) -> None:
    assert index.suggest("Blue Eyes White Dragn")[0] == "Blue-Eyes White Dragon"
    assert index.suggest("増殖するG")[0] == "増殖するＧ"
