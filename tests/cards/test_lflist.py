"""lflist.conf: several !name lists, leading zeros, --comment tails, $whitelist."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taikai.cards.lflist import LflistError, ParsedList, find_list, parse_lflist, write_lflist
from tests.cards.conftest import LFLIST_ALL, LFLIST_JA, LFLIST_OCG


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
    "text",
    ["46986414 0\n", "!A\n46986414 9\n", "!A\nforty 1\n", "!\n1 0\n", "!A\n46986414\n"],
)
def test_malformed_lines_name_their_line(text: str) -> None:
    with pytest.raises(LflistError) as caught:
        parse_lflist(text)
    assert caught.value.line >= 1


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
