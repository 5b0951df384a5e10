"""lflist.conf: several !name lists, leading zeros, --comment tails, $whitelist."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taikai.cards.lflist import LflistError, ParsedList, find_list, parse_lflist, read_lflist, write_lflist
from tests.factories import LFLIST_ALL, LFLIST_JA, LFLIST_OCG, LFLIST_SPEED


def test_the_july_2026_ocg_list_as_published_for_edopro() -> None:
    [parsed] = parse_lflist(LFLIST_OCG.read_text("utf-8"))
    assert parsed.name == "2026.07 OCG"
    limits = list(parsed.entries.values())
    assert (limits.count(0), limits.count(1), limits.count(2)) == (95, 92, 13)  # 92 + 3 simulator-only lines
    assert parsed.entries[14558127] == 2
    assert parsed.comments[14558127] == "Ash Blossom & Joyous Spring"


def test_leading_zeros_and_japanese_comments() -> None:
    [parsed] = parse_lflist(LFLIST_JA.read_text("utf-8"))
    assert parsed.entries[8903700] == 0  # written 08903700
    assert parsed.comments[8903700] == "儀式魔人リリーサー"


def test_a_file_of_102_lists() -> None:
    lists = parse_lflist(LFLIST_ALL.read_text("utf-8"))
    assert len(lists) == 102
    assert find_list(lists, "2026.7") is lists[0]
    assert find_list(lists, "2026.5 tcg") is not None
    assert find_list(lists, "1999.1") is None


def test_whitelist_and_directives() -> None:
    text = "#[Custom]\n!Custom\n$whitelist\n$other directive\n00046986414 3 --Dark Magician\n89631139 1\n"
    [parsed] = parse_lflist(text)
    assert parsed.whitelist
    assert parsed.entries == {46986414: 3, 89631139: 1}
    assert parsed.banlist().whitelist


@pytest.mark.parametrize(
    ("text", "line"),
    [("46986414 0\n!A\n1 0\n", 1), ("!A\n46986414 9\n", 2), ("!A\nforty 1\n", 2)],
)
def test_a_line_that_cannot_be_read_is_skipped_with_a_warning_naming_it(text: str, line: int) -> None:
    # As EDOPro: the rest of the file is read.
    parsed = read_lflist(text)
    assert [p.name for p in parsed.lists] == ["A"]
    assert [(w.code, w.params["line"]) for w in parsed.warnings] == [("lflist-line-skipped", line)]


def test_entries_under_a_nameless_header_belong_to_no_list() -> None:
    parsed = read_lflist("!\n1 0\n!B\n2 1\n")
    assert [(p.name, p.entries) for p in parsed.lists] == [("B", {2: 1})]
    assert [w.params["line"] for w in parsed.warnings] == [1, 2]


@pytest.mark.parametrize("text", ["", "# only a comment\n", "46986414 0\n", "hello world\n"])
def test_a_file_with_no_list_is_refused(text: str) -> None:
    with pytest.raises(LflistError):
        read_lflist(text)


def test_the_real_speed_duel_list_reads_as_edopro_reads_it() -> None:
    parsed = read_lflist(LFLIST_SPEED.read_text("utf-8"))
    [speed] = parsed.lists
    assert speed.name == "2025.07 Speed Duel" and speed.whitelist
    assert len(speed.entries) > 1000
    assert parsed.warnings == []  # "--SS05 Bakura" is a comment line, as the format says


def test_a_genesys_points_list_is_left_out_in_one_warning() -> None:
    text = "!Genesys\n$genesys\n14558127 10 --Ash\n!2026.7\n14558127 2\n"
    parsed = read_lflist(text)
    assert [p.name for p in parsed.lists] == ["2026.7"]
    assert [(w.code, w.params["name"]) for w in parsed.warnings] == [("lflist-points-list", "Genesys")]


def test_write_then_read_is_the_same() -> None:
    lists = parse_lflist(LFLIST_OCG.read_text("utf-8"))
    again = parse_lflist(write_lflist(lists))
    assert [(p.name, p.entries, p.whitelist) for p in again] == [(p.name, p.entries, p.whitelist) for p in lists]


@given(st.text(alphabet=st.sampled_from("!#$-0123456789 \n\tabcx×ー灰流")))
def test_fuzz_only_lflist_errors(text: str) -> None:
    try:
        lists = parse_lflist(text)
    except LflistError:
        return
    assert all(isinstance(p, ParsedList) for p in lists)


@given(st.text())
def test_fuzz_any_text(text: str) -> None:
    with contextlib.suppress(LflistError):
        parse_lflist(text)
