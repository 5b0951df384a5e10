"""The plan on the wall is true: every module, file and function docs/architecture.md and the README name exists,
and every signal the events app defines has a listener (issue 28)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from django.dispatch import Signal

from taikai.audit.actions import ACTIONS
from taikai.events import signals

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "taikai"
DOCS = [ROOT / "docs" / "architecture.md", ROOT / "README.md"]
APPS = (
    "core",
    "cards",
    "audit",
    "events",
    "judging",
    "decks",
    "tokens",
    "webhooks",
    "eventlog",
    "api",
    "web",
    "cli",
    "bench",
    "db",
    "security",
)
PATH = re.compile(r"^[\w./-]+\.(py|md|toml|js)$")
SCRIPTS = SRC / "web" / "static" / "taikai"  # the pages' scripts, named bare (``live.js``)
FILE_SUFFIX = re.compile(r"\.(cdb|conf|php|json|ydk|csv|txt)$")
DOTTED = re.compile(r"^[a-z_][\w]*(\.[\w]+)+(\.\*)?")
HOST = re.compile(r"\.(jp|com|org|net|lan|local|test)(:\d+)?$")  # a host name such as taikai.example.jp


def _quoted(doc: Path) -> list[str]:
    return re.findall(r"`([^`\n]+)`", doc.read_text("utf-8"))


def _file_exists(name: str) -> bool:
    """From the repository, from src/taikai, or (a bare name such as ``actions.py``) in one of the apps."""
    candidates = [ROOT / name, SRC / name, SRC.parent / name, SCRIPTS / name]
    return any(p.exists() for p in candidates) or ("/" not in name and any(SRC.glob(f"*/{name}")))


def _resolves(dotted: str) -> bool:
    """``taikai.a.b``, ``a.b`` for an app of taikai, or ``results.x`` for a module of events/services:
    the longest importable module, then attributes."""
    parts = dotted.removesuffix(".*").split(".")
    if parts[0] in APPS:
        parts = ["taikai", *parts]
    elif parts[0] != "taikai":
        parts = ["taikai", "events", "services", *parts]
    for cut in range(len(parts), 0, -1):
        try:
            target: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            if not hasattr(target, attr):
                return False
            target = getattr(target, attr)
        return cut > 1
    return False


def _named(doc: Path) -> tuple[list[str], list[str]]:
    files, names = [], []
    for text in _quoted(doc):
        text = text.strip()
        if PATH.match(text):
            files.append(text)
            continue
        head = text.split("(")[0].split(" ")[0]
        match = DOTTED.match(head)
        if match is None or head in ACTIONS or FILE_SUFFIX.search(head) or HOST.search(head):  # action, file, host
            continue
        first = head.split(".")[0]
        if first in ("taikai", *APPS) or (SRC / "events" / "services" / f"{first}.py").exists():
            names.append(match.group(0))
    return files, names


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_file_and_module_the_doc_names_exists(doc: Path) -> None:
    files, names = _named(doc)
    assert files  # the scan reads the doc at all
    assert [f for f in files if not _file_exists(f)] == []
    assert [n for n in names if not _resolves(n)] == []


def test_the_readme_layout_names_real_folders_and_modules() -> None:
    """Each folder at the start of a line of the layout holds the folders and modules named after it."""
    block = ROOT.joinpath("README.md").read_text("utf-8").split("## Layout", 1)[1].split("```")[1]
    here = [SRC]
    missing = []
    for line in block.strip().splitlines()[1:]:  # under src/taikai/
        if not line[2:3].isspace():  # a line that starts with its folders: what follows is in them
            here = [SRC / word for word in line.split() if word.endswith("/") and (SRC / word).is_dir()] or here
        for token in re.findall(r"[a-z_/]+/|\w+\.py", line):
            if not any((d / token).exists() or any(d.rglob(token)) for d in [SRC, *here]):
                missing.append(token)
    assert missing == []


def test_every_signal_the_events_app_defines_has_a_listener() -> None:
    # Wire it or delete it: what no app acts on is read from the audit log (taikai.events.signals).
    unheard = [name for name, s in vars(signals).items() if isinstance(s, Signal) and not s.receivers]
    assert unheard == []
