"""Heavy work (hashing a PIN or password, checking a deck, parsing a card file) never runs while a write
transaction is open.

On SQLite a write transaction holds the one writer lock (taikai.db.sqlite): every other report, check-in and
penalty waits behind it. A PIN hash takes tens of milliseconds by design and a deck check or a card file can
take seconds, so such work runs first, outside, and the transaction only stores its result. Code that does
heavy work calls ``require_outside_write(what)``; inside a service's transaction it raises, so a test of
that path fails loudly instead of the venue slowing down.
"""

from __future__ import annotations

from django.db import connections


class HeavyWorkInWriteTransaction(RuntimeError):
    def __init__(self, what: str):
        super().__init__(f"{what} must run before the write transaction, not inside it")
        self.what = what


def in_write_transaction(using: str = "default") -> bool:
    """True inside a transaction.atomic() block that the code opened (a test's own wrapping does not count)."""
    # On SQLite the writer lock is taken when the outermost atomic block begins and released when it ends,
    # so "inside an atomic block" is "holding the writer lock".
    return any(not getattr(block, "_from_testcase", False) for block in connections[using].atomic_blocks)


def require_outside_write(what: str, using: str = "default") -> None:
    if in_write_transaction(using):
        raise HeavyWorkInWriteTransaction(what)
