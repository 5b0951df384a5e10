"""`python -m taikai.bench [NAME ...]`: run every benchmark module (or the named ones) in turn.

`python -m taikai.bench NAME --option ...` passes the options to that one module (e.g. a small smoke run)."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import taikai.bench


def main(argv: list[str]) -> int:
    names = [m.name for m in pkgutil.iter_modules(taikai.bench.__path__) if not m.name.startswith("_")]
    split = next((i for i, arg in enumerate(argv) if arg.startswith("-")), len(argv))
    chosen, options = argv[:split] or names, argv[split:]
    if options and len(argv[:split]) != 1:
        print("options go to one named benchmark: python -m taikai.bench NAME --option ...", file=sys.stderr)
        return 2
    for name in chosen:
        if name not in names:
            print(f"unknown benchmark {name!r}; known: {', '.join(names)}", file=sys.stderr)
            return 2
    for name in chosen:
        module = importlib.import_module(f"taikai.bench.{name}")
        print(f"\n## {name}\n")
        module.run(options)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
