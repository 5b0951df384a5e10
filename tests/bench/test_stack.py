"""The stack bench's measuring sticks (issue 27): the same report bytes sent to the no-op and bare endpoints,
and the sampler's profile read from the workers' files."""

from __future__ import annotations

import json
from pathlib import Path

from taikai.bench._reports import Report
from taikai.bench._sampler import read_profiles
from taikai.bench.stack import _requests


def test_the_sticks_get_a_reports_own_bytes_on_another_path() -> None:
    job = Report("7", "tok", "7-a")
    report, noop, bare = (_requests("h:1", 3, [job], kind)[0] for kind in ("reports", "no-op", "bare"))
    assert report.startswith(b"POST /api/v1/events/3/matches/7/result HTTP/1.1\r\n")
    assert noop.startswith(b"POST /api/v1/events/3/matches/7/noop HTTP/1.1\r\n")
    assert bare.startswith(b"POST /bench/bare HTTP/1.1\r\n")
    rest = report.split(b"\r\n", 1)[1]
    assert noop.split(b"\r\n", 1)[1] == rest == bare.split(b"\r\n", 1)[1]  # same token, same body
    assert b"X-Player-Token: tok" in rest


def test_the_profile_adds_the_workers_and_leaves_out_the_bottom_of_every_stack(tmp_path: Path) -> None:
    root = "multiprocessing.spawn.spawn_main"
    for pid, (busy, view) in enumerate([(10, 6), (30, 9)]):
        counts = {root: busy, "taikai.api.writes.report": view, "django.db.query": 2}
        inner = {"django.db.query": 2, "taikai.api.writes.report": view - 2}
        (tmp_path / f"profile-{pid}.json").write_text(json.dumps({"busy": busy, "counts": counts, "inner": inner}))
    profile = read_profiles(tmp_path)
    assert profile.on_stack == [("taikai.api.writes.report", 15 / 40), ("django.db.query", 4 / 40)]
    assert profile.innermost == [("taikai.api.writes.report", 11 / 40), ("django.db.query", 4 / 40)]
    assert read_profiles(tmp_path / "none").on_stack == []
