"""Text deck sheets (デッキ記入シート, deck lists in blogs and shops) in Japanese or English.

Read as people write them: ``3 Name``, ``Name x3``, ``《名前》×3``, ``《名前》3``, ``名前3``, ``名前 3枚``;
headings with counts (``【メインデッキ】(42枚)``, ``[魔法 5〜6枚]``, ``◆ モンスター(22枚)``, ``総数[60]``) and
title lines (``【デッキ名】のデッキレシピ``) are headings, never cards; a trailing remark
(``(好み次第で1でもok)``, ``※...``) is ignored. A heading's count, where given, is checked against the
cards listed under it. How one line is read (decoration, remark, heading, card, and a name's own
brackets) is ``taikai.cards.sheetlines``; a whole-line remark becomes a ``sheet-remark`` note. Names are
resolved through a ``NameResolver`` (bare passcodes too); a name it does not know is returned as an
``UnknownName`` with its line and the closest names, never guessed.

Pure (no database, no clock): call it before opening a write transaction.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from taikai.cards import sheetlines
from taikai.core.deck import SECTIONS, CardFacts, Deck
from taikai.core.problems import Problem

MAX_CARD_LINES = 200  # a 90-card deck has at most 90 card lines; more is not a deck list
MAX_LINES = 2_000
MAX_SUGGESTED = 20  # names beyond this many unknown ones are reported without suggestions
MAX_COPIES = 60
BATCH_LINES = MAX_CARD_LINES + 1  # lines resolved at once: a whole deck list, or enough to refuse one


class DeckFormatError(ValueError):
    def __init__(self, reason: str, line: int | None = None):
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.reason = reason
        self.line = line


class DeckTooLong(DeckFormatError):
    """More card lines than any deck has: refused before any name is looked up further."""

    def __init__(self, limit: int, line: int):
        super().__init__(f"more than {limit} card lines: this is not one deck list", line)
        self.limit = limit


class NameResolver(Protocol):
    def resolve(self, name: str) -> CardFacts | None: ...

    def resolve_many(self, names: Iterable[str]) -> dict[str, CardFacts | None]: ...

    def suggest(self, name: str, limit: int = 3) -> list[str]: ...


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
    format: str = "text"  # "ydk", "ydke", "omega" or "text"
    problems: tuple[Problem, ...] = ()  # the sheet disagrees with itself (a heading's count)
    notes: tuple[Problem, ...] = ()  # what reading changed, e.g. extra-deck monsters moved (.ydk)


# --- headings ------------------------------------------------------------------------------------


@dataclass
class _Heading:
    line: int
    text: str
    low: int | None
    high: int | None
    listed: int = 0

    def problem(self) -> Problem | None:
        if self.low is None:
            return None
        high = self.high if self.high is not None else self.low
        if self.low <= self.listed <= high:
            return None
        stated = f"{self.low}〜{high}" if high != self.low else str(self.low)
        return Problem("heading-count", line=self.line, heading=self.text, stated=stated, count=self.listed)


_TITLE = re.compile(r"デッキレシピ|deck\s*(?:list|recipe)", re.IGNORECASE)


def _is_title(line: str) -> bool:
    return bool(_TITLE.search(line)) and not re.match(r"^\d", line)


class _Lines:
    """The sheet's cleaned lines, each line's card resolved once, on demand (a heading that is also a
    card name looks at the line after it). Lines are resolved a batch at a time (``BATCH_LINES`` lines
    from the first one asked for, through ``resolve_many``): a database index then asks one or two
    statements per batch, not one per card, and a sheet refused as too long is not read to its end."""

    def __init__(self, raw_lines: list[str], resolver: NameResolver):
        self.lines = [sheetlines.clean_line(raw) for raw in raw_lines]
        self._resolver = resolver
        self._cards: dict[int, tuple[CardFacts | None, int, str]] = {}
        self._known: dict[str, CardFacts | None] = {}  # every name asked so far

    def card(self, i: int) -> tuple[CardFacts | None, int, str]:
        """The card line ``i`` names, its count, and the name as written (None, 0, "" for none)."""
        if i not in self._cards:
            self._read_batch(i)
        return self._cards[i]

    def _ask(self, names: Iterable[str]) -> None:
        wanted = [n for n in dict.fromkeys(names) if n not in self._known]
        if wanted:
            self._known.update(self._resolver.resolve_many(wanted))

    def _read_batch(self, first: int) -> None:
        """Resolve line ``first`` and the next lines up to ``BATCH_LINES`` read ones: each line's most
        literal reading for all of them at once, then every reading of the lines that one did not name."""
        batch = [j for j in range(first, len(self.lines)) if j not in self._cards and not self.skipped(j)]
        batch = batch[:BATCH_LINES] if first in batch else [first]
        firsts = {j: next(sheetlines.iter_readings(self.lines[j]), None) for j in batch}
        self._ask(reading[0] for reading in firsts.values() if reading is not None)
        rest: dict[int, list[tuple[str, int]]] = {}
        for j, reading in firsts.items():
            if reading is not None and self._known[reading[0]] is not None:
                self._cards[j] = (self._known[reading[0]], reading[1], reading[0])
            else:
                rest[j] = list(sheetlines.iter_readings(self.lines[j]))
        self._ask(name for readings in rest.values() for name, _ in readings)
        for j, readings in rest.items():
            self._cards[j] = _first_found(readings, self._known)

    def skipped(self, i: int) -> bool:
        line = self.lines[i]
        return not line or line.startswith(("//", "--")) or sheetlines.is_decoration(line)

    def next_card(self, i: int) -> CardFacts | None:
        for j in range(i + 1, len(self.lines)):
            if not self.skipped(j):
                return self.card(j)[0]
        return None

    def is_heading(self, i: int, match: re.Match[str]) -> bool:
        """A heading unless the line is also a card name written as a card: ``融合`` is Polymerization
        in a list of spells and a heading above fusion monsters; ``【融合】`` is always a heading."""
        card = self.card(i)[0]
        if card is None or sheetlines.decorated(self.lines[i]):
            return True
        following = self.next_card(i)
        return sheetlines.opens_extra(match) and following is not None and following.extra_kind is not None


@dataclass
class _Reading:
    sections: dict[str, list[int]] = field(default_factory=lambda: {s: [] for s in SECTIONS})
    current: str = "main"
    unknown: list[UnknownName] = field(default_factory=list)
    written: dict[int, str] = field(default_factory=dict)
    headings: list[_Heading] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)
    open_section: _Heading | None = None
    open_group: _Heading | None = None
    card_lines: int = 0

    def heading(self, number: int, line: str, match: re.Match[str]) -> None:
        low, high = match.group("low"), match.group("high")
        heading = _Heading(number, line, int(low) if low else None, int(high) if high else None)
        if match.group("total"):
            return  # "総数[60]": whether main or all sections is unclear, so not checked
        self.headings.append(heading)
        if match.group("group") or match.group("extragroup"):
            if sheetlines.opens_extra(match) and self.current == "main":
                self.current, self.open_section = "extra", None  # "融合/シンクロ/…" lists the extra deck
            self.open_group = heading
        else:
            self.current = next(s for s in SECTIONS if match.group(s))
            self.open_section, self.open_group = heading, None

    def listed(self, count: int) -> None:
        for counted in (self.open_section, self.open_group):
            if counted is not None:
                counted.listed += count


def read_text_sheet(text: str, resolver: NameResolver) -> TextSheet:
    raw_lines = text.splitlines()
    if len(raw_lines) > MAX_LINES:
        raise DeckTooLong(MAX_CARD_LINES, MAX_LINES + 1)  # before any line is cleaned or looked up
    lines = _Lines(raw_lines, resolver)
    state = _Reading()
    for i, line in enumerate(lines.lines):
        number = i + 1
        if lines.skipped(i):
            continue
        if sheetlines.is_remark(line):
            state.notes.append(Problem("sheet-remark", line=number, text=line[:60]))
            continue
        card, count, written = lines.card(i)
        ambiguous = card is None or sheetlines.heading_like(card.name_ja) or sheetlines.heading_like(card.name_en)
        match = sheetlines.heading(line) if ambiguous else None
        if match is not None and lines.is_heading(i, match):
            state.heading(number, line, match)
            continue
        if card is None and (line.startswith("#") or _is_title(line)):
            continue
        state.card_lines += 1
        if state.card_lines > MAX_CARD_LINES:
            raise DeckTooLong(MAX_CARD_LINES, number)
        if card is not None:
            state.sections[state.current].extend([card.passcode] * count)
            state.written.setdefault(card.passcode, written)
        else:
            name, count = sheetlines.unknown_reading(line)
            if count > MAX_COPIES:
                raise DeckFormatError(f"{count} copies of one card", number)
            matches = tuple(resolver.suggest(name)) if len(state.unknown) < MAX_SUGGESTED else ()
            state.unknown.append(UnknownName(number, name, count, state.current, matches))
        state.listed(count)
    sections = state.sections
    deck = Deck(tuple(sections["main"]), tuple(sections["extra"]), tuple(sections["side"]))
    problems = tuple(p for p in (h.problem() for h in state.headings) if p is not None)
    return TextSheet(deck, tuple(state.unknown), state.written, problems=problems, notes=tuple(state.notes))


def _first_found(
    options: Iterable[tuple[str, int]], known: dict[str, CardFacts | None]
) -> tuple[CardFacts | None, int, str]:
    """The first reading, most literal first, whose name was resolved to a card."""
    for name, count in options:
        card = known[name]
        if card is not None:
            return card, count, name
    return None, 0, ""


# --- writing -------------------------------------------------------------------------------------

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
