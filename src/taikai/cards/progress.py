"""A progress bar for imports, drawn only when the stream is a terminal."""

from __future__ import annotations

import sys
from typing import TextIO

from taikai.core.terminal import shown


class TerminalProgress:
    def __init__(self, label: str, stream: TextIO | None = None, width: int = 30):
        self.label = shown(label)
        # the carriage return that redraws the bar must reach the terminal (taikai.cli escapes the rest)
        self.stream: TextIO = stream or getattr(sys.stderr, "unescaped", None) or sys.stderr
        self.width = width
        self.enabled = self.stream.isatty()
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        filled = self.width * done // total
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total}")
        self._drawn = True
        if done >= total:
            self.finish()

    def finish(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False
