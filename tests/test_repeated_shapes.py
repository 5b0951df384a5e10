"""scripts/repeated_shapes.py (run by ``make check``) counts a repeat planted in a tree and fails above its ceiling."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "repeated_shapes.py"

BLOCK = '''
def {name}(player, by):
    """A docstring that does not count."""
    require_organizer(by, player.event)  # a comment that does not count
    locked = Player.objects.get(pk=player.pk)
    before = fields_of(locked, {fields})
    locked.dropped_after_round = {number}
    save_and_log(
        locked,
        "{action}",
        actor=by,
    )
    return locked
'''


@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("repeated_shapes", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["repeated_shapes"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_repeat_with_other_names_strings_and_numbers_is_one_pair(script: ModuleType, tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "a.py": BLOCK.format(name="drop", fields="FIELDS", number=3, action="x.drop"),
            "b.py": "import os\n\nX = 1\n" + BLOCK.format(name="undrop", fields="OTHER", number=0, action="y.undo"),
            "c.py": "def alone():\n    return 1\n",
        },
    )
    found = script.pairs(root)
    assert [(p.a[0], p.b[0]) for p in found] == [("a.py", "b.py")]
    assert found[0].b[1] == 5  # the run starts at the def, after the import and the assignment


def test_five_lines_that_say_something_are_not_a_repeat(script: ModuleType, tmp_path: Path) -> None:
    # The block holds 8 counting lines; cut it to 5 (the closing ")," and ")" lines do not count).
    short = "\n".join(BLOCK.format(name="f", fields="F", number=1, action="a").splitlines()[:7]) + "\n"
    root = _tree(tmp_path, {"a.py": short, "b.py": short.replace("def f", "def g")})
    assert script.shapes(short)[-1].counts
    assert script.pairs(root) == []


def test_lines_of_only_punctuation_and_keywords_do_not_count(script: ModuleType) -> None:
    lines = script.shapes("x = call(\n    a,\n)\nelse_ = [\n]\n")
    assert [(line.shape, line.counts) for line in lines] == [
        ("N = N (", True),
        ("N ,", True),
        (")", False),
        ("N = [", True),
        ("]", False),
    ]


def test_migrations_are_skipped(script: ModuleType, tmp_path: Path) -> None:
    block = BLOCK.format(name="f", fields="F", number=1, action="a")
    root = _tree(tmp_path, {"app/migrations/0001_initial.py": block, "app/migrations/0002_more.py": block})
    assert script.pairs(root) == []


def test_it_fails_above_the_ceiling_and_passes_at_it(
    script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    block = BLOCK.format(name="f", fields="F", number=1, action="a")
    root = _tree(tmp_path, {"a.py": block, "b.py": block, "c.py": block})  # three places: three pairs
    assert script.main(["--root", str(root), "--ceiling", "2"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("3 pairs of places") and "a.py:2-8 ~ b.py:2-8" in out
    assert script.main(["--root", str(root), "--ceiling", "3"]) == 0


def test_the_tree_is_under_its_ceiling(script: ModuleType) -> None:
    assert len(script.pairs(script.DEFAULT_ROOT)) <= script.CEILING
