"""Fill empty msgstr entries of a .po file from a TSV of `msgid<TAB>msgstr` lines (a translator's aid).

Usage: python scripts/po_fill.py path/to/django.po translations.tsv
Entries already translated are left alone; multi-line msgids are joined before look-up.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def _unquote(lines: list[str]) -> str:
    return "".join(ast.literal_eval(line) for line in lines)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def main(po_path: str, tsv_path: str) -> int:
    table = {}
    for line in Path(tsv_path).read_text("utf-8").splitlines():
        if "\t" in line and not line.startswith("#"):
            k, v = line.split("\t", 1)
            table[k] = v
    blocks = Path(po_path).read_text("utf-8").split("\n\n")
    out = []
    for block in blocks:
        lines = block.split("\n")
        try:
            i = next(n for n, line in enumerate(lines) if line.startswith("msgid "))
            j = next(n for n, line in enumerate(lines) if line.startswith("msgstr "))
        except StopIteration:
            out.append(block)
            continue
        msgid = _unquote([lines[i][6:], *lines[i + 1 : j]])
        rest = [x for x in lines[j + 1 :] if x]
        msgstr = _unquote([lines[j][7:], *rest]) if all(x.startswith('"') for x in rest) else "x"
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
        if msgid and (not msgstr or fuzzy) and msgid in table:
            lines = [line for line in lines[:j] if not line.startswith("#|") and line != "#, fuzzy"]
            lines = [line.replace("fuzzy, ", "") for line in lines] + ["msgstr " + _quote(table[msgid])]
        out.append("\n".join(lines))
    Path(po_path).write_text("\n\n".join(out), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
