"""wrk's report is read line by line (issue 16: `make bench` crashed on a "+/- Stdev" of 50%)."""

from __future__ import annotations

from pathlib import Path

import pytest

from taikai.bench._load import parse_wrk

RECORDED = Path(__file__).parent / "wrk"


def test_a_stdev_column_ending_in_50_percent_is_not_the_median() -> None:
    result = parse_wrk((RECORDED / "stdev-50.txt").read_text())
    assert (result.requests, result.errors) == (3187, 0)
    assert result.seconds == pytest.approx(5.01)
    assert result.p50_ms == pytest.approx(301.12)
    assert result.p99_ms == pytest.approx(620.05)


def test_errors_seconds_and_a_run_in_minutes() -> None:
    result = parse_wrk((RECORDED / "errors-minutes.txt").read_text())
    assert result.requests == 2400
    assert result.seconds == pytest.approx(60.0)
    assert result.errors == 5 + 3 + 1 + 12
    assert (result.p50_ms, result.p99_ms) == pytest.approx((1100.0, 1990.0))


def test_output_without_a_distribution_is_a_clear_error() -> None:
    with pytest.raises(RuntimeError, match="cannot read wrk's output"):
        parse_wrk("unable to connect to 127.0.0.1:8000 Connection refused\n")


ZERO = """Running 1s test @ http://127.0.0.1:41247/e/1/standings/
  2 threads and 4 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     0.00us    0.00us   0.00us    -nan%
    Req/Sec     0.00      0.00     0.00      -nan%
  Latency Distribution
     50%    0.00us
     75%    0.00us
     90%    0.00us
     99%    0.00us
  0 requests in 1.00s, 0.00B read
Requests/sec:      0.00
Transfer/sec:       0.00B
"""


def test_a_run_where_nothing_was_answered_is_zero_requests_not_a_crash() -> None:
    # recorded on a 4,096-player standings page whose first render took longer than the 1 s warm-up
    result = parse_wrk(ZERO)
    assert (result.requests, result.rate) == (0, 0.0)
