"""`taikai deck check`: the contract of issue 4 (exit 0/1/2, the JSON shape), on the real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from taikai.cards import services
from taikai.cli import main
from tests.cards.test_formats import SHEET_EN, SHEET_JA
from tests.factories import CDB_EN, CDB_JA, LFLIST_ALL, LFLIST_OCG, SAMPLE_YDK, SAMPLE_YDKE

TAIKAI = Path(sys.executable).parent / "taikai"
FILES = ["--cards", str(CDB_EN), "--cards", str(CDB_JA), "--banlist", str(LFLIST_OCG)]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["deck", "check", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_sample_deck_is_legal_under_the_july_2026_list(capsys: pytest.CaptureFixture[str]) -> None:  # DECK-4
    code, out, err = run(capsys, str(SAMPLE_YDK), *FILES, "--ruleset", "modern", "--json")
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "legal": True,
        "counts": {"main": 40, "extra": 10, "side": 3},
        "problems": [],
        "notes": [],
    }


def test_under_dkt_2011_the_two_link_monsters_are_refused(capsys: pytest.CaptureFixture[str]) -> None:  # DECK-2
    code, out, _ = run(capsys, str(SAMPLE_YDKE), *FILES, "--ruleset", "dkt-2011", "--json")
    assert code == 1
    assert json.loads(out)["problems"] == [
        {"code": "not-extra-deck-card", "card": 1861629, "name": "Decode Talker", "section": "extra", "count": 1},
        {"code": "not-extra-deck-card", "card": 86066372, "name": "Accesscode Talker", "section": "extra", "count": 1},
    ]


def test_the_issue_example_a_third_ash_blossom_in_the_side(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:  # DECK-4
    lines = SAMPLE_YDK.read_text("utf-8").splitlines()
    deck = tmp_path / "deck.ydk"
    deck.write_text("\n".join([*lines, "14558127"]) + "\n")
    code, out, _ = run(capsys, str(deck), *FILES, "--json")
    assert code == 1
    assert json.loads(out) == {
        "legal": False,
        "counts": {"main": 40, "extra": 10, "side": 4},
        "problems": [
            {
                "code": "semi-limited",
                "card": 14558127,
                "name": "Ash Blossom & Joyous Spring",
                "section": "side",
                "count": 3,
                "limit": 2,
            }
        ],
        "notes": [],
    }


@pytest.mark.parametrize("sheet", [SHEET_JA, SHEET_EN], ids=["ja", "en"])
def test_text_sheets_are_checked_like_the_ydk(capsys: pytest.CaptureFixture[str], tmp_path: Path, sheet: str) -> None:
    path = tmp_path / "sheet.txt"
    path.write_text(sheet, "utf-8")
    code, out, _ = run(capsys, str(path), *FILES, "--json")
    assert code == 0, out


def test_a_shift_jis_sheet_is_read(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "sheet.txt"
    path.write_bytes(SHEET_JA.replace("號", "").encode("cp932", errors="ignore"))
    code, out, _ = run(capsys, str(path), *FILES, "--json")
    problems = json.loads(out)["problems"]
    # The one name Shift_JIS cannot carry (天霆號アーゼウス) is reported with its line and closest names.
    assert code == 1
    assert problems[0]["code"] == "unknown-card" and problems[0]["line"] == 33
    assert problems[0]["matches"][0] == "天霆號アーゼウス"


def test_readable_report_in_japanese(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "sheet.txt"
    path.write_text(SHEET_JA.replace("灰流うらら ×2", "灰流うらら ×3").replace("無限泡影\n", ""), "utf-8")
    code, out, _ = run(capsys, str(path), *FILES, "--lang", "ja")
    assert code == 1
    assert "使用できないデッキです" in out
    assert "「灰流うらら」は準制限カードです: 3 枚（2 枚まで）" in out


def test_readable_report_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(SAMPLE_YDK), *FILES, "--ruleset", "dkt-2011", "--lang", "en")
    assert code == 1
    assert "Decode Talker cannot be in the extra deck under this ruleset" in out


def test_a_list_chosen_from_a_file_of_many(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--cards", str(CDB_EN), "--banlist", str(LFLIST_ALL)]
    code, out, err = run(capsys, str(SAMPLE_YDK), *args, "--list", "2026.7", "--json")
    assert (code, err) == (0, "")
    # With 102 lists and none named by the ruleset, the command asks which one.
    code, _, err = run(capsys, str(SAMPLE_YDK), *args)
    assert code == 2 and err.count("\n") == 1 and "--list" in err


@pytest.mark.parametrize(
    ("content", "extra"),
    [
        (None, []),  # missing file
        (b"\xff\xfe\x00\x81\x00garbage\x00", []),  # neither UTF-8 nor Shift_JIS
        (b"#main\n46986414\nnot a passcode\n", []),  # a .ydk with a bad line
        (b"ydke://%%%!!!", []),
        (b"#main\n46986414\n", ["--date", "tomorrow"]),
        (b"#main\n46986414\n", ["--ruleset", "no-such-ruleset"]),
    ],
)
def test_unreadable_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes | None, extra: list[str]
) -> None:
    path = tmp_path / "deck.ydk"
    if content is not None:
        path.write_bytes(content)
    code, out, err = run(capsys, str(path), *FILES, *extra)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("taikai deck check: ")


def test_a_bad_lflist_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.conf"
    bad.write_text("forty 1\n")
    code, _, err = run(capsys, str(SAMPLE_YDK), "--cards", str(CDB_EN), "--banlist", str(bad))
    assert code == 2 and "bad.conf" in err


def test_cards_and_banlist_files_need_no_database(tmp_path: Path) -> None:
    env = {**os.environ, "TAIKAI_DATABASE_URL": "postgresql://nobody@127.0.0.1:1/unreachable", "LANG": "C"}
    env["TAIKAI_VAR_DIR"] = str(tmp_path)
    result = subprocess.run(
        [str(TAIKAI), "deck", "check", str(SAMPLE_YDK), *FILES, "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert json.loads(result.stdout)["legal"] is True


@pytest.mark.django_db
def test_without_files_the_imported_database_and_a_stored_list_are_used(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, str(SAMPLE_YDK))
    assert code == 2 and "taikai cards import" in err  # nothing imported yet
    services.import_card_files([CDB_EN, CDB_JA])
    services.import_lflist_file(LFLIST_OCG)
    code, out, _ = run(capsys, str(SAMPLE_YDK), "--list", "2026.07 OCG", "--json")
    assert code == 0, out
    code, _, err = run(capsys, str(SAMPLE_YDK), "--list", "no such list")
    assert code == 2 and "no such list" in err


def test_a_folder_of_decks_is_checked_in_one_process_as_a_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "a.ydk").write_text(SAMPLE_YDK.read_text("utf-8"))
    (folder / "b.ydke.txt").write_text(SAMPLE_YDKE.read_text("utf-8"))
    (folder / "c.txt").write_text(SHEET_JA, "utf-8")
    (folder / "d.ydk").write_text(SAMPLE_YDK.read_text("utf-8") + "14558127\n")  # a third Ash Blossom
    (folder / "e.ydk").write_text("#main\nnot a passcode\n")
    (folder / "notes.md").write_text("not a deck")  # other files are left alone
    code, out, _ = run(capsys, str(folder), *FILES, "--lang", "en")
    lines = out.splitlines()
    assert code == 2  # one file could not be read
    assert [line.split()[0] for line in lines[:5]] == ["a.ydk", "b.ydke.txt", "c.txt", "d.ydk", "e.ydk"]
    assert "40/10/3" in lines[0] and "legal deck" in lines[0]
    assert "illegal deck (1 problems)" in lines[3] and "Semi-Limited" in lines[3]
    assert "unreadable" in lines[4] and "line 2" in lines[4]
    assert lines[5].startswith("5 files: 3 legal, 1 illegal, 1 unreadable")
    code, out, _ = run(capsys, str(folder), *FILES, "--json")
    got = json.loads(out)
    assert (got["n"], got["legal"], got["illegal"], got["unreadable"]) == (5, 3, 1, 1)


def test_a_ydk_with_extra_deck_monsters_in_main_says_they_were_moved(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:  # DECK-2
    lines = SAMPLE_YDK.read_text("utf-8").replace("#extra\n", "").splitlines()
    path = tmp_path / "ygopro.ydk"
    path.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, str(path), *FILES, "--lang", "en")
    assert code == 0
    assert out.count("an extra-deck monster, moved from the main deck to the extra deck") == 10


def test_a_fresh_data_directory_is_migrated_by_the_first_command(tmp_path: Path) -> None:
    env = {**os.environ, "TAIKAI_VAR_DIR": str(tmp_path / "var"), "LANG": "C"}
    env.pop("TAIKAI_DATABASE_URL", None)
    env["TAIKAI_DATABASE_URL"] = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    for args in (["banlist", "import", str(LFLIST_OCG)], ["deck", "check", str(SAMPLE_YDK)]):
        result = subprocess.run([str(TAIKAI), *args], capture_output=True, text=True, env=env, timeout=120, check=False)
        assert "Traceback" not in result.stderr and "no such table" not in result.stderr
        if args[0] == "banlist":
            assert result.returncode == 0 and "preparing the database" in result.stderr
        else:  # migrated already: one line says what to run
            assert result.returncode == 2 and result.stderr.count("\n") == 1 and "taikai cards" in result.stderr
