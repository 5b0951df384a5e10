"""The ``taikai`` command. Each module in this package that defines ``register(subparsers)`` adds
its own sub-command, so areas stay in their own files; commands stay thin over services and core."""

from __future__ import annotations

import argparse
import importlib
import io
import pkgutil
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

from taikai.core.terminal import shown


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="taikai", description="Yu-Gi-Oh! OCG tournament software / 遊戯王OCG大会運営")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


class EscapedText(io.TextIOBase):
    """A text stream that writes every terminal control character as its code (`taikai.core.terminal`):
    file, card, event and user names reach the terminal from everywhere, so the escaping is done once, here.
    `unescaped` is the stream under it, for the progress bar's own carriage returns."""

    def __init__(self, stream: TextIO) -> None:
        self.unescaped = stream

    def write(self, text: str) -> int:
        self.unescaped.write(shown(text))
        return len(text)

    def flush(self) -> None:
        self.unescaped.flush()

    def isatty(self) -> bool:
        return self.unescaped.isatty()

    def fileno(self) -> int:
        return self.unescaped.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.unescaped, "encoding", "utf-8")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.unescaped, name)


@contextmanager
def escaped_output() -> Iterator[None]:
    saved = sys.stdout, sys.stderr
    if not isinstance(sys.stdout, EscapedText):
        sys.stdout = EscapedText(sys.stdout)
    if not isinstance(sys.stderr, EscapedText):
        sys.stderr = EscapedText(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def main(argv: Sequence[str] | None = None) -> int:
    with escaped_output():  # argparse repeats a bad argument in its error, too
        args = build_parser().parse_args(argv)
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        return 0
    except Exception as exc:
        from taikai.security import diskfull

        if not diskfull.is_disk_full(exc):
            raise
        # The write was refused whole (a database transaction rolls back; a backup keeps no partial file).
        place = diskfull.storage()
        sys.stderr.write(
            f"taikai: ディスクがいっぱいです。何も保存されていません。空きを作ってからもう一度実行してください。\n"
            f"taikai: the disk is full: nothing was saved. Free space, then run it again.\n"
            f"taikai: data folder {place.var_dir} (free: {diskfull.megabytes(place.free_bytes)}); "
            f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}\n"
        )
        return 3


if __name__ == "__main__":
    sys.exit(main())
