"""Issue 28, item 5: one naming scheme for the text modules (docs/architecture.md, "Where the words live")."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "taikai"
REGISTRY = SRC / "messages.py"


def _modules() -> list[Path]:
    return [p for p in SRC.rglob("*.py") if "migrations" not in p.parts]


def _is_texts_module(path: Path) -> bool:
    return path.stem == "texts" or path.stem.endswith("_texts")


def _outside_functions(tree: ast.AST) -> list[ast.AST]:
    """Every node run when the module is imported (a table's loop included), none inside a function."""
    found: list[ast.AST] = []
    for child in ast.iter_child_nodes(tree):
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            found.append(child)
            found.extend(_outside_functions(child))
    return found


def _registers(path: Path) -> bool:
    """A ``register(...)``/``messages.register(...)``/``_R(...)`` call of taikai.messages run at import."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = any(
        isinstance(node, ast.ImportFrom)
        and node.module in ("taikai.messages", "taikai")
        and any(a.name in ("register", "messages") for a in node.names)
        for node in ast.walk(tree)
    )
    if not imported:
        return False
    for node in _outside_functions(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name in ("register", "_R"):
                return True
    return False


def test_problem_sentences_are_registered_only_in_texts_modules() -> None:
    outside = [
        str(p.relative_to(SRC)) for p in _modules() if p != REGISTRY and _registers(p) and not _is_texts_module(p)
    ]
    assert outside == []


def test_the_texts_modules_register_something() -> None:
    found = [p for p in _modules() if _is_texts_module(p)]
    assert len(found) >= 8  # taikai, events, notices, api, cards, decks, judging, follow, security, webhooks
    assert all(_registers(p) for p in found), [str(p.relative_to(SRC)) for p in found if not _registers(p)]


def test_no_module_takes_an_old_text_module_name() -> None:
    old = [
        str(p.relative_to(SRC))
        for p in _modules()
        if p != REGISTRY and (p.stem in ("messages", "labels") or p.stem.endswith(("_messages", "_labels")))
    ]
    assert old == []
