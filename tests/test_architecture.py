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
