"""The attack table's bookkeeping (issue 16): which reports a row sends, and which answered ones were lost."""

from __future__ import annotations

from collections import Counter
from typing import Any

from taikai.bench._openloop import Sample, Step
from taikai.bench._reports import Report
from taikai.bench.attack import _lost, _sent


class _Stored:
    def __init__(self, rows: set[tuple[int, str]]) -> None:
        self.rows = rows

    def query(self, sql: str) -> list[tuple[Any, ...]]:
        assert "events_resultreport" in sql
        return sorted(self.rows)


def _jobs(matches: int) -> list[Report]:
    return [Report(str(m), f"t{m}{side}", f"{m}-{side}") for m in range(1, matches + 1) for side in "ab"]


def test_a_row_sends_both_reports_of_each_match_it_takes() -> None:
    sent = _sent(_jobs(10), 7, seed=1)
    assert len(sent) == 6
    assert Counter(job.match_id for job in sent) == Counter({"1": 2, "2": 2, "3": 2})
    assert sent != _jobs(3)  # shuffled: a confirmation may come before or far after the first report
    assert sent == _sent(_jobs(10), 7, seed=1)


def test_a_report_answered_200_that_is_not_stored_is_lost() -> None:
    jobs = _jobs(2)
    step = Step(10.0, tuple(Sample(i / 10, i / 10, i / 10 + 0.01, s) for i, s in enumerate([200, 200, 0, 200])))
    stored = _Stored({(1, "1-a"), (1, "1-b")})  # 2-b was answered 200 but is missing; 2-a got no answer
    assert _lost(stored, jobs, step) == 1
    assert _lost(_Stored({(1, "1-a"), (1, "1-b"), (2, "2-b")}), jobs, step) == 0
