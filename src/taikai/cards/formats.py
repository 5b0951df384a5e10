"""Deck files: ``.ydk``, ``ydke://`` URLs and text deck sheets (デッキ記入シート) in Japanese or English.

Readers raise ``DeckFormatError`` (and only that) for input they cannot read. A text sheet's card
names are resolved through a ``NameResolver`` (``taikai.cards.index``); a name it does not know is
returned as an ``UnknownName`` with its line number and the closest names, not raised.
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Protocol

from taikai.cards.textsheet import (
    DeckFormatError,
    NameResolver,
    TextSheet,
    UnknownName,
    read_text_sheet,
    write_text_sheet,
)
from taikai.core.deck import SECTIONS, CardFacts, Deck
from taikai.core.problems import Problem

__all__ = ["DeckFormatError", "NameResolver", "TextSheet", "UnknownName", "read_text_sheet", "write_text_sheet"]


# --- reading bytes ---------------------------------------------------------------------------------


def decode_bytes(data: bytes) -> str:
    """A deck file or list as text, as the simulators and Japanese editors save it: UTF-8 with or without
    a BOM, UTF-16 with a BOM (Windows Notepad's "Unicode"), or Shift_JIS. Raises ``DeckFormatError``."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise DeckFormatError("not readable UTF-16") from exc
    for encoding in ("utf-8-sig", "cp932"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise DeckFormatError("not a text file (neither UTF-8, UTF-16 nor Shift_JIS)")


# --- .ydk ----------------------------------------------------------------------------------------

_YDK_HEADERS = {"#main": "main", "#extra": "extra"}
# A passcode and whatever a tool wrote after it ("81497285 # Ash", "81497285\tcomment"); zero-padded too.
_YDK_CARD = re.compile(r"^0*(\d{1,10})(?:\s.*|#.*)?$")


def _ydk_header(line: str) -> str | None:
    if line.startswith("!"):
        return "side"  # "!side", "!sidedeck", "!Side Deck": EDOPro takes any '!' line as the side deck
    return _YDK_HEADERS.get(line.split()[0].lower())


def read_ydk(text: str) -> Deck:
    """A ``.ydk``. Cards before any section header count as main deck."""
    sections: dict[str, list[int]] = {s: [] for s in SECTIONS}
    current = "main"
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line:
            continue
        header = _ydk_header(line)
        if header:
            current = header
            continue
        if line.startswith("#"):
            continue  # "#created by ..." and other comments
        match = _YDK_CARD.match(line) if line[:1].isascii() else None
        if match is None or int(match.group(1)) > 0xFFFFFFFF:
            raise DeckFormatError(f"not a passcode: {line[:40]!r}", number)
        sections[current].append(int(match.group(1)))
    return Deck(tuple(sections["main"]), tuple(sections["extra"]), tuple(sections["side"]))


def looks_like_ydk(text: str) -> bool:
    lines = [ln.strip().lstrip("\ufeff") for ln in text.splitlines() if ln.strip()]
    return any(ln.split()[0].lower() in _YDK_HEADERS for ln in lines) and all(
        ln.startswith(("#", "!")) or _YDK_CARD.match(ln) is not None for ln in lines
    )


def sort_extra(deck: Deck, is_extra: Callable[[int], bool]) -> Deck:
    """YGOPro ignores ``#extra`` and files extra-deck monsters by type: move any listed under the main
    deck to the extra deck, so both kinds of ``.ydk`` read the same."""
    moved = tuple(p for p in deck.main if is_extra(p))
    if not moved:
        return deck
    return Deck(tuple(p for p in deck.main if not is_extra(p)), deck.extra + moved, deck.side)


class _Facts(Protocol):
    def facts(self, passcodes: Iterable[int]) -> dict[int, CardFacts]: ...


def sort_ydk(deck: Deck, index: _Facts) -> Deck:
    """``sort_extra`` with the extra-deck monsters known to ``index``."""
    known = index.facts(deck.main)
    return sort_extra(deck, lambda p: p in known and known[p].extra_kind is not None)


def sorted_ydk_sheet(sheet: TextSheet, index: _Facts) -> TextSheet:
    """A ``.ydk`` sheet with extra-deck monsters moved out of the main deck, and a note for each card
    moved, so "the main deck has 39 cards" explains itself."""
    deck = sort_ydk(sheet.deck, index)
    moved = Counter(sheet.deck.main) - Counter(deck.main)
    notes = tuple(Problem("ydk-moved-to-extra", card=p, name="", count=n) for p, n in moved.items())
    return replace(sheet, deck=deck, notes=sheet.notes + notes)


def write_ydk(deck: Deck, created_by: str = "taikai") -> str:
    lines = [f"#created by {created_by}", "#main", *map(str, deck.main), "#extra", *map(str, deck.extra)]
    lines += ["!side", *map(str, deck.side)]
    return "\n".join(lines) + "\n"


# --- ydke:// -------------------------------------------------------------------------------------

# Tolerant as EDOPro is: either base64 alphabet, padding optional, percent-encoded, wrapped over
# lines or quoted inside a chat message, the last '!' optional.
_B64 = r"[A-Za-z0-9+/=_\-]"
_YDKE_CLOSED = re.compile(rf"ydke://({_B64}*(?:\s+{_B64}+)*)!((?:{_B64}|\s)*)!((?:{_B64}|\s)*)!", re.IGNORECASE)
_YDKE_OPEN = re.compile(rf"ydke://((?:{_B64}|\s)*)!((?:{_B64}|\s)*)!({_B64}*)", re.IGNORECASE)


def _ydke_part(name: str, encoded: str) -> tuple[int, ...]:
    text = "".join(encoded.split()).rstrip("=").replace("-", "+").replace("_", "/")
    if re.fullmatch(r"[A-Za-z0-9+/]*", text) is None or len(text) % 4 == 1:
        raise DeckFormatError(f"{name} part is not base64")
    try:
        raw = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise DeckFormatError(f"{name} part is not base64") from exc
    if len(raw) % 4:
        raise DeckFormatError(f"{name} part is not a whole number of passcodes")
    return tuple(int(p) for (p,) in struct.iter_unpack("<I", raw))


def read_ydke(text: str) -> Deck:
    """``ydke://MAIN!EXTRA!SIDE!``: each part base64 of little-endian uint32 passcodes."""
    if "%" in text:
        text = urllib.parse.unquote(text)  # a URL pasted from a browser's address bar or a link
    match = _YDKE_CLOSED.search(text) or _YDKE_OPEN.search(text)
    if match is None:
        raise DeckFormatError("not a ydke:// URL (expected ydke://MAIN!EXTRA!SIDE!)")
    return Deck(*(_ydke_part(name, part) for name, part in zip(SECTIONS, match.groups(), strict=True)))


def has_ydke(text: str) -> bool:
    lowered = text.lower()
    return "ydke://" in lowered or "ydke%3a%2f%2f" in lowered


def write_ydke(deck: Deck) -> str:
    def part(cards: tuple[int, ...]) -> str:
        return base64.b64encode(struct.pack(f"<{len(cards)}I", *cards)).decode("ascii")

    return f"ydke://{part(deck.main)}!{part(deck.extra)}!{part(deck.side)}!"


def read_deck(text: str, resolver: NameResolver, filename: str = "") -> TextSheet:
    """Any deck format, recognised by its content (or a ``.ydk`` file name): ``ydke://``, ``.ydk``, a text sheet."""
    if has_ydke(text):
        return TextSheet(read_ydke(text), format="ydke")
    if filename.lower().endswith(".ydk") or looks_like_ydk(text):
        return TextSheet(read_ydk(text), format="ydk")
    return read_text_sheet(text, resolver)
