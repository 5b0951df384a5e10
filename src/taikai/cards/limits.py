"""Bounds on card files, so a small hostile file cannot hold the server (issue 16, M6).

A 4 KB ``cards.cdb`` can expand to a million rows (a view over a recursive query), a name can be a
megabyte, a ``lflist.conf`` can hold two million entries. The real files are far smaller: the whole OCG and
TCG card pool is about 14,000 cards with names under 100 characters, and EDOPro's ``lflist.conf`` has a few
hundred lists. Every importer checks its input against these bounds before anything is written, and a
``cards.cdb`` query is stopped after ``SECONDS``; a file over a bound is refused with one line naming it.
Parsing happens before the import's write transaction (taikai.db.heavy).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable
from typing import Protocol

MAX_CARDS = 60_000  # cards in one import (the real pool is about 14,000)
MAX_NAME = 300  # characters of a card name
MAX_LISTS = 1_000  # lists in one lflist.conf (EDOPro ships a few hundred)
MAX_ENTRIES = 200_000  # entries across all lists of one file
MAX_TEXT_BYTES = 50 * 1024 * 1024  # an lflist.conf or a YGOPRODeck JSON file
SECONDS = 20.0  # reading one cards.cdb


class LimitError(ValueError):
    """A card file over a bound; str() is the one line shown to the organizer."""


class _Card(Protocol):
    @property
    def name_en(self) -> str: ...

    @property
    def name_ja(self) -> str: ...


class _List(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def entries(self) -> dict[int, int]: ...


def check_cards(cards: Iterable[_Card], label: str) -> None:
    for count, card in enumerate(cards, start=1):
        if count > MAX_CARDS:
            raise LimitError(f"{label}: more than {MAX_CARDS} cards; not a card database")
        if len(card.name_en) > MAX_NAME or len(card.name_ja) > MAX_NAME:
            raise LimitError(f"{label}: a card name longer than {MAX_NAME} characters")


def check_lists(lists: Iterable[_List], label: str) -> None:
    total = 0
    for count, parsed in enumerate(lists, start=1):
        if count > MAX_LISTS:
            raise LimitError(f"{label}: more than {MAX_LISTS} lists")
        if len(parsed.name) > MAX_NAME:
            raise LimitError(f"{label}: a list name longer than {MAX_NAME} characters")
        total += len(parsed.entries)
        if total > MAX_ENTRIES:
            raise LimitError(f"{label}: more than {MAX_ENTRIES} entries")


def check_text_size(size: int, label: str) -> None:
    if size > MAX_TEXT_BYTES:
        raise LimitError(f"{label}: larger than {MAX_TEXT_BYTES // (1024 * 1024)} MB")


def bound_sqlite(con: sqlite3.Connection, seconds: float = SECONDS) -> None:
    """Stop any query on ``con`` once ``seconds`` have passed (it fails with sqlite3.OperationalError)."""
    deadline = time.monotonic() + seconds
    con.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
