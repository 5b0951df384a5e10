"""The import progress bar: drawn on a terminal, silent in a pipe or a log."""

from __future__ import annotations

import io

from taikai.cards.progress import TerminalProgress


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_drawn_on_a_terminal_and_ends_with_a_newline() -> None:
    stream = FakeTerminal()
    progress = TerminalProgress("cards", stream, width=10)
    progress(5, 10)
    progress(10, 10)
    assert stream.getvalue() == "\rcards [#####-----] 5/10\rcards [##########] 10/10\n"


def test_progress_is_silent_when_not_a_terminal() -> None:
    stream = io.StringIO()
    TerminalProgress("cards", stream)(5, 10)
    assert stream.getvalue() == ""
