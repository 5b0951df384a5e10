"""Deck files: .ydk, ydke:// and text deck sheets in Japanese and English."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taikai.cards.deck_formats import read_deck
from taikai.cards.formats import (
    DeckFormatError,
    read_text_sheet,
    read_ydk,
    read_ydke,
    sort_ydk,
    write_text_sheet,
    write_ydk,
    write_ydke,
)
from taikai.cards.index import MemoryCardIndex
from taikai.core.deck import CardFacts, Deck
from tests.factories import SAMPLE_YDK, SAMPLE_YDKE

SHEET_JA = """\
【メインデッキ】 40枚
モンスター (37)
ブラック・マジシャン ×3
青眼の白龍 x3
３ デーモンの召喚
3 ハーピィ・レディ
ガード・オブ・フレムベル　×３
エフェクト・ヴェーラー×3
幽鬼うさぎ 3枚
原始生命態ニビル ×3
クリッター ×3
黒き森のウィッチ ×3
人造人間－サイコ・ショッカー
サイバー・ドラゴン
人喰い虫
サクリファイス
カオス・ソルジャー
オッドアイズ・ペンデュラム・ドラゴン
アストログラフ・マジシャン
魔法 (3)
サンダー・ボルト
融合
サイクロン

エクストラデッキ（10）
青眼の究極竜
Ｅ・ＨＥＲＯ フレイム・ウィングマン
サイバー・エンド・ドラゴン
スターダスト・ドラゴン
ブラック・ローズ・ドラゴン
フルール・ド・バロネス
No.39 希望皇ホープ
天霆號アーゼウス
デコード・トーカー
アクセスコード・トーカー

サイドデッキ：3
灰流うらら ×2
無限泡影
"""

SHEET_EN = """\
Main Deck (40)
3 Dark Magician
3 Blue-Eyes White Dragon
3 Summoned Skull
3 harpie lady
3 Flamvell Guard
Effect Veiler x3
Ghost Ogre & Snow Rabbit x3
Nibiru, the Primal Being × 3
3 Sangan
3 Witch of the Black Forest
1 Jinzo
1 Cyber Dragon
1 Man-Eater Bug
1 Relinquished
1 Black Luster Soldier
1 Odd-Eyes Pendulum Dragon
1 Astrograph Sorcerer
1 Raigeki
1 Polymerization
1 Mystical Space Typhoon

Extra Deck: 10
Blue-Eyes Ultimate Dragon
Elemental HERO Flame Wingman
Cyber End Dragon
Stardust Dragon
Black Rose Dragon
Baronne de Fleur
Number 39: Utopia
Divine Arsenal AA-ZEUS - Sky Thunder
Decode Talker
Accesscode Talker

Side
2 Ash Blossom & Joyous Spring
1 Infinite Impermanence
"""


def copy_keys(deck: Deck, index: MemoryCardIndex) -> dict[str, Counter[int]]:
    return {s: Counter(index.get(p).copy_key for p in deck.section(s)) for s in ("main", "extra", "side")}


def test_sample_ydk_reads_40_10_3() -> None:
    deck = read_ydk(SAMPLE_YDK.read_text("utf-8"))
    assert deck.counts() == {"main": 40, "extra": 10, "side": 3}
    assert deck.side == (14558127, 14558128, 10045474)


def test_ydke_url_is_the_same_deck_as_the_ydk() -> None:
    assert read_ydke(SAMPLE_YDKE.read_text("utf-8")) == read_ydk(SAMPLE_YDK.read_text("utf-8"))


def test_ydk_and_ydke_round_trip() -> None:
    deck = read_ydk(SAMPLE_YDK.read_text("utf-8"))
    assert read_ydk(write_ydk(deck)) == deck
    assert read_ydke(write_ydke(deck)) == deck
    assert write_ydke(deck) == SAMPLE_YDKE.read_text("utf-8").strip()


def test_extra_deck_monsters_listed_under_main_are_re_sorted(index: MemoryCardIndex) -> None:
    deck = read_ydk(SAMPLE_YDK.read_text("utf-8"))
    ygopro_style = "#main\n" + "\n".join(map(str, deck.main + deck.extra)) + "\n#extra\n!side\n"
    ygopro_style += "\n".join(map(str, deck.side))
    resorted = sort_ydk(read_ydk(ygopro_style), index)
    assert resorted == deck


def test_japanese_and_english_sheets_resolve_to_the_same_passcodes(index: MemoryCardIndex) -> None:
    ja = read_text_sheet(SHEET_JA, index)
    en = read_text_sheet(SHEET_EN, index)
    assert ja.unknown == () and en.unknown == ()
    assert ja.deck == en.deck
    assert ja.deck.counts() == {"main": 40, "extra": 10, "side": 3}
    # The same cards as the .ydk, up to the alternate artwork in the side deck.
    ydk = read_ydk(SAMPLE_YDK.read_text("utf-8"))
    assert copy_keys(ja.deck, index) == copy_keys(ydk, index)


class _Counting:
    """A resolver that counts how it is asked: one name at a time, or a batch."""

    def __init__(self, index: MemoryCardIndex):
        self.index, self.one, self.batches = index, 0, 0

    def resolve(self, name: str) -> CardFacts | None:
        self.one += 1
        return self.index.resolve(name)

    def resolve_many(self, names: Iterable[str]) -> dict[str, CardFacts | None]:
        self.batches += 1
        return self.index.resolve_many(names)

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        return self.index.suggest(name, limit)


def test_a_sheet_asks_for_its_names_in_batches_not_one_by_one(index: MemoryCardIndex) -> None:
    # Issue 27: a database index answers a batch in one statement, so the sheet's length must not matter.
    counting = _Counting(index)
    sheet = read_text_sheet(SHEET_JA + "灰流うららら ×2\n", counting)
    assert sheet == read_text_sheet(SHEET_JA + "灰流うららら ×2\n", index)
    assert counting.one == 0 and counting.batches <= 2  # the literal readings, then the rest of the lines
    assert [u.name for u in sheet.unknown] == ["灰流うららら"] and sheet.unknown[0].matches[0] == "灰流うらら"


def test_an_unknown_name_is_reported_with_its_line_and_closest_matches(index: MemoryCardIndex) -> None:
    text = "メイン\n3 ブラック・マジシャン\n灰流うららら ×2\n\nSide\nAsh Blosom & Joyous Spring\n"
    sheet = read_text_sheet(text, index)
    assert sheet.deck.main == (46986414,) * 3
    [first, second] = sheet.unknown
    assert (first.line, first.name, first.count, first.section) == (3, "灰流うららら", 2, "main")
    assert first.matches[0] == "灰流うらら"
    assert (second.line, second.section, second.matches[0]) == (6, "side", "Ash Blossom & Joyous Spring")
    problem = first.problem()
    assert problem.code == "unknown-card" and problem.params["line"] == 3


def test_a_name_starting_with_a_number_is_not_taken_for_a_count(index: MemoryCardIndex) -> None:
    card = index.find("7 Colored Fish", 1)[0]
    sheet = read_text_sheet("7 Colored Fish\n2 7 Colored Fish\n", index)
    assert sheet.deck.main == (card.passcode,) * 3


def test_write_text_sheet_reads_back(index: MemoryCardIndex) -> None:
    deck = read_ydk(SAMPLE_YDK.read_text("utf-8"))
    cards = index.facts(deck.all_cards())
    for lang in ("ja", "en"):
        again = read_text_sheet(write_text_sheet(deck, cards, lang), index)
        assert copy_keys(again.deck, index) == copy_keys(deck, index)


def test_read_deck_recognises_each_format(index: MemoryCardIndex) -> None:
    assert read_deck(SAMPLE_YDKE.read_text("utf-8"), index).format == "ydke"
    assert read_deck(SAMPLE_YDK.read_text("utf-8"), index).format == "ydk"
    assert read_deck(SHEET_EN, index).format == "text"


@pytest.mark.parametrize("text", ["ydke://!!", "ydke://AAA!!!", "ydke://%%%!!!"])
def test_bad_ydke_is_a_format_error(text: str) -> None:
    if text == "ydke://!!":
        assert read_ydke(text) == Deck()
        return
    with pytest.raises(DeckFormatError):
        read_ydke(text)


def test_garbage_in_a_ydk_names_the_line() -> None:
    with pytest.raises(DeckFormatError) as caught:
        read_ydk("#main\n46986414\nDark Magician\n")
    assert caught.value.line == 3


passcodes = st.lists(st.integers(min_value=0, max_value=2**32 - 1), max_size=20).map(tuple)


@given(passcodes, passcodes, passcodes)
def test_ydk_and_ydke_round_trip_any_deck(main: tuple[int, ...], extra: tuple[int, ...], side: tuple[int, ...]) -> None:
    deck = Deck(main, extra, side)
    assert read_ydke(write_ydke(deck)) == deck
    assert read_ydk(write_ydk(deck)) == deck


@given(st.text())
def test_fuzz_ydk(text: str) -> None:
    with contextlib.suppress(DeckFormatError):
        read_ydk(text)


@given(st.from_regex(r"ydke://[A-Za-z0-9+/=]*![A-Za-z0-9+/=]*![A-Za-z0-9+/=]*!?", fullmatch=True) | st.text())
def test_fuzz_ydke(text: str) -> None:
    with contextlib.suppress(DeckFormatError):
        read_ydke(text)


SHEET_CHARS = "メインサイドエクストラデッキ main extra side x×３3 (40)【】：:#!\n灰流うららAsh"


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from(SHEET_CHARS)))
def test_fuzz_text_sheet(text: str) -> None:
    small = MemoryCardIndex([])
    with contextlib.suppress(DeckFormatError):
        read_text_sheet(text, small)
