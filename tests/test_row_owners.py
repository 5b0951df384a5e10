"""One owner per row (STYLE 16, issue 22): the events app's tables are written by its own services only.

Judging, decks and the edges ask the events services (``rulings.record_penalty_duel``, ``restore_result``,
``lift_disqualification``, ``drop_team``…), which bump the version, log and tell the players. This scans every
module outside ``taikai.events`` for a write of an events model: a ``Model.objects…`` write, or ``.save()`` /
``.delete()`` on a name bound to an events model (read from ``Model.objects…`` or annotated with the model).
"""

from __future__ import annotations

import ast
from pathlib import Path

from django.apps import apps

SRC = Path(__file__).resolve().parents[1] / "src" / "taikai"
WRITES = {"create", "update", "delete", "bulk_create", "bulk_update", "get_or_create", "update_or_create", "save"}
# Whole-database copies restore every table as it was saved; they own no event's facts.
ALLOWED = {"security/backup.py"}


def _events_models() -> set[str]:
    return {m.__name__ for m in apps.get_app_config("events").get_models()}


def _chain_root(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        if isinstance(node, ast.Attribute) and node.attr == "objects" and isinstance(node.value, ast.Name):
            return node.value.id
        node = node.func if isinstance(node, ast.Call) else node.value
    return None


def _annotated(annotation: ast.AST | None, models: set[str]) -> bool:
    return annotation is not None and any(isinstance(n, ast.Name) and n.id in models for n in ast.walk(annotation))


def _writes_in(tree: ast.AST, models: set[str]) -> list[str]:
    found = []
    for func in [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]:
        bound = {a.arg for a in [*func.args.args, *func.args.kwonlyargs] if _annotated(a.annotation, models)}
        for node in ast.walk(func):
            if isinstance(node, ast.Assign) and _chain_root(node.value) in models:
                bound |= {t.id for t in node.targets if isinstance(t, ast.Name)}
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and _annotated(node.annotation, models)
            ):
                bound.add(node.target.id)
        for node in ast.walk(func):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in WRITES:
                continue
            target = node.func.value
            by_manager = _chain_root(target) in models and node.func.attr != "save"
            by_instance = isinstance(target, ast.Name) and target.id in bound and node.func.attr in ("save", "delete")
            if by_manager or by_instance:
                found.append(f"{func.name}:{node.lineno} {ast.unparse(node.func)}")
    return found


def test_no_module_outside_the_events_app_writes_its_rows() -> None:
    models = _events_models()
    offenders = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith("events/") or "/migrations/" in rel or rel in ALLOWED:
            continue
        found = _writes_in(ast.parse(path.read_text(encoding="utf-8")), models)
        if found:
            offenders[rel] = found
    assert offenders == {}


def test_the_scan_sees_a_write_when_there_is_one() -> None:
    code = (
        "def f(match: Match):\n    match.save()\n"
        "def g():\n    p = Player.objects.get(pk=1)\n    p.save()\n"
        "def h():\n    Team.objects.filter(pk=1).update(name='x')\n"
        "def ok():\n    call = JudgeCall.objects.get(pk=1)\n    call.save()\n"
    )
    found = _writes_in(ast.parse(code), {"Match", "Player", "Team"})
    assert [f.split(":")[0] for f in found] == ["f", "g", "h"]
