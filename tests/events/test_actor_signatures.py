"""The actor is a value (STYLE 14), read from the services' own signatures: every public service takes
``by: Actor``, never ``Any``, and no flag switches a check off (the checks themselves: test_actors.py)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import taikai

# --- no `Any` actors, no flags that switch a check off ----------------------------------------------------

SERVICE_MODULES = [
    "taikai.events.services.events",
    "taikai.events.services.registration",
    "taikai.events.services.csv_import",
    "taikai.events.services.links",
    "taikai.events.services.recovery",
    "taikai.events.services.participation",
    "taikai.events.services.rounds",
    "taikai.events.services.clock",
    "taikai.events.services.results",
    "taikai.events.services.result_input",
    "taikai.events.services.result_form",
    "taikai.events.services.correction_preview",
    "taikai.events.services.teams",
    "taikai.events.services.team_play",
    "taikai.events.services.progress",
    "taikai.events.services.round_plan",
    "taikai.events.services.transfer",
    "taikai.events.services.transfer_import",
    "taikai.judging.services.appeals",
    "taikai.judging.services.calls",
    "taikai.judging.services.database",
    "taikai.judging.services.penalties",
    "taikai.judging.services.penalty_effects",
    "taikai.judging.services.penalty_history",
    "taikai.judging.services.penalty_reversal",
    "taikai.judging.services.prizes",
    "taikai.judging.services.time_procedure",
    "taikai.judging.services.tools",
    "taikai.decks.services",
    "taikai.decks.lock",
    "taikai.decks.demo",
    "taikai.decks.archetypes",
    "taikai.tokens.services",
]


def _public_functions(module: ModuleType) -> list[Any]:
    return [
        f
        for name, f in vars(module).items()
        if inspect.isfunction(f) and not name.startswith("_") and f.__module__ == module.__name__
    ]


@pytest.mark.parametrize("module_name", SERVICE_MODULES)
def test_every_service_takes_the_actor_as_an_actor(module_name: str) -> None:
    import importlib

    module = importlib.import_module(module_name)
    wrong = []
    for f in _public_functions(module):
        by = inspect.signature(f).parameters.get("by")
        if by is None:
            continue
        if by.annotation != "Actor" or by.default is not inspect.Parameter.empty:
            wrong.append(f"{f.__name__}(by: {by.annotation} = {by.default})")
    assert wrong == []


def test_no_self_service_flag_and_no_role_cache_remain() -> None:
    src = Path(taikai.__file__).parent
    hits = [
        f"{path.relative_to(src)}:{n}"
        for path in sorted(src.rglob("*.py"))
        for n, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
        if re.search(r"self_service|_taikai_roles|scoped_user|\bby: Any\b", line)
    ]
    assert hits == []
