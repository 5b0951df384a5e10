"""scripts/code_shape.py, the size check in ``make check``, fails on what is too long in the app or its tests
(issue 28; STYLE 8)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "code_shape.py"


def _function(name: str, lines: int, indent: str = "") -> str:
    """A function ``lines`` long, its ``def`` line included."""
    body = "".join(f"{indent}    x{i} = {i}\n" for i in range(lines - 2))
    return f"{indent}def {name}() -> None:\n{body}{indent}    return None\n"


def _run(*roots: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, roots)], capture_output=True, text=True, check=False)


def _tree(tmp_path: Path, files: dict[str, str], name: str = "taikai") -> Path:
    root = tmp_path / name
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, "utf-8")
    return root


def test_a_function_of_61_lines_fails_and_is_named(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"__init__.py": "", "app/views.py": _function("short", 60) + _function("page", 61)})
    run = _run(root)
    assert run.returncode == 1
    assert "taikai/app/views.py:61 page: 61 lines (at most 60)" in run.stdout
    assert "short" not in run.stdout


def test_a_long_method_and_a_long_module_fail(tmp_path: Path) -> None:
    method = "class Clock:\n" + _function("tick", 62, indent="    ")
    root = _tree(tmp_path, {"a.py": method, "b.py": "x = 1\n" * 401})
    run = _run(root)
    assert run.returncode == 1
    assert "taikai/a.py:2 Clock.tick: 62 lines" in run.stdout
    assert "taikai/b.py: 401 lines (at most 400)" in run.stdout


def test_a_tree_within_the_limits_passes_with_its_sizes_and_migrations_are_not_counted(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "a.py": "x = 1\n" * 400,
            "b.py": "@decorated\n" + _function("f", 59),
            "app/migrations/0001_initial.py": _function("generated", 200),
        },
    )
    run = _run(root)
    assert run.returncode == 0, run.stdout
    assert run.stdout.strip() == "code shape: taikai: 2 modules, longest module 400 lines, longest function 60 lines"


def test_the_tests_are_held_to_the_same_shape_as_the_app(tmp_path: Path) -> None:
    app = _tree(tmp_path, {"a.py": _function("short", 60)})
    tests = _tree(tmp_path, {"web/test_page.py": "x = 1\n" * 10 + _function("test_long", 61)}, name="tests")
    run = _run(app, tests)
    assert run.returncode == 1
    assert run.stdout.splitlines() == [
        "tests/web/test_page.py:11 test_long: 61 lines (at most 60)",
        "1 too long in taikai, tests: split along its concepts, one concept a module",
    ]


def test_make_check_runs_it_over_the_app_and_the_tests() -> None:
    run = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, check=False)
    last = run.stdout.splitlines()[-1]  # the sizes of both trees, or what is too long in them
    passed = last.startswith("code shape: taikai: ") and "; tests: " in last
    assert passed or "too long in taikai, tests:" in last, run.stdout
