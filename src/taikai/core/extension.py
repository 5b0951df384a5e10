"""Time added to one table after a judge's ruling (TIME-4, CS 3.1), as data: whether it may be added, and how
much. CS 3.1: 「ジャッジの判断に一分以上の時間がかかった場合、ジャッジの判断で、対戦時間を追加することができる」.

Every extension names the length of the ruling it makes up for (measured from the judge call, or as the judge
states it); below the ruleset's ``extension_threshold_minutes`` nothing is added. The text does not say how
much: taikai's reading is that the time makes up for the ruling, so a judge adds at most what the ruling took
(over all extensions for the same ruling); the head judge may add more, logged as such."""

from __future__ import annotations

from dataclasses import dataclass

from taikai.core.problems import Problem
from taikai.core.ruleset import TimeRules


@dataclass(frozen=True)
class Grant:
    seconds: int  # the time to add to the table
    ruling_seconds: int  # how long the ruling it makes up for took
    already_given: int = 0  # time added before for the same ruling
    beyond_ruling: bool = False  # the head judge: may add more than the ruling took


def threshold_seconds(time: TimeRules) -> int:
    """0: the ruleset adds no time after a ruling (TIME-4 is CS 3.1; the official rules alone have none)."""
    return max(0, time.extension_threshold_minutes) * 60


def extension_problem(time: TimeRules, grant: Grant) -> Problem | None:
    """None: the time may be added. Otherwise why not, as a code and parameters (TIME-4)."""
    threshold = threshold_seconds(time)
    if threshold == 0:
        return Problem("extension-not-in-ruleset")
    if not 0 < grant.seconds <= time.extension_max_minutes * 60:
        return Problem("bad-choice", field="seconds", value=grant.seconds)
    # 一分以上 ("one minute or more"): the threshold itself qualifies.
    if grant.ruling_seconds < threshold:
        return Problem(
            "extension-ruling-short", minutes=time.extension_threshold_minutes, seconds=max(0, grant.ruling_seconds)
        )
    if not grant.beyond_ruling and grant.already_given + grant.seconds > grant.ruling_seconds:
        return Problem(
            "extension-over-ruling",
            seconds=grant.seconds,
            ruling_seconds=grant.ruling_seconds,
            given=grant.already_given,
            left=max(0, grant.ruling_seconds - grant.already_given),
        )
    return None
