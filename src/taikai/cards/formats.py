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
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from taikai.core.deck import SECTIONS, CardFacts, Deck
from taikai.core.problems import Problem


class DeckFormatError(ValueError):
    def __init__(self, reason: str, line: int | None = None):
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.reason = reason
        self.line = line


class NameResolver(Protocol):
    def resolve(self, name: str) -> CardFacts | None: ...

    def suggest(self, name: str, limit: int = 3) -> list[str]: ...


# --- .ydk ----------------------------------------------------------------------------------------

_YDK_HEADERS = {"#main": "main", "#extra": "extra", "!side": "side"}


def read_ydk(text: str) -> Deck:
    """A ``.ydk``. Cards before any section header count as main deck."""
    sections: dict[str, list[int]] = {s: [] for s in SECTIONS}
    current = "main"
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line:
            continue
        header = _YDK_HEADERS.get(line.split()[0].lower())
        if header:
            current = header
        elif line.startswith(("#", "!")):
            continue  # "#created by ..." and other comments
        elif line.isascii() and line.isdigit() and len(line) <= 10:
            sections[current].append(int(line))
        else:
            raise DeckFormatError(f"not a passcode: {line[:40]!r}", number)
    return Deck(tuple(sections["main"]), tuple(sections["extra"]), tuple(sections["side"]))


def looks_like_ydk(text: str) -> bool:
    lines = [ln.strip().lstrip("\ufeff") for ln in text.splitlines() if ln.strip()]
    return any(ln.lower() in _YDK_HEADERS for ln in lines) and all(
        ln.startswith(("#", "!")) or (ln.isascii() and ln.isdigit()) for ln in lines
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


def write_ydk(deck: Deck, created_by: str = "taikai") -> str:
    lines = [f"#created by {created_by}", "#main", *map(str, deck.main), "#extra", *map(str, deck.extra)]
    lines += ["!side", *map(str, deck.side)]
    return "\n".join(lines) + "\n"


# --- ydke:// -------------------------------------------------------------------------------------

_YDKE = re.compile(r"ydke://([A-Za-z0-9+/=]*)!([A-Za-z0-9+/=]*)!([A-Za-z0-9+/=]*)!?")


def read_ydke(text: str) -> Deck:
    """``ydke://MAIN!EXTRA!SIDE!``: each part standard base64 of little-endian uint32 passcodes."""
    match = _YDKE.search(text.strip())
    if match is None:
        raise DeckFormatError("not a ydke:// URL (expected ydke://MAIN!EXTRA!SIDE!)")
    parts = []
    for name, encoded in zip(SECTIONS, match.groups(), strict=True):
        try:
            raw = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise DeckFormatError(f"{name} part is not base64") from exc
        if len(raw) % 4:
            raise DeckFormatError(f"{name} part is not a whole number of passcodes")
        parts.append(tuple(int(p) for (p,) in struct.iter_unpack("<I", raw)))
    return Deck(*parts)


def write_ydke(deck: Deck) -> str:
    def part(cards: tuple[int, ...]) -> str:
        return base64.b64encode(struct.pack(f"<{len(cards)}I", *cards)).decode("ascii")

    return f"ydke://{part(deck.main)}!{part(deck.extra)}!{part(deck.side)}!"


# --- text deck sheets ----------------------------------------------------------------------------

_HEADER = re.compile(
    r"^[#!【\[(<]*\s*"
    r"(?P<section>メインデッキ|メイン|main\s*deck|main|デッキ|deck"
    r"|エクストラデッキ|エクストラ|extra\s*deck|extra|サイドデッキ|サイド|side\s*deck|side)"
    r"\s*[】\])>]*\s*[:：]?\s*(?:[(\[]?\s*\d+\s*(?:枚|cards?)?\s*[)\]]?)?\s*[:：]?$",
    re.IGNORECASE,
)
_SECTION_WORDS = {"メ": "main", "m": "main", "デ": "main", "d": "main", "エ": "extra", "e": "extra"}
_PREFIX = re.compile(r"^(\d{1,2})\s*(?:[x×*]\s*)?(?:枚\s*)?\s+(.+)$", re.IGNORECASE)
_SUFFIX = re.compile(r"^(.+?)\s*[x×*]\s*(\d{1,2})\s*枚?$", re.IGNORECASE)
_SUFFIX_MAI = re.compile(r"^(.+?)\s+(\d{1,2})\s*枚$")
_BULLET = re.compile(r"^(?:[-・•*]\s+)")
# Sub-headings many sheets carry inside a section (モンスター (20), Spells: 12): no section change.
_SUBHEADER = re.compile(
    r"^[#!【\[(<]*\s*(?:モンスター|魔法|罠|monsters?|spells?|traps?)(?:カード|\s*cards?)?"
    r"\s*[】\])>]*\s*[:：]?\s*(?:[(\[]?\s*\d+\s*(?:枚|cards?)?\s*[)\]]?)?$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class UnknownName:
    line: int
    name: str
    count: int
    section: str
    matches: tuple[str, ...] = ()

    def problem(self) -> Problem:
        """As a deck problem: ``unknown-card`` with no passcode, the line and the closest names."""
        return Problem(
            "unknown-card",
            card=None,
            name=self.name,
            section=self.section,
            count=self.count,
            line=self.line,
            matches=list(self.matches),
        )


@dataclass(frozen=True)
class TextSheet:
    deck: Deck
    unknown: tuple[UnknownName, ...] = ()
    names: dict[int, str] = field(default_factory=dict)  # passcode -> the name as written
    format: str = "text"  # "ydk", "ydke" or "text"


def _header_section(line: str) -> str | None:
    match = _HEADER.match(line)
    if match is None:
        return None
    word = match.group("section").lower()
    return _SECTION_WORDS.get(word[0], "side")


def _readings(line: str) -> list[tuple[str, int]]:
    """The ways a card line can be read, most specific first: ``3 Name``, ``Name x3``, ``Name``."""
    out = []
    for pattern, name_group, count_group in ((_PREFIX, 2, 1), (_SUFFIX, 1, 2), (_SUFFIX_MAI, 1, 2)):
        match = pattern.match(line)
        if match:
            out.append((match.group(name_group).strip(), int(match.group(count_group))))
    out.append((line, 1))
    return out


def read_text_sheet(text: str, resolver: NameResolver) -> TextSheet:
    sections: dict[str, list[int]] = {s: [] for s in SECTIONS}
    current = "main"
    unknown: list[UnknownName] = []
    written: dict[int, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = unicodedata.normalize("NFKC", raw).strip().lstrip("\ufeff")
        line = _BULLET.sub("", line)
        if not line or line.startswith(("//", "--")) or (line.startswith("#") and _header_section(line) is None):
            continue
        section = _header_section(line)
        if section is None and _SUBHEADER.match(line):
            continue
        if section is not None:
            current = section
            continue
        readings = _readings(line)
        for name, count in readings:
            card = resolver.resolve(name)
            if card is not None:
                sections[current].extend([card.passcode] * count)
                written.setdefault(card.passcode, name)
                break
        else:
            name, count = readings[0]
            if count > 60:
                raise DeckFormatError(f"{count} copies of one card", number)
            unknown.append(UnknownName(number, name, count, current, tuple(resolver.suggest(name))))
    deck = Deck(tuple(sections["main"]), tuple(sections["extra"]), tuple(sections["side"]))
    return TextSheet(deck, tuple(unknown), written)


_SHEET_HEADERS = {
    "ja": {"main": "メインデッキ", "extra": "エクストラデッキ", "side": "サイドデッキ"},
    "en": {"main": "Main Deck", "extra": "Extra Deck", "side": "Side Deck"},
}


def write_text_sheet(deck: Deck, cards: dict[int, CardFacts], lang: str = "ja") -> str:
    """A sheet ``read_text_sheet`` reads back: one ``N Name`` line per card name, in first-seen order."""
    lines: list[str] = []
    for section in SECTIONS:
        passcodes = deck.section(section)
        lines.append(f"{_SHEET_HEADERS[lang][section]} ({len(passcodes)})")
        counts: dict[int, int] = {}
        for p in passcodes:
            counts[p] = counts.get(p, 0) + 1
        for p, n in counts.items():
            card = cards.get(p)
            lines.append(f"{n} {card.name(lang) if card else p}")
        lines.append("")
    return "\n".join(lines)


def read_deck(text: str, resolver: NameResolver, filename: str = "") -> TextSheet:
    """Any deck format, recognised by its content (or a ``.ydk`` file name): ``ydke://``, ``.ydk``, a text sheet."""
    if "ydke://" in text:
        return TextSheet(read_ydke(text), format="ydke")
    if filename.lower().endswith(".ydk") or looks_like_ydk(text):
        return TextSheet(read_ydk(text), format="ydk")
    return read_text_sheet(text, resolver)
