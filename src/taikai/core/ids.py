"""The one reader of a number typed or sent by a client: an id, a version, a table, a page.

`str.isdigit()` is true for "²" and "٣", and `int("²")` raises: a check with one and a conversion with the
other was a server error on every page that read a number from a query string or a form. Only ASCII digits
are a number here, and not too many of them (an id fits in 53 bits, what JSON carries exactly).
"""

from __future__ import annotations

MAX_DIGITS = 15


def parse_id(raw: object, *, digits: int = MAX_DIGITS) -> int | None:
    """The number `raw` spells in ASCII digits (surrounding spaces allowed), or None for anything else."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw if 0 <= raw < 10**digits else None
    if not isinstance(raw, str):
        return None
    text = raw.strip(" \t")
    if not text or len(text) > digits or not text.isascii() or not text.isdigit():
        return None
    return int(text)
