"""Issue 26: deck lists as Japanese players write them (the files the simulators load: test_as_the_simulators_write.py).

Names with 「」『』, headings read before cards, matching as a Japanese player types, notes that name their
card; and a round trip of every sample deck through every format taikai writes. The small files are in
``tests/cards/data`` (its README says where each shape comes from); the card data is the real 2026 .cdb pair."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taikai.bench.cards import SHEET as BENCH_SHEET
from taikai.cards.check import resolve_deck_text
from taikai.cards.deck_formats import read_deck
from taikai.cards.formats import (
    read_omega,
    read_text_sheet,
    read_ydk,
    read_ydke,
    sort_ydk,
    write_omega,
    write_text_sheet,
    write_ydk,
    write_ydke,
)
from taikai.cards.index import MemoryCardIndex
from taikai.cards.texts import describe
from taikai.core.deck import Deck
from taikai.decks import demo
from tests.factories import BLOG_SHEET, DATA, SAMPLE_YDK

HERE = Path(__file__).parent / "data"
ASH, MAXX, DARK_MAGICIAN, DECODE, POLYMERIZATION = 14558127, 23434538, 46986414, 1861629, 24094653


def names(index: MemoryCardIndex, passcodes: tuple[int, ...]) -> list[str]:
    return [index.get(p).name_ja for p in passcodes]


# --- 1. names with 「」 and 『』 ---------------------------------------------------------------------


def bracket_cards(index: MemoryCardIndex) -> list[int]:
    return sorted(
        c.passcode for c in index.facts(index._cards).values() if c.alias == 0 and re.search("[「」『』]", c.name_ja)
    )


SHAPES = ["{n}", "3 {n}", "{n} ×3", "{n}×3", "《{n}》", "《{n}》3", "3x《{n}》", "{n} 3枚", "{n}3", "・{n}", "「{n}」"]


@pytest.mark.parametrize("shape", SHAPES)
def test_every_name_with_brackets_is_read_in_every_line_shape(index: MemoryCardIndex, shape: str) -> None:
    wanted = bracket_cards(index)
    assert len(wanted) >= 79  # 炎舞－「天璣」, 「Ａ」細胞散布爆弾, 大霊術－「一輪」, 『焔聖剣－デュランダル』, …
    for passcode in wanted:
        name = index.get(passcode).name_ja
        sheet = read_text_sheet(shape.format(n=name), index)
        assert sheet.unknown == () and set(sheet.deck.all_cards()) == {passcode}, (shape, name)


def test_brackets_around_a_name_are_quotes_and_brackets_in_it_are_kept(index: MemoryCardIndex) -> None:
    sheet = read_text_sheet("【灰流うらら】×2\n「増殖するＧ」\n『焔聖剣－デュランダル』\n炎舞－「天璣」\n", index)
    assert names(index, sheet.deck.main) == ["灰流うらら"] * 2 + [
        "増殖するＧ",
        "『焔聖剣－デュランダル』",
        "炎舞－「天璣」",
    ]


@pytest.mark.parametrize(
    ("written", "reported"), [("《炎舞－天璣》×2", "炎舞-天璣"), ("炎舞「天璣」 2枚", "炎舞「天璣」")]
)
def test_a_misspelled_bracket_name_is_reported_as_written_with_the_card_first(
    index: MemoryCardIndex, written: str, reported: str
) -> None:
    [unknown] = read_text_sheet(written, index).unknown  # the brackets or the dash left out
    assert (unknown.name, unknown.count, unknown.matches[0]) == (reported, 2, "炎舞－「天璣」")


def test_taikais_own_japanese_sheet_of_every_bracket_name_reads_back(index: MemoryCardIndex) -> None:
    deck = Deck(tuple(bracket_cards(index)))
    sheet = read_text_sheet(write_text_sheet(deck, index.facts(deck.main), "ja"), index)
    assert sheet.unknown == () and sheet.problems == () and sorted(sheet.deck.main) == sorted(deck.main)


# --- 2. headings read before cards ---------------------------------------------------------------


def test_a_blog_list_is_read_as_a_person_reads_it(index: MemoryCardIndex) -> None:
    sheet = read_text_sheet((HERE / "ja-blog-headings.txt").read_text("utf-8"), index)
    assert sheet.unknown == () and sheet.problems == ()
    assert len(sheet.deck.main) == 40 and len(sheet.deck.extra) == 11 and sheet.deck.side == ()
    main = names(index, sheet.deck.main)
    assert main.count("融合") == 3  # "融合 ×3" among the spells is Polymerization ...
    assert POLYMERIZATION not in sheet.deck.extra  # ... "融合" above the fusion monsters is a heading
    assert main.count("幽鬼うさぎ") == 2  # "×2枚△" keeps its count
    assert main[:3] == ["灰流うらら"] * 3  # "1. 灰流うらら ×3": the 1 is the list's numbering
    assert "炎舞－「天璣」" in main and "大霊術－「一輪」" in main and "「Ａ」細胞散布爆弾" in main
    assert names(index, sheet.deck.extra)[0] == "Ｅ・ＨＥＲＯ フレイム・ウィングマン"  # 融合/シンクロ/… opened it
    assert [(n.code, n.params["line"]) for n in sheet.notes] == [("sheet-remark", 1), ("sheet-remark", 27)]
    assert "備考" in describe(sheet.notes[0], "ja") and "remark" in describe(sheet.notes[0], "en")


@pytest.mark.parametrize(
    "line",
    [
        "モンスターカード×25枚",
        "(モンスター×40)",
        "◼︎9枚",
        "◼︎",
        "メインデッキ: 計42枚",
        "総数[60](カード名は画像の左上から記載)",
        "────────────",
        "ーーーーーー",
        "=====",
        "融合/シンクロ/エクシーズ/リンク",
        "【融合】",
        "カード名\t枚数\t価格",
    ],
)
def test_headings_and_decoration_are_never_cards(index: MemoryCardIndex, line: str) -> None:
    sheet = read_text_sheet(f"{line}\n灰流うらら\n", index)
    assert sheet.unknown == () and sheet.deck.all_cards() == (ASH,), line


@pytest.mark.parametrize(
    "line", ["※サイドは環境次第", "◎使用者:佐藤", "使用者：佐藤", "デッキ名: 炎王", "※ 1枚目は好み"]
)
def test_whole_line_remarks_are_notes_not_cards(index: MemoryCardIndex, line: str) -> None:
    sheet = read_text_sheet(f"灰流うらら\n{line}\n", index)
    assert sheet.unknown == () and sheet.deck.main == (ASH,)
    assert [n.code for n in sheet.notes] == ["sheet-remark"]


def test_a_section_total_that_disagrees_with_the_cards_read_is_reported(index: MemoryCardIndex) -> None:
    text = (HERE / "ja-blog-headings.txt").read_text("utf-8").replace("計40枚", "計42枚")
    [problem] = read_text_sheet(text, index).problems
    assert problem.code == "heading-count" and problem.params["stated"] == "42" and problem.params["count"] == 40
    assert "見出し「メインデッキ: 計42枚」は 42 枚ですが、その下のカードは 40 枚です" in describe(problem, "ja")


def test_polymerization_alone_in_the_spells_is_the_card(index: MemoryCardIndex) -> None:
    sheet = read_text_sheet("魔法\n融合\nサイクロン\n融合\n", index)
    assert names(index, sheet.deck.main) == ["融合", "サイクロン", "融合"]


def test_fusion_headings_inside_the_extra_deck_list_their_monsters(index: MemoryCardIndex) -> None:
    text = "エクストラデッキ(3)\n融合\nサイバー・エンド・ドラゴン\nリンク\nデコード・トーカー ×2\n"
    sheet = read_text_sheet(text, index)
    assert sheet.problems == () and sheet.deck.main == () and len(sheet.deck.extra) == 3


def test_the_side_deck_keeps_its_fusion_heading_in_the_side(index: MemoryCardIndex) -> None:
    sheet = read_text_sheet("サイドデッキ\n融合モンスター\nサイバー・エンド・ドラゴン\n", index)
    assert len(sheet.deck.side) == 1 and sheet.deck.extra == ()


# --- 5. matching as a Japanese player types ------------------------------------------------------


@pytest.mark.parametrize("typed", ["ウララ", "ｳﾗﾗ", "うらら"])
def test_a_nickname_in_kana_finds_ash_blossom(index: MemoryCardIndex, typed: str) -> None:
    assert index.find(typed)[0].passcode == ASH
    [unknown] = read_text_sheet(f"{typed} ×3\n", index).unknown  # a nickname is never taken silently
    assert unknown.count == 3 and unknown.matches[0] == "灰流うらら"


@pytest.mark.parametrize("written", ["灰流ウララ", "ﾊｲﾙｳﾗﾗ", "灰流ｳﾗﾗ"])
def test_the_whole_name_in_the_other_kana_or_half_width_is_the_card(index: MemoryCardIndex, written: str) -> None:
    if written == "ﾊｲﾙｳﾗﾗ":  # the kanji's reading, typed: the card data has no readings, so a suggestion
        assert read_text_sheet(written, index).deck == Deck()
        return
    assert read_text_sheet(f"{written}×2\n", index).deck.main == (ASH, ASH)


def test_bare_passcodes_in_a_text_sheet_are_cards(index: MemoryCardIndex) -> None:
    text = "メインデッキ\n14558127\n3 23434538\n46986414 x2\nエクストラデッキ\n01861629\n"
    sheet = read_text_sheet(text, index)
    assert sheet.unknown == () and sheet.deck == Deck((ASH, MAXX, MAXX, MAXX, DARK_MAGICIAN, DARK_MAGICIAN), (DECODE,))


def test_a_table_copied_from_a_shop_page(index: MemoryCardIndex) -> None:
    sheet = read_text_sheet((HERE / "shop-table.txt").read_text("utf-8"), index)
    assert sheet.unknown == () and len(sheet.deck.main) == 11 and sheet.deck.main[:3] == (ASH, ASH, ASH)


def test_a_misspelling_is_reported_with_the_intended_card_first(index: MemoryCardIndex) -> None:
    [unknown] = read_text_sheet("灰流うらうら ×3\n", index).unknown
    assert unknown.matches[0] == "灰流うらら" and unknown.count == 3


# --- 8. notes name their card -----------------------------------------------------------------


def test_the_moved_to_extra_note_names_the_card_in_each_language_with_its_passcode(index: MemoryCardIndex) -> None:
    resolved = resolve_deck_text("#main\n14558127\n1861629\n#extra\n!side\n", index, "deck.ydk")
    [note] = resolved.notes
    assert note.params["name"] == "デコード・トーカー" and note.params["card"] == DECODE
    assert "「デコード・トーカー」（1861629）" in describe(note, "ja", resolved.cards)
    assert "Decode Talker (1861629)" in describe(note, "en", resolved.cards)
    assert "1861629" in describe(note, "en")  # without the card facts at hand, still named


# --- round trip: every sample deck through every format -----------------------------------------


def sample_decks(index: MemoryCardIndex) -> dict[str, Deck]:
    decks = {"sample_deck.ydk": read_ydk(SAMPLE_YDK.read_text("utf-8"))}
    for name, text in [
        ("bench sheet", BENCH_SHEET),
        ("blog 2010", BLOG_SHEET.read_text("utf-8")),
        ("blog headings", (HERE / "ja-blog-headings.txt").read_text("utf-8")),
        ("demo legal", demo.LEGAL_SHEET),
        ("demo forbidden", demo.FORBIDDEN_SHEET),
        ("demo short", demo.SHORT_SHEET),
    ]:
        decks[name] = read_text_sheet(text, index).deck
    cards = json.loads((DATA / "cards" / "sample-cards.json").read_text("utf-8"))["cards"]
    decks["sample-cards.json"] = Deck(
        tuple(c["passcode"] for c in cards if c["deck"] == "main"),
        tuple(c["passcode"] for c in cards if c["deck"] == "extra"),
    )
    return decks


def by_name(index: MemoryCardIndex, deck: Deck) -> tuple[list[int], ...]:
    """A deck as a sheet can say it: each card as the preferred printing of its name."""
    return tuple(
        sorted(index.resolve(index.get(p).name_ja).passcode for p in deck.section(s)) for s in ("main", "extra", "side")
    )


def test_every_sample_deck_reads_back_the_same_from_every_format_taikai_writes(index: MemoryCardIndex) -> None:
    decks = sample_decks(index)
    assert len(decks) == 8 and all(d.main for d in decks.values())
    for name, deck in decks.items():
        assert read_ydk(write_ydk(deck)) == deck, name
        assert read_ydke(write_ydke(deck)) == deck, name
        assert sort_ydk(read_omega(write_omega(deck)), index) == deck, name
        for text in (write_ydk(deck), write_ydke(deck), write_omega(deck)):
            assert sort_ydk(read_deck(text, index).deck, index) == deck, name
        sheet = read_text_sheet(write_text_sheet(deck, index.facts(deck.all_cards()), "ja"), index)
        assert sheet.unknown == () and sheet.problems == (), name
        assert by_name(index, sheet.deck) == by_name(index, deck), name


# --- the same matching through the imported database ---------------------------------------------


@pytest.mark.django_db
def test_the_database_index_matches_as_the_memory_index_does(tmp_path: Path) -> None:
    from taikai.cards import services
    from taikai.cards.index import DbCardIndex
    from tests.factories import CDB_EN, CDB_JA, slice_cdb

    wanted = [ASH, MAXX, DARK_MAGICIAN, DECODE, POLYMERIZATION]
    services.import_card_files(
        [slice_cdb(CDB_EN, tmp_path / "en.cdb", wanted), slice_cdb(CDB_JA, tmp_path / "ja.cdb", wanted)]
    )
    db = DbCardIndex()
    assert [c.passcode for c in db.find("ｳﾗﾗ")] == [ASH] and db.find("ウララ")[
        0
    ].name_en == "Ash Blossom & Joyous Spring"
    assert db.resolve("灰流ウララ").passcode == ASH
    assert db.resolve("23434538").passcode == MAXX
    assert db.find("46986414")[0].passcode == DARK_MAGICIAN
    resolved = resolve_deck_text("メインデッキ\n灰流ウララ×3\n23434538\nｳﾗﾗ\n", db)
    assert resolved.deck.main == (ASH, ASH, ASH, MAXX)
    [problem] = resolved.problems
    assert problem.params["matches"][0] == "灰流うらら"


def reference_distance(a: str, b: str) -> int:
    """The textbook dynamic programme."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        previous, row[0] = row[0], i
        for j, cb in enumerate(b, start=1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (ca != cb))
    return row[-1]


@given(st.text("abcうら灰流・", max_size=70), st.text("abcうら灰流・", max_size=70))
def test_the_fast_edit_distance_is_the_edit_distance(a: str, b: str) -> None:
    from taikai.cards.suggest import distance

    assert distance(a, b) == reference_distance(a, b)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_sheet_of_every_card_in_the_data_reads_back_card_for_card(index: MemoryCardIndex, lang: str) -> None:
    # No card name is taken for a heading, a remark or decoration, in either language (39/42 before).
    every = sorted(c.passcode for c in index.facts(index._cards).values() if c.alias == 0 and c.name(lang))
    for start in range(0, len(every), 150):
        deck = Deck(tuple(every[start : start + 150]))
        sheet = read_text_sheet(write_text_sheet(deck, index.facts(deck.main), lang), index)
        assert sheet.unknown == () and sheet.problems == (), [u.name for u in sheet.unknown]
        read = [index.get(p).name(lang) for p in sheet.deck.main]
        assert read == [index.get(p).name(lang) for p in deck.main]


def test_a_bare_passcode_alone_is_a_sheet_not_an_omega_code(index: MemoryCardIndex) -> None:
    sheet = read_deck("14558127\n", index)
    assert sheet.format == "text" and sheet.deck.main == (ASH,)
