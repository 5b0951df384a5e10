"""`taikai pair`: the JSON-lines contract, in process and as a real subprocess."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest

from taikai.cli import main


def _run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lines: list[object]
) -> list[dict[str, Any]]:
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["pair"]) == 0
    return [json.loads(x) for x in capsys.readouterr().out.splitlines()]


REQUEST = {
    "round": 3,
    "seed": 42,
    "players": [
        {"id": 1, "points": 6, "opponents": [2], "had_bye": False, "dropped": False, "rank": 1},
        {"id": 2, "points": 6, "opponents": [1], "had_bye": False, "dropped": False},
        {"id": 3, "points": 3, "opponents": [], "had_bye": True, "dropped": False},
        {"id": 4, "points": 3, "opponents": [], "had_bye": False, "dropped": False},
        {"id": "x", "points": 0, "opponents": [], "had_bye": False, "dropped": True},
    ],
    "forbidden": [[1, 3]],
    "unknown_key": {"ignored": True},
}


def test_one_answer_per_request_in_table_order(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (answer,) = _run(monkeypatch, capsys, [REQUEST, {"type": "end"}, REQUEST])
    assert answer["byes"] == []
    assert answer["pairings"] == [[1, 4], [2, 3]]
    assert answer["elapsed_ms"] >= 0


def test_a_bad_request_gets_an_error_line_and_the_process_goes_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {"round": 2, "players": [{"id": 1, "points": 0, "opponents": [99]}]}
    answers = _run(monkeypatch, capsys, [bad, "not json", {"players": "nope"}, REQUEST])
    assert [("error" in a) for a in answers] == [True, True, True, False]
    assert "99" in answers[0]["error"]


def test_odd_count_gets_exactly_one_bye(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    req = {"round": 1, "seed": 1, "players": [{"id": f"p{k}", "points": 0} for k in range(5)]}
    (answer,) = _run(monkeypatch, capsys, [req])
    assert len(answer["byes"]) == 1 and len(answer["pairings"]) == 2


def test_real_subprocess_speaks_the_bench_protocol() -> None:
    req = dict(REQUEST, type="pair", protocol=1, total_rounds=4, event={"size": 5, "seed": 1})
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from taikai.cli import main; sys.exit(main())", "pair"],
        input=json.dumps(req) + "\n" + json.dumps({"type": "end"}) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    lines = proc.stdout.splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0])["pairings"] == [[1, 4], [2, 3]]


@pytest.mark.parametrize(
    "player, named",
    [
        ({"id": 1.5, "points": 0}, "players[0]: id"),
        ({"id": True, "points": 0}, "players[0]: id"),
        ({"id": 1, "points": 0, "opponents": [2, True]}, "players[0].opponents: id"),
        ({"id": 1, "points": 0, "opponents": [None]}, "players[0].opponents: id"),
        ({"id": 1, "points": True}, "players[0]: points"),
    ],
)
def test_a_bad_id_or_points_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], player: dict[str, object], named: str
) -> None:
    (answer,) = _run(monkeypatch, capsys, [{"round": 1, "players": [player, {"id": 2, "points": 0}]}])
    assert answer["error"].startswith(named)
