"""Text deck sheets (デッキ記入シート, deck lists in blogs and shops) in Japanese or English.

Read as people write them: ``3 Name``, ``Name x3``, ``《名前》×3``, ``《名前》3``, ``名前3``, ``名前 3枚``;
headings with counts (``【メインデッキ】(42枚)``, ``[魔法 5〜6枚]``, ``◆ モンスター(22枚)``, ``総数[60]``) and
title lines (``【デッキ名】のデッキレシピ``) are headings, never cards; a trailing remark
(``(好み次第で1でもok)``, ``※...``) is ignored. A heading's count, where given, is checked against the
cards listed under it. Names are resolved through a ``NameResolver``; a name it does not know is
returned as an ``UnknownName`` with its line and the closest names, never guessed.

Pure (no database, no clock): call it before opening a write transaction.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Protocol

from taikai.core.deck import SECTIONS, CardFacts, Deck
from taikai.core.problems import Problem

MAX_CARD_LINES = 200  # a 90-card deck has at most 90 card lines; more is not a deck list
MAX_LINES = 2_000
MAX_SUGGESTED = 20  # names beyond this many unknown ones are reported without suggestions
MAX_COPIES = 60


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
    format: str = "text"  # "ydk", "ydke" or "text"
    problems: tuple[Problem, ...] = ()  # the sheet disagrees with itself (a heading's count)
    notes: tuple[Problem, ...] = ()  # what reading changed, e.g. extra-deck monsters moved (.ydk)


# --- headings ------------------------------------------------------------------------------------

_DECOR = "【】[]()<>〈〉《》「」『』◆◇■□●○★☆▼▽▶►◎◉♦・:=~-_ 　\t|"
_SECTION = (
    r"(?P<main>メインデッキ|メイン|main\s*deck|main|デッキ|deck)"
    r"|(?P<extra>エクストラデッキ|エクストラ|ex\s*デッキ|extra\s*deck|extra|ex)"
    r"|(?P<side>サイドデッキ|サイド|side\s*deck|side\s*board|side)"
)
_GROUP = (
    r"(?P<group>(?:通常|効果|儀式|融合|シンクロ|エクシーズ|リンク|ペンデュラム|チューナー)?モンスター"
    r"|魔法\s*[・/&]?\s*罠|魔法|罠|融合|シンクロ|エクシーズ|リンク|ペンデュラム"
    r"|(?:normal\s*|effect\s*|ritual\s*)?monsters?|spells?|traps?|fusions?|synchros?|xyzs?|links?)"
    r"(?:カード|\s*cards?)?"
)
_TOTAL = r"(?P<total>総数|合計|総枚数|計|total)"
_COUNT = r"(?P<low>\d{1,3})(?:\s*[〜~-]\s*(?P<high>\d{1,3}))?\s*(?:枚|cards?)?"
_HEADING = re.compile(rf"^(?:{_SECTION}|{_GROUP}|{_TOTAL})[\s{re.escape(_DECOR)}]*(?:{_COUNT})?$", re.IGNORECASE)
_TITLE = re.compile(r"デッキレシピ|deck\s*(?:list|recipe)", re.IGNORECASE)


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


def _heading(line: str) -> re.Match[str] | None:
    return _HEADING.match(line.strip(_DECOR))


def _is_title(line: str) -> bool:
    return bool(_TITLE.search(line)) and not re.match(r"^\d", line)


# --- card lines ----------------------------------------------------------------------------------

_BULLET = re.compile(r"^(?:[-・•*◆◇■□●○★☆▼▽▶►]\s*)+(?=\S)")
_REMARK = re.compile(r"\s*(?:\([^()]*\)|※.*)\s*$")
_BRACKETS = "《》「」『』〈〉<>【】"
_PATTERNS = (
    # (pattern, name group, count group)
    (re.compile(r"^(\d{1,2})\s*(?:[x×*]\s*)?(?:枚\s*)?\s+(.+)$", re.IGNORECASE), 2, 1),  # 3 Name, 3x Name
    (re.compile(r"^(\d{1,2})\s*[x×*]\s*(.+)$", re.IGNORECASE), 2, 1),  # 3x《Name》
    (re.compile(r"^(.+?)\s*[x×*]\s*(\d{1,2})\s*枚?$", re.IGNORECASE), 1, 2),  # Name ×3, 名前*3
    (re.compile(r"^(.+?)\s*(\d{1,2})\s*枚$"), 1, 2),  # 名前 3枚
    (re.compile(r"^(.+?[》」』])\s*(\d{1,2})$"), 1, 2),  # 《名前》3
    (re.compile(r"^(.+?\S)\s+(\d)$"), 1, 2),  # Name 3
    (re.compile(r"^(.*\D)(\d)$"), 1, 2),  # 名前3 (one digit: "No.39" is not 39 copies)
)


def _clean_name(name: str) -> str:
    return name.strip().strip(_BRACKETS).strip()


def readings(line: str) -> list[tuple[str, int]]:
    """The ways a card line can be read: the whole line as a name first, then with a count."""
    texts = [line]
    without_remark = _REMARK.sub("", line)
    if without_remark and without_remark != line:
        texts.append(without_remark)
    out: list[tuple[str, int]] = []
    for text in texts:
        out.append((_clean_name(text), 1))
        for pattern, name_group, count_group in _PATTERNS:
            match = pattern.match(text)
            if match:
                out.append((_clean_name(match.group(name_group)), int(match.group(count_group))))
    return [(name, count) for name, count in out if name]


def _unknown_reading(line: str) -> tuple[str, int]:
    """The reading to report for a name nobody knows: without the remark, the count taken off."""
    text = _REMARK.sub("", line) or line
    for pattern, name_group, count_group in _PATTERNS:
        match = pattern.match(text)
        if match and _clean_name(match.group(name_group)):
            return _clean_name(match.group(name_group)), int(match.group(count_group))
    return _clean_name(text) or text, 1


def read_text_sheet(text: str, resolver: NameResolver) -> TextSheet:
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise DeckTooLong(MAX_CARD_LINES, MAX_LINES + 1)
    sections: dict[str, list[int]] = {s: [] for s in SECTIONS}
    current = "main"
    unknown: list[UnknownName] = []
    written: dict[int, str] = {}
    headings: list[_Heading] = []
    open_section: _Heading | None = None
    open_group: _Heading | None = None
    card_lines = 0
    for number, raw in enumerate(lines, start=1):
        line = _BULLET.sub("", unicodedata.normalize("NFKC", raw).strip().lstrip("\ufeff")).strip()
        if not line or line.startswith(("//", "--")):
            continue
        options = readings(line)
        card, count = _resolve(options, resolver)
        if card is None:
            match = _heading(line)
            if match is not None:
                low, high = match.group("low"), match.group("high")
                heading = _Heading(number, line, int(low) if low else None, int(high) if high else None)
                if match.group("total"):
                    continue  # "総数[60]": whether main or all sections is unclear, so not checked
                headings.append(heading)
                if match.group("group"):
                    open_group = heading
                else:
                    current = next(s for s in SECTIONS if match.group(s))
                    open_section, open_group = heading, None
                continue
            if line.startswith("#") or _is_title(line):
                continue
        card_lines += 1
        if card_lines > MAX_CARD_LINES:
            raise DeckTooLong(MAX_CARD_LINES, number)
        if card is not None:
            sections[current].extend([card.passcode] * count)
            written.setdefault(card.passcode, options[0][0])
        else:
            name, count = _unknown_reading(line)
            if count > MAX_COPIES:
                raise DeckFormatError(f"{count} copies of one card", number)
            matches = tuple(resolver.suggest(name)) if len(unknown) < MAX_SUGGESTED else ()
            unknown.append(UnknownName(number, name, count, current, matches))
        for counted in (open_section, open_group):
            if counted is not None:
                counted.listed += count
    deck = Deck(tuple(sections["main"]), tuple(sections["extra"]), tuple(sections["side"]))
    problems = tuple(p for p in (h.problem() for h in headings) if p is not None)
    return TextSheet(deck, tuple(unknown), written, problems=problems)


def _resolve(options: list[tuple[str, int]], resolver: NameResolver) -> tuple[CardFacts | None, int]:
    for name, count in options:
        card = resolver.resolve(name)
        if card is not None:
            return card, count
    return None, 0


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
