"""Fails on any module of taikai or of its tests over 400 lines or any function or method over 60, naming each
(STYLE 8).

Run by ``make check`` over src/taikai and tests (or over the folders named: ``code_shape.py ROOT...``). A
module's length is its line count (``wc -l``); a function's runs from its first decorator to its last line,
nested functions counted in the one that holds them (and checked on their own too). Migrations are generated and
so not counted.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
SKIP_DIRS = ("migrations",)
REPO = Path(__file__).resolve().parent.parent
ROOTS = (REPO / "src" / "taikai", REPO / "tests")  # the app and its tests, held to the same shape


def _modules(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if not any(part in SKIP_DIRS for part in p.relative_to(root).parts))


def _functions(tree: ast.AST) -> list[tuple[str, int, int]]:
    """(qualified name, first line, length) of every function and method, nested ones included."""
    found: list[tuple[str, int, int]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                last = child.end_lineno or child.lineno
                found.append((f"{prefix}{child.name}", first, last - first + 1))
                walk(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                walk(child, f"{prefix}{child.name}.")
            else:
                walk(child, prefix)

    walk(tree, "")
    return found


def shape(root: Path) -> tuple[list[str], dict[str, int]]:
    """The problems found under ``root`` and, for the summary, the counts and the longest of each."""
    problems: list[str] = []
    longest_module = longest_function = 0
    modules = _modules(root)
    for path in modules:
        text = path.read_text("utf-8")
        name = path.relative_to(root.parent).as_posix()
        lines = len(text.splitlines())
        longest_module = max(longest_module, lines)
        if lines > MAX_MODULE_LINES:
            problems.append(f"{name}: {lines} lines (at most {MAX_MODULE_LINES})")
        for function, first, length in _functions(ast.parse(text, filename=str(path))):
            longest_function = max(longest_function, length)
            if length > MAX_FUNCTION_LINES:
                problems.append(f"{name}:{first} {function}: {length} lines (at most {MAX_FUNCTION_LINES})")
    return problems, {"modules": len(modules), "module": longest_module, "function": longest_function}


def main(argv: list[str]) -> int:
    roots = [Path(a) for a in argv[1:]] or list(ROOTS)
    problems: list[str] = []
    summaries: list[str] = []
    for root in roots:
        found, sizes = shape(root)
        problems += found
        summaries.append(
            f"{root.name}: {sizes['modules']} modules, longest module {sizes['module']} lines, "
            f"longest function {sizes['function']} lines"
        )
    for problem in problems:
        print(problem)
    if problems:
        names = ", ".join(root.name for root in roots)
        print(f"{len(problems)} too long in {names}: split along its concepts, one concept a module")
        return 1
    print("code shape: " + "; ".join(summaries))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
