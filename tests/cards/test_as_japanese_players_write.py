"""Issue 26: deck lists as Japanese players write them, and every file the simulators load.

Names with 「」『』, headings read before cards, the lines YGOPro/EDOPro skip in a .ydk, lflist entries
split as EDOPro splits them, matching as a Japanese player types, YGO Omega codes, 2020-era
YGOPRODeck JSON, notes that name their card; and a round trip of every sample deck through every
format taikai writes. The small files are in ``tests/cards/data`` (its README says where each shape
comes from); the card data is the real 2026 .cdb pair."""

from __future__ import annotations

import base64
import json
import re
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taikai.bench.cards import SHEET as BENCH_SHEET
from taikai.cards.check import resolve_deck_text
from taikai.cards.formats import (
    DeckFormatError,
    read_deck,
    read_omega,
    read_text_sheet,
    read_ydk,
    read_ydk_sheet,
    read_ydke,
    sort_ydk,
    write_omega,
    write_text_sheet,
    write_ydk,
    write_ydke,
)
from taikai.cards.index import MemoryCardIndex
from taikai.cards.lflist import find_list, list_date, read_lflist
from taikai.cards.sources import CardSourceError, read_ygoprodeck
from taikai.cards.texts import describe
from taikai.core.deck import MONSTER, SPELL, TOKEN, TRAP, XYZ, Deck
from taikai.decks import demo
from tests.cards.conftest import BLOG_SHEET, DATA, SAMPLE_YDK

HERE = Path(__file__).parent / "data"
ASH, MAXX, DARK_MAGICIAN, DECODE, POLYMERIZATION = 14558127, 23434538, 46986414, 1861629, 24094653


def names(index: MemoryCardIndex, passcodes: tuple[int, ...]) -> list[str]:
    return [index.get(p).name_ja for p in passcodes]  # type: ignore[union-attr]


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
        name = index.get(passcode).name_ja  # type: ignore[union-attr]
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


# --- 3. .ydk: the lines the simulators skip ------------------------------------------------------


def test_representative_and_dollar_lines_are_skipped_as_ygopro_and_edopro_skip_them() -> None:
    sheet = read_ydk_sheet((HERE / "representative.ydk").read_text("utf-8"))
    assert sheet.deck == Deck((ASH, ASH, DARK_MAGICIAN), (DECODE,), (MAXX,)) and sheet.notes == ()


def test_mdpro3s_metadata_number_before_main_is_not_a_card(index: MemoryCardIndex) -> None:
    text = (HERE / "mdpro3.ydk").read_text("utf-8")
    resolved = resolve_deck_text(text, index, "mdpro3.ydk")
    assert resolved.deck == Deck((ASH, DARK_MAGICIAN), (DECODE,), (MAXX,)) and resolved.problems == ()
    [note] = resolved.notes
    assert (note.code, note.params["line"], note.params["text"]) == ("ydk-line-skipped", 2, "301322")
    assert "301322" in describe(note, "ja")


def test_a_ydk_without_sections_still_reads_bare_passcodes_as_the_main_deck() -> None:
    assert read_ydk("14558127\n46986414\n") == Deck((ASH, DARK_MAGICIAN))


# --- 4. lflist entries split as EDOPro splits them ----------------------------------------------


def edopro_entry(line: str) -> tuple[int, int] | None:
    """EDOPro's ``LoadLFListSingle`` for one line inside a list (gframe/deck_manager.cpp), ported."""
    if not line or line[0] in "#!" or line.startswith("$whitelist"):
        return None
    p = line.find(" ")
    if p < 0:
        return None
    code = re.match(r"\s*\+?(\d+)", line[:p])
    rest = line[p + 1 :]
    stop = next((i for i, ch in enumerate(rest) if ch not in "-0123456789"), len(rest))
    count = re.fullmatch(r"\s*([+-]?\d+)", line[p : p + 1 + stop])
    if code is None or count is None or int(code.group(1)) == 0 or int(code.group(1)) > 0xFFFFFFFF:
        return None
    return int(code.group(1)), int(count.group(1))


def test_an_entry_with_a_one_dash_comment_is_an_entry() -> None:
    [parsed] = read_lflist("!2026.07 OCG\n63166095 0 -Sky Striker Mobilize – Engage!\n").lists
    assert parsed.entries == {63166095: 0} and parsed.comments[63166095] == "Sky Striker Mobilize – Engage!"


def test_a_negative_count_allows_no_copy_as_in_edopro() -> None:
    parsed = read_lflist("!Rush pre-release\n1 -1\n")
    assert parsed.lists[0].entries == {1: 0}
    assert [w.code for w in parsed.warnings] == ["lflist-negative-count"]


entry_lines = st.builds(
    lambda code, sep, count, tail: f"{code}{sep}{count}{tail}",
    st.sampled_from(["63166095", "0063166095", "14558127", "0", "abc", "1455x"]),
    st.sampled_from([" ", "  "]),
    st.sampled_from(["0", "1", "2", "3", "-1", "--", "x", ""]),
    st.sampled_from(["", " -Name", " --Name", "-Name", " # c", " – Engage!", "\tTab"]),
)


@given(entry_lines)
def test_what_edopro_reads_as_an_entry_taikai_reads_as_the_same_entry(line: str) -> None:
    theirs = edopro_entry(line)
    parsed = read_lflist(f"!L\n{line}\n").lists[0].entries
    if theirs is not None and 0 <= theirs[1] <= 3:
        assert parsed == {theirs[0]: theirs[1]}, line
    elif theirs is not None and theirs[1] < 0:
        assert parsed == {theirs[0]: 0}, line  # no copy allowed, as EDOPro


def edopro_lists(text: str) -> dict[str, dict[int, int]]:
    lists: dict[str, dict[int, int]] = {}
    current: dict[int, int] | None = None
    for line in text.splitlines():
        line = line.split("\r")[0]
        if line.startswith("!"):
            current = lists.setdefault(line[1:], {})
        elif current is not None and (entry := edopro_entry(line)) is not None:
            current[entry[0]] = entry[1]
    return lists


@pytest.mark.parametrize("name", ["ocg-2026.07", "ocg-2026.7-ja", "ignis-Speed", "ygopro-all"])
def test_every_real_list_has_the_entries_edopro_reads(name: str) -> None:
    text = (DATA / "banlists" / f"{name}.lflist.conf").read_text("utf-8")
    theirs = {n: {p: max(c, 0) for p, c in e.items() if c <= 3} for n, e in edopro_lists(text).items()}
    assert {p.name: p.entries for p in read_lflist(text).lists} == theirs


def test_full_width_list_names_are_found_by_their_half_width_name() -> None:
    lists = read_lflist("!２０１１．９．１\n14558127 1\n!2026.7\n14558127 2\n").lists
    found = find_list(lists, "2011.9.1")
    assert found is not None and found.entries == {ASH: 1}
    assert list_date("２０１１．９．１") == list_date("2011.9.1") is not None


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


# --- 6. YGO Omega deck codes ---------------------------------------------------------------------


def omega_code(main_and_extra: list[int], side: list[int]) -> str:
    """An Omega code built from the format EDOPro's ``ImportDeckBase64Omega`` reads, not by taikai."""
    raw = bytes([len(main_and_extra), len(side)]) + b"".join(struct.pack("<I", p) for p in main_and_extra + side)
    deflate = zlib.compressobj(6, zlib.DEFLATED, -15)
    return base64.b64encode(deflate.compress(raw) + deflate.flush()).decode()


def test_an_omega_code_is_read_and_its_extra_deck_sorted_out_as_edopro_does(index: MemoryCardIndex) -> None:
    code = omega_code([ASH, DECODE, DARK_MAGICIAN], [MAXX])
    assert read_omega(code) == Deck((ASH, DECODE, DARK_MAGICIAN), (), (MAXX,))
    resolved = resolve_deck_text(f"  {code}\n", index)
    assert resolved.format == "omega" and resolved.deck == Deck((ASH, DARK_MAGICIAN), (DECODE,), (MAXX,))
    assert resolved.notes == ()  # one list by design: nothing was "moved"


def test_an_omega_code_in_either_base64_alphabet_without_padding() -> None:
    code = omega_code([ASH] * 40, [MAXX] * 3)
    assert read_omega(code.rstrip("=").replace("+", "-").replace("/", "_")) == read_omega(code)


@pytest.mark.parametrize(
    "code",
    [
        "not a code",
        base64.b64encode(b"plain bytes, not deflate").decode(),
        omega_code([], []),  # counts and no card
        omega_code([ASH] * 76, []),  # more than EDOPro's 75
        base64.b64encode(zlib.compress(b"\x03\x00" + struct.pack("<I", ASH))[2:-4]).decode(),  # says 3, holds 1
    ],
)
def test_what_edopro_refuses_as_an_omega_code_is_refused(code: str) -> None:
    with pytest.raises(DeckFormatError):
        read_omega(code)


def test_a_text_sheet_of_one_word_is_not_taken_for_an_omega_code(index: MemoryCardIndex) -> None:
    assert read_deck("Polymerization", index).format == "text"


# --- 7. 2020-era YGOPRODeck JSON -----------------------------------------------------------------


def test_2020_ygoprodeck_types_get_their_monster_spell_trap_bits() -> None:
    cards, _ = read_ygoprodeck(json.loads((HERE / "ygoprodeck-2020.json").read_text("utf-8")))
    by_name = {c.name_en: c.type for c in cards}
    assert all(t & (MONSTER | SPELL | TRAP) for t in by_name.values()), by_name
    assert by_name["Pot of Greed"] == SPELL and by_name["Mirror Force"] == TRAP
    assert by_name["Number 39: Utopia"] & (MONSTER | XYZ) == MONSTER | XYZ
    assert by_name["Morphing Jar"] & 0x200000 and by_name["Sheep Token"] & TOKEN


@pytest.mark.parametrize("document", [[], [{"deck": "main"}, {"name": "Ash"}], {"data": []}])
def test_a_json_array_with_no_card_rows_says_so(document: object) -> None:
    with pytest.raises(CardSourceError, match="none of its"):
        read_ygoprodeck(document)


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
        sorted(index.resolve(index.get(p).name_ja).passcode for p in deck.section(s))  # type: ignore[union-attr]
        for s in ("main", "extra", "side")
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
    from tests.cards.conftest import CDB_EN, CDB_JA, slice_cdb

    wanted = [ASH, MAXX, DARK_MAGICIAN, DECODE, POLYMERIZATION]
    services.import_card_files(
        [slice_cdb(CDB_EN, tmp_path / "en.cdb", wanted), slice_cdb(CDB_JA, tmp_path / "ja.cdb", wanted)]
    )
    db = DbCardIndex()
    assert [c.passcode for c in db.find("ｳﾗﾗ")] == [ASH] and db.find("ウララ")[
        0
    ].name_en == "Ash Blossom & Joyous Spring"
    assert db.resolve("灰流ウララ").passcode == ASH  # type: ignore[union-attr]
    assert db.resolve("23434538").passcode == MAXX  # type: ignore[union-attr]
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
        read = [index.get(p).name(lang) for p in sheet.deck.main]  # type: ignore[union-attr]
        assert read == [index.get(p).name(lang) for p in deck.main]  # type: ignore[union-attr]


def test_a_bare_passcode_alone_is_a_sheet_not_an_omega_code(index: MemoryCardIndex) -> None:
    sheet = read_deck("14558127\n", index)
    assert sheet.format == "text" and sheet.deck.main == (ASH,)
