"""CSV that a spreadsheet opens as data, never as formulas.

A player named ``=HYPERLINK("http://…","1位")`` would otherwise become a live formula when the organizer
opens the standings in Excel or LibreOffice (CSV injection). A text cell that starts with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return gets a leading apostrophe, which spreadsheets show as plain text (the
OWASP advice). Numbers are written as they are.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


class SafeWriter:
    """csv.writer with every text cell escaped."""

    def __init__(self, file: Any):
        self._writer = csv.writer(file)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([cell(v) for v in row])
