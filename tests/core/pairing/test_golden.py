"""Golden files pin seeded pairings: ``case.input.json`` (a ``taikai pair`` request) -> ``case.expected.json``.

Regenerate after a deliberate change with ``TAIKAI_REGOLD=1 pytest tests/core/pairing/test_golden.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from taikai.cli.pair import to_input
from taikai.core.pairing import swiss

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p.name.removesuffix(".input.json") for p in GOLDEN.glob("*.input.json"))


@pytest.mark.parametrize("case", CASES)
def test_golden_pairing(case: str) -> None:
    request = json.loads((GOLDEN / f"{case}.input.json").read_text("utf-8"))
    result = swiss.pair(to_input(request))
    got = {"pairings": [list(p) for p in result.pairings], "byes": list(result.byes)}
    expected_path = GOLDEN / f"{case}.expected.json"
    if os.environ.get("TAIKAI_REGOLD"):
        expected_path.write_text(json.dumps(got, indent=1) + "\n", "utf-8")
    assert got == json.loads(expected_path.read_text("utf-8"))


def test_there_are_golden_cases() -> None:
    assert len(CASES) >= 3
