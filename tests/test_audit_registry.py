"""The action registry is enforced (STYLE habit 2): no entry reaches the log under a name without human text."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from django.db import transaction

import taikai
from taikai.audit.actions import ACTIONS, UnregisteredAction, describe
from taikai.audit.models import AuditEntry
from taikai.audit.services import record

SRC = Path(taikai.__file__).parent

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


def _module(path: Path) -> ModuleType:
    dotted = ".".join(("taikai", *path.relative_to(SRC).with_suffix("").parts))
    return importlib.import_module(dotted.removesuffix(".__init__"))


def _functions(tree: ast.AST) -> Iterator[FunctionNode]:
    yield from (n for n in ast.walk(tree) if isinstance(n, FunctionNode))


def _enclosing(tree: ast.AST, node: ast.AST) -> FunctionNode | None:
    inner = [f for f in _functions(tree) if any(n is node for n in ast.walk(f))]
    return min(inner, key=lambda f: sum(1 for _ in ast.walk(f)), default=None)


# Each writer of entries and where its action stands: record(action, ...), save_and_log(row, action, ...) and
# log_import(kind, action, ...) (taikai.cards.importing).
_WRITERS = {"record": 0, "save_and_log": 1, "log_import": 1}


def _action_of(node: ast.AST) -> ast.expr | None:
    """The action a call writes under, if it writes an entry."""
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    at = _WRITERS.get(name)
    return node.args[at] if at is not None and len(node.args) > at else None


def _forwards(call: ast.Call, tree: ast.AST) -> bool:
    """A writer's own record(action, ...) (inside save_and_log, log_import): its action is the one each caller of
    that writer names, and those calls are scanned."""
    fn = _enclosing(tree, call)
    return fn is not None and fn.name in _WRITERS


def _argument_at_call_sites(tree: ast.AST, fn: FunctionNode, name: str) -> Iterator[tuple[ast.expr, ast.AST]]:
    params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        if not (isinstance(call.func, ast.Name) and call.func.id == fn.name):
            continue
        passed = {k.arg: k.value for k in call.keywords if k.arg}
        if name in params and params.index(name) < len(call.args):
            passed[name] = call.args[params.index(name)]
        assert name in passed, f"{fn.name}() called without {name!r} at line {call.lineno}"
        yield passed[name], call


def _names(expr: ast.expr, tree: ast.AST, scope: ast.AST, module: ModuleType) -> set[str]:
    """The action names an expression can take: constants, registered module names, locals and parameters."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return {expr.value}
    if isinstance(expr, ast.IfExp):
        return _names(expr.body, tree, scope, module) | _names(expr.orelse, tree, scope, module)
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        value = getattr(getattr(module, expr.value.id), expr.attr)
        assert isinstance(value, str), ast.unparse(expr)
        return {value}
    if isinstance(expr, ast.Name):
        fn = _enclosing(tree, scope)
        assigned = [
            n.value
            for n in ast.walk(fn or tree)
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)
        ]
        if fn is not None and assigned:
            return set().union(*(_names(v, tree, v, module) for v in assigned))
        if fn is not None and expr.id in {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}:
            sites = list(_argument_at_call_sites(tree, fn, expr.id))
            assert sites, f"{fn.name}() is never called in its module"
            return set().union(*(_names(arg, tree, call, module) for arg, call in sites))
        value = getattr(module, expr.id)
        assert isinstance(value, str), expr.id
        return {value}
    raise AssertionError(f"cannot tell which action {ast.unparse(expr)!r} names")


def _actions_used_in_src() -> dict[str, list[str]]:
    used: dict[str, list[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text("utf-8"))
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _action_of(n) is not None]
        calls = [c for c in calls if not _forwards(c, tree)]
        if not calls:
            continue
        module = _module(path)
        for call in calls:
            action = _action_of(call)
            assert action is not None
            for name in _names(action, tree, call, module):
                used.setdefault(name, []).append(f"{path.relative_to(SRC)}:{call.lineno}")
    return used


def test_every_action_written_in_src_is_registered() -> None:
    used = _actions_used_in_src()
    # The scan must see the services it guards, or it proves nothing.
    assert {"taikai.match.result_entered", "taikai.round.started", "taikai.deck.judge_changed"} <= set(used)
    assert len(used) > 50
    unregistered = {name: where for name, where in used.items() if name not in ACTIONS}
    assert unregistered == {}


def test_every_registered_action_is_dotted_and_has_text() -> None:
    _actions_used_in_src()  # imports every module that writes entries, and with it its registrations
    for name in ACTIONS:
        assert name.startswith("taikai.") and name.count(".") == 2, name
        assert describe(name) != name


@pytest.mark.django_db
def test_an_unregistered_action_is_refused_and_writes_nothing() -> None:
    with pytest.raises(UnregisteredAction) as exc, transaction.atomic():
        record("taikai.nope.unknown", actor_label="tester")
    assert exc.value.action == "taikai.nope.unknown" and "not registered" in str(exc.value)
    assert AuditEntry.objects.count() == 0


def test_the_two_formerly_unregistered_actions_have_japanese_text() -> None:
    from django.utils import translation

    from taikai.events import actions

    with translation.override("ja"):
        assert describe(actions.PLAYER_PIN_SET) == "プレイヤーのPINを設定"
        assert describe(actions.STAFF_ACCOUNT_CREATED) == "スタッフアカウントを作成"
        assert describe(actions.TEAM_MATCH_SETTLED) == "チーム戦の勝敗が決定"
    with translation.override("en"):
        assert describe(actions.PLAYER_PIN_SET) == "Player PIN set"
