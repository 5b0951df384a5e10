"""`taikai standings FILE|stdin [--ruleset NAME]`: the JSON contract."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from taikai.cli import main

EVENT = {
    "players": [{"id": "p1", "dropped_after": None}, {"id": "p2", "dropped_after": 1}, {"id": "p3"}, {"id": "p4"}],
    "rounds": [
        [{"a": "p1", "b": "p2", "result": "a"}, {"a": "p3", "b": "p4", "result": "draw"}],
        [{"a": "p1", "b": "p3", "result": "a"}, {"a": "p4", "bye": True}],
    ],
}


def test_standings_from_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(EVENT), "utf-8")
    assert main(["standings", str(path), "--ruleset", "dkt-2011"]) == 0
    rows = json.loads(capsys.readouterr().out)["standings"]
    assert list(rows[0]) == ["rank", "id", "points", "wins", "losses", "draws", "omw", "oomw", "code"]
    first = rows[0]
    assert (first["rank"], first["id"], first["points"], first["wins"], first["losses"]) == (1, "p1", 6, 2, 0)
    # p2: 0 of 1 match; p3: 1 point of 2 matches -> (0 + 1/6) / 2
    assert first["omw"] == "0.083333"
    assert first["code"].startswith("06083")
    p4 = next(r for r in rows if r["id"] == "p4")
    assert (p4["points"], p4["wins"], p4["draws"]) == (4, 1, 1)


def test_standings_from_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(EVENT)))
    assert main(["standings"]) == 0
    rows = json.loads(capsys.readouterr().out)["standings"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]


def test_percentages_are_decimal_strings_with_six_places() -> None:
    from fractions import Fraction

    from taikai.cli.standings import decimal

    assert decimal(Fraction(2, 3)) == "0.666667"
    assert decimal(Fraction(1, 2)) == "0.5"
    assert decimal(Fraction(1)) == "1.0"


def test_bad_input_is_an_error(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('{"players": [{"id": "a"}], "rounds": [[{"a": "a", "b": "z"}]]}'))
    assert main(["standings", "-"]) == 2
