"""The ``taikai`` command. Each module in this package that defines ``register(subparsers)`` adds
its own sub-command, so areas stay in their own files; commands stay thin over services and core."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence


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


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
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
