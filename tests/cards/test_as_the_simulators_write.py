"""Issue 26: every file the simulators load, read as they read it.

The lines YGOPro/EDOPro skip in a .ydk, lflist entries split as EDOPro splits them, YGO Omega codes and
2020-era YGOPRODeck JSON. The small files are in ``tests/cards/data`` (its README says where each shape comes
from); Japanese players' own lists are in test_as_japanese_players_write.py."""

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

from taikai.cards.check import resolve_deck_text
from taikai.cards.deck_formats import read_deck
from taikai.cards.formats import DeckFormatError, read_omega, read_ydk, read_ydk_sheet
from taikai.cards.index import MemoryCardIndex
from taikai.cards.lflist import find_list, list_date, read_lflist
from taikai.cards.sources import CardSourceError, read_ygoprodeck
from taikai.cards.texts import describe
from taikai.core.deck import MONSTER, SPELL, TOKEN, TRAP, XYZ, Deck
from tests.factories import DATA

HERE = Path(__file__).parent / "data"
ASH, MAXX, DARK_MAGICIAN, DECODE = 14558127, 23434538, 46986414, 1861629


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
