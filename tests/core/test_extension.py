"""TIME-4 (CS 3.1): time added to a table after a judge's ruling of the ruleset's threshold (一分以上) or more,
at most the ruling's length unless the head judge adds it."""

from __future__ import annotations

from dataclasses import replace

from taikai.core.extension import Grant, extension_problem, threshold_seconds
from taikai.core.ruleset import builtin

TIME = builtin("harajuku-cs-1.2").time


def test_time_4_the_threshold_is_the_rulesets_one_minute() -> None:  # TIME-4
    assert TIME.extension_threshold_minutes == 1 and threshold_seconds(TIME) == 60
    assert threshold_seconds(replace(TIME, extension_threshold_minutes=3)) == 180


def test_time_4_a_ruling_under_the_threshold_adds_no_time() -> None:  # TIME-4
    problem = extension_problem(TIME, Grant(seconds=60, ruling_seconds=59))
    assert problem is not None and problem.code == "extension-ruling-short"
    assert problem.params == {"minutes": 1, "seconds": 59}


def test_time_4_one_minute_or_more_qualifies() -> None:  # TIME-4: 以上, the threshold itself counts
    assert extension_problem(TIME, Grant(seconds=60, ruling_seconds=60)) is None
    assert extension_problem(TIME, Grant(seconds=45, ruling_seconds=300)) is None


def test_time_4_a_judge_adds_at_most_the_rulings_length_over_every_extension() -> None:  # TIME-4
    assert extension_problem(TIME, Grant(seconds=600, ruling_seconds=300)).code == "extension-over-ruling"
    again = extension_problem(TIME, Grant(seconds=60, ruling_seconds=120, already_given=120))
    assert again is not None and again.params["left"] == 0
    assert extension_problem(TIME, Grant(seconds=60, ruling_seconds=180, already_given=120)) is None


def test_time_4_the_head_judge_may_add_more_than_the_ruling_took_but_not_without_one() -> None:  # TIME-4
    assert extension_problem(TIME, Grant(seconds=600, ruling_seconds=300, beyond_ruling=True)) is None
    short = extension_problem(TIME, Grant(seconds=600, ruling_seconds=30, beyond_ruling=True))
    assert short is not None and short.code == "extension-ruling-short"


def test_time_4_a_threshold_of_zero_means_the_ruleset_adds_no_time() -> None:  # TIME-4 is CS 3.1 only
    off = replace(TIME, extension_threshold_minutes=0)
    problem = extension_problem(off, Grant(seconds=60, ruling_seconds=600, beyond_ruling=True))
    assert problem is not None and problem.code == "extension-not-in-ruleset"


def test_time_4_nothing_or_negative_time_is_not_an_extension() -> None:  # TIME-4
    for seconds in (0, -60):
        problem = extension_problem(TIME, Grant(seconds=seconds, ruling_seconds=120))
        assert problem is not None and problem.code == "bad-choice"


def test_time_4_one_extension_is_at_most_the_rulesets_cap_even_from_the_head_judge() -> None:  # TIME-4
    hour = TIME.extension_max_minutes * 60
    assert TIME.extension_max_minutes == 60
    assert extension_problem(TIME, Grant(seconds=hour, ruling_seconds=hour)) is None
    over = extension_problem(TIME, Grant(seconds=hour + 1, ruling_seconds=2 * hour, beyond_ruling=True))
    assert over is not None and over.code == "bad-choice" and over.params == {"field": "seconds", "value": hour + 1}
    tighter = replace(TIME, extension_max_minutes=10)
    assert extension_problem(tighter, Grant(seconds=11 * 60, ruling_seconds=20 * 60)) is not None
    assert extension_problem(tighter, Grant(seconds=10 * 60, ruling_seconds=20 * 60)) is None
