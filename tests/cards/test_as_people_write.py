"""Deck lists as their own tools and people write them (issue 15): lenient ydke:// and .ydk as EDOPro
reads them, Japanese lists from blogs and shops, and bounded, fast reading of hostile input."""

from __future__ import annotations

import time
import urllib.parse

import pytest

from taikai.cards.deck_formats import read_deck
from taikai.cards.formats import DeckFormatError, decode_bytes, read_text_sheet, read_ydk, read_ydke
from taikai.cards.index import MemoryCardIndex
from taikai.cards.textsheet import MAX_CARD_LINES
from taikai.core.deck import Deck
from tests.factories import BLOG_SHEET, SAMPLE_YDK, SAMPLE_YDKE

URL = SAMPLE_YDKE.read_text("utf-8").strip()
SAMPLE = read_ydk(SAMPLE_YDK.read_text("utf-8"))
BODY = URL.removeprefix("ydke://")


# --- ydke:// -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        URL,
        "ydke://" + BODY.replace("=", ""),  # no base64 padding
        "ydke://" + BODY.replace("+", "-").replace("/", "_"),  # the URL-safe alphabet
        urllib.parse.quote(URL, safe=""),  # percent-encoded, as a link carries it
        URL.replace("ydke://", "YDKE://"),
        URL[:60] + "\n" + URL[60:130] + "\r\n" + URL[130:],  # wrapped over lines by a chat client
        f"ここにデッキ貼ります → {URL} よろしく!",  # inside a chat message
        URL.removesuffix("!"),  # without the last '!'
        URL.removesuffix("!") + " thanks",
    ],
)
def test_ydke_urls_read_as_edopro_reads_them(text: str) -> None:
    assert read_ydke(text) == SAMPLE
    assert read_deck(text, MemoryCardIndex([])).format == "ydke"


@pytest.mark.parametrize("text", ["ydke://AAA!!!", "ydke://A!!!", "ydke://%%%!!!", "no url here"])
def test_a_ydke_that_is_not_base64_of_passcodes_is_still_refused(text: str) -> None:
    with pytest.raises(DeckFormatError):
        read_ydke(text)


# --- .ydk ----------------------------------------------------------------------------------------


def test_ydk_lines_as_other_tools_write_them() -> None:
    text = (
        "#created by ygopro-deck-tool\n#main\n081497285 # a zero-padded passcode and a comment\n"
        "46986414\tDark Magician\n#extra\n1861629\n!sidedeck\n14558127\n"
    )
    assert read_ydk(text) == Deck((81497285, 46986414), (1861629,), (14558127,))
    assert read_ydk(text.replace("!sidedeck", "!Side Deck")).side == (14558127,)


def test_a_ydk_saved_as_utf16_with_a_bom_reads_the_same() -> None:
    raw = SAMPLE_YDK.read_text("utf-8")
    for data in (
        raw.encode("utf-16"),
        ("\ufeff" + raw).encode("utf-8"),
        raw.encode("utf-16-be").join([b"\xfe\xff", b""]),
    ):
        assert read_ydk(decode_bytes(data)) == SAMPLE


def test_a_passcode_beyond_32_bits_is_refused_with_its_line() -> None:
    with pytest.raises(DeckFormatError) as caught:
        read_ydk("#main\n46986414\n99999999999\n")
    assert caught.value.line == 3


# --- Japanese lists as people write them ---------------------------------------------------------


def test_the_real_blog_list_reads_with_its_headings_and_its_two_misspellings(index: MemoryCardIndex) -> None:
    sheet = read_text_sheet(BLOG_SHEET.read_text("utf-8"), index)
    # [モンスター 28枚], [魔法 5〜6枚], [罠 7枚] are headings; their counts match the lines under them.
    assert sheet.problems == ()
    assert sum(u.count for u in sheet.unknown) + len(sheet.deck.main) == 28 + 6 + 7
    assert [(u.line, u.name, u.count, u.matches[0]) for u in sheet.unknown] == [
        (5, "サイバードラゴン", 1, "サイバー・ドラゴン"),  # a missing ・
        (10, "ボルドヘッジホッグ", 3, "ボルト・ヘッジホッグ"),  # one character off
    ]
    # "地獄の暴走召喚×2(好み次第で1でもok)": the remark is ignored, the count kept.
    summoning = index.resolve("地獄の暴走召喚")
    assert summoning is not None and sheet.deck.main.count(summoning.passcode) == 2


SHOP_LIST = """\
【ドラゴンメイド】のデッキレシピ
デッキレシピ60枚
総数[60]
【メインデッキ】(5枚)
◆ モンスター(4枚)
《灰流うらら》×3
《増殖するG》1
◆ 魔法(1枚)
・サイクロン
【エクストラデッキ】(2枚)
天霆號アーゼウス1
デコード・トーカー*1
【サイドデッキ】
無限泡影 x2 ※対策
ブラック・マジシャン 2
"""


def test_a_shop_list_with_brackets_glued_counts_headings_and_titles(index: MemoryCardIndex) -> None:
    sheet = read_text_sheet(SHOP_LIST, index)
    assert sheet.unknown == () and sheet.problems == ()
    names = {s: sorted(index.get(p).name_ja for p in sheet.deck.section(s)) for s in ("main", "extra", "side")}
    assert names == {
        "main": ["サイクロン", "増殖するＧ", "灰流うらら", "灰流うらら", "灰流うらら"],
        "extra": ["デコード・トーカー", "天霆號アーゼウス"],
        "side": ["ブラック・マジシャン", "ブラック・マジシャン", "無限泡影", "無限泡影"],
    }


def test_a_heading_whose_count_disagrees_with_its_cards_is_reported(index: MemoryCardIndex) -> None:
    sheet = read_text_sheet("モンスター[4]\n灰流うらら×3\n[魔法 2〜3枚]\nサイクロン\n", index)
    assert [(p.params["line"], p.params["stated"], p.params["count"]) for p in sheet.problems] == [
        (1, "4", 3),
        (3, "2〜3", 1),
    ]


def test_a_card_whose_name_looks_like_a_title_is_still_a_card(index: MemoryCardIndex) -> None:
    sheet = read_text_sheet("ハンバーガーのレシピ×2\n", index)
    assert len(sheet.deck.main) == 2 and sheet.unknown == ()


def test_one_kanji_off_is_suggested_first(index: MemoryCardIndex) -> None:
    sheet = read_text_sheet("カラクリ小町 弍弐四\n", index)  # 弍 for 弐
    assert sheet.unknown[0].matches[0] == "カラクリ小町 弐弐四"


# --- hostile or large input ----------------------------------------------------------------------


def test_a_list_longer_than_any_deck_is_refused_in_one_line(index: MemoryCardIndex) -> None:
    text = "\n".join(f"カード名{i}" for i in range(MAX_CARD_LINES + 50))
    with pytest.raises(DeckFormatError) as caught:
        read_text_sheet(text, index)
    assert caught.value.line == MAX_CARD_LINES + 1 and "not one deck list" in caught.value.reason


def test_20_kb_of_unknown_names_is_read_in_well_under_a_second(index: MemoryCardIndex) -> None:
    names = [f"存在しないカード{i}号・ドラゴン" for i in range(MAX_CARD_LINES)]
    text = "\n".join(names)
    assert len(text.encode("utf-8")) > 8_000
    index.suggest("warm")  # the suggestion index is built once per process
    start = time.perf_counter()
    sheet = read_text_sheet(text, index)
    assert time.perf_counter() - start < 1.0  # the bench shows < 100 ms; a loose bound on a shared machine
    assert len(sheet.unknown) == MAX_CARD_LINES
