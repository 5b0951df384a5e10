"""Core's domain errors share one base: a code and parameters, never a sentence (STYLE 6)."""

import pytest

from taikai.core.match import MatchRecordError
from taikai.core.match_json import RecordFormatError
from taikai.core.pairing.types import PairingError
from taikai.core.problems import Problem, ProblemError
from taikai.core.sheet import SheetError
from taikai.core.time_procedure import TimeProcedureError


@pytest.mark.parametrize("kind", [MatchRecordError, RecordFormatError, PairingError, SheetError, TimeProcedureError])
def test_each_core_error_carries_its_problem_and_is_caught_as_a_problem_error(kind: type[ProblemError]) -> None:
    problem = Problem("bad-value", key="duel1", value=3)
    with pytest.raises(ProblemError) as caught:
        raise kind(problem)
    assert type(caught.value) is kind
    assert caught.value.problem == problem
    assert str(caught.value) == "bad-value(key='duel1', value=3)"
