"""taikai.core is pure: no Django, database, clock, network or randomness (STYLE: the layout)."""

from __future__ import annotations

import ast
from pathlib import Path

import taikai.core

FORBIDDEN = {"django", "psycopg", "sqlite3", "random", "socket", "urllib", "http", "time", "requests"}
FORBIDDEN_TAIKAI = ("taikai.web", "taikai.events", "taikai.api", "taikai.cli", "taikai.audit", "taikai.settings")


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_core_imports_nothing_impure() -> None:
    root = Path(taikai.core.__file__).parent
    offenders = []
    for path in sorted(root.rglob("*.py")):
        for name in _imports(path):
            top = name.split(".")[0]
            if top in FORBIDDEN or name.startswith(FORBIDDEN_TAIKAI):
                offenders.append(f"{path.relative_to(root)}: {name}")
    assert offenders == []


SERVICE_MODULES = ("events/services", "judging/services", "decks/services.py", "decks/lock.py", "cards/services.py")
EDGE_ONLY = ("django.http", "django.shortcuts", "django.template", "django.views", "ninja")


def test_services_import_nothing_of_the_web_edge() -> None:
    # STYLE 1: services take plain values; requests, responses and templates belong to views and the API.
    root = Path(taikai.core.__file__).parent.parent
    paths = []
    for where in SERVICE_MODULES:
        target = root / where
        paths.extend(sorted(target.rglob("*.py")) if target.is_dir() else [target])
    offenders = [
        f"{path.relative_to(root)}: {name}" for path in paths for name in _imports(path) if name.startswith(EDGE_ONLY)
    ]
    assert offenders == []


def _imported_conftests(path: Path) -> list[str]:
    """The conftest modules ``path`` imports (``from tests.x.conftest import ...``, ``import tests.conftest``)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            joiner = "" if module.endswith(".") else "."
            modules = [module, *(f"{module}{joiner}{alias.name}" for alias in node.names)]
        else:
            continue
        found.extend(f"{path.name}:{node.lineno} {m}" for m in modules if m.split(".")[-1] == "conftest")
    return found


def test_no_test_imports_a_conftest() -> None:
    # Builders live in tests.factories and shared fixtures come through pytest_plugins (tests/conftest.py);
    # a conftest holds only its folder's own settings, so nothing imports one.
    tests = Path(__file__).resolve().parent
    offenders = [hit for path in sorted(tests.rglob("*.py")) for hit in _imported_conftests(path)]
    assert offenders == []


def test_the_conftest_check_finds_each_way_of_importing_one(tmp_path: Path) -> None:
    sample = tmp_path / "test_sample.py"
    sample.write_text(
        "from tests.events.conftest import make_event\nimport tests.conftest\nfrom . import conftest\n"
        "from .conftest import PHONE\nfrom tests.factories import make_event\n",
        "utf-8",
    )
    assert [hit.split(" ", 1)[1] for hit in _imported_conftests(sample)] == [
        "tests.events.conftest",
        "tests.conftest",
        ".conftest",
        ".conftest",
    ]
