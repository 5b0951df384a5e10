"""The shape of a command with actions (``taikai cards import ...``): one place for its ``--lang`` and its ACTION."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from taikai import messages

if TYPE_CHECKING:
    Actions = argparse._SubParsersAction[argparse.ArgumentParser]


def command_group(sub: Actions, name: str, help: str) -> Actions:
    """The command ``name`` and the sub-parsers of its actions, one of which must be given; ``--lang`` before the
    action sets the language of its messages."""
    parser = sub.add_parser(name, help=help)
    parser.add_argument("--lang", choices=messages.LANGS)
    actions: Actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    return actions


def action(actions: Actions, name: str, help: str) -> argparse.ArgumentParser:
    """One action of a command group that also takes ``--lang`` after it; not given there, it does not undo a
    ``--lang`` given before the action."""
    parser = actions.add_parser(name, help=help)
    parser.add_argument("--lang", choices=messages.LANGS, default=argparse.SUPPRESS)
    return parser
