"""Fill empty msgstr entries of a .po file from a TSV of `msgid<TAB>msgstr` lines (a translator's aid).

Usage: python scripts/po_fill.py path/to/django.po translations.tsv
Only single-line msgids are handled; entries already translated are left alone; fuzzy flags removed
for filled entries.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path


def main(po_path: str, tsv_path: str) -> int:
    table = {}
    for line in Path(tsv_path).read_text("utf-8").splitlines():
        if "\t" in line and not line.startswith("#"):
            k, v = line.split("\t", 1)
            table[k] = v
    text = Path(po_path).read_text("utf-8")
    pattern = re.compile(r'(#, fuzzy\n)?(msgid "((?:[^"\\]|\\.)*)"\nmsgstr ")(")', re.M)

    def fill(m: re.Match[str]) -> str:
        msgid = m.group(3).encode().decode("unicode_escape").encode("latin-1").decode("utf-8")
        if msgid in table and msgid:
            value = table[msgid].replace("\\", "\\\\").replace('"', '\\"')
            return m.group(2) + value + '"'
        return m.group(0)

    Path(po_path).write_text(pattern.sub(fill, text), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
