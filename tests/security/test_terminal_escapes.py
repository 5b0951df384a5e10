"""Issue 25 item 11: `taikai deck check DIR` printed file names raw, so a file named with an escape sequence
retitled the terminal or hid the verdict. Every output of the command goes through one escaping stream."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taikai.cli import main
from taikai.core.terminal import shown
from tests.cli.test_deck_cli import FILES
from tests.factories import SAMPLE_YDK

HOSTILE = ["\x1b]0;pwned\x07a.ydk", "\x1b[2J\x1b[Hb.ydk", "c\x9b31m.ydk", "d\u202egnp.ydk", "e\rlegal.ydk"]
RAW = ("\x1b", "\x07", "\x9b", "\u202e", "\r")


def test_control_characters_are_written_as_their_codes_and_text_is_kept() -> None:
    assert shown("\x1b[31mred\x07") == "\\u001b[31mred\\u0007"
    assert shown("名前\tdeck\n") == "名前\tdeck\n"
    assert shown("\x9b\u202e\x7f") == "\\u009b\\u202e\\u007f"


@pytest.mark.parametrize("as_json", [False, True])
def test_deck_check_of_a_folder_never_sends_a_file_names_escape_sequence_to_the_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, as_json: bool
) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    for i, name in enumerate(HOSTILE):
        (folder / name).write_text(SAMPLE_YDK.read_text("utf-8") if i % 2 else "#main\nnot a passcode\n")
    main(["deck", "check", str(folder), *FILES, "--lang", "en", *(["--json"] if as_json else [])])
    out, err = capsys.readouterr()
    for raw in RAW:
        assert raw not in out and raw not in err
    assert "\\u001b]0;pwned\\u0007a.ydk" in out
    if as_json:  # still a valid document, with the real names in it
        assert {row["file"] for row in json.loads(out)["decks"]} == set(HOSTILE)


def test_a_single_hostile_file_name_and_its_error_are_escaped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deck = tmp_path / "\x1b[8mhidden.ydk"
    deck.write_text("#main\nnot a passcode\n")
    main(["deck", "check", str(deck), *FILES, "--lang", "en"])
    main(["deck", "check", str(tmp_path / "\x1b[8mmissing.ydk"), *FILES, "--lang", "en"])
    out, err = capsys.readouterr()
    assert "\x1b" not in out + err and "\\u001b[8mhidden.ydk" in out + err
