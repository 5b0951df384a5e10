"""``lflist.conf``: Forbidden/Limited lists as YGOPro and EDOPro publish them.

``!NAME`` starts a list; ``PASSCODE COUNT --comment`` lines follow (COUNT 0, 1, 2, or 3 for an
explicit "unlimited"); ``#`` lines are comments; ``$whitelist`` makes the current list a whitelist
(every card it does not name is forbidden). Passcodes may have leading zeros.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from taikai.core.deck import Banlist

_ENTRY = re.compile(r"^0*(\d{1,10})\s+(-?\d+)(?:\s*(?:--|#)\s*(.*))?\s*$")


class LflistError(ValueError):
    """A line that is not part of the format; ``line`` is 1-based."""

    def __init__(self, line: int, reason: str):
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass
class ParsedList:
    name: str
    entries: dict[int, int] = field(default_factory=dict)
    comments: dict[int, str] = field(default_factory=dict)
    whitelist: bool = False

    def banlist(self) -> Banlist:
        return Banlist(self.name, dict(self.entries), self.whitelist)


def parse_lflist(text: str) -> list[ParsedList]:
    """Every list in the file, in file order. Raises ``LflistError`` naming the first bad line."""
    lists: list[ParsedList] = []
    current: ParsedList | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith("#"):
            continue
        if line.startswith("!"):
            name = line[1:].strip()
            if not name:
                raise LflistError(number, "a list needs a name after '!'")
            current = ParsedList(name)
            lists.append(current)
            continue
        if current is None:
            raise LflistError(number, "an entry before the first '!name' line")
        if line.startswith("$"):
            if line.split()[0].lower() == "$whitelist":
                current.whitelist = True
            continue  # other EDOPro directives do not change limits
        match = _ENTRY.match(line)
        if match is None:
            raise LflistError(number, f"expected 'PASSCODE COUNT --comment', got {line[:40]!r}")
        passcode, count = int(match.group(1)), int(match.group(2))
        if not 0 <= count <= 3:
            raise LflistError(number, f"count {count} is not 0, 1, 2 or 3")
        current.entries[passcode] = count
        if match.group(3):
            current.comments[passcode] = match.group(3).strip()
    return lists


def find_list(lists: list[ParsedList], name: str) -> ParsedList | None:
    """The list called ``name`` (exact, then ignoring case and spaces)."""
    for parsed in lists:
        if parsed.name == name:
            return parsed
    squashed = name.replace(" ", "").casefold()
    for parsed in lists:
        if parsed.name.replace(" ", "").casefold() == squashed:
            return parsed
    return None


def write_lflist(lists: list[ParsedList]) -> str:
    lines = []
    for parsed in lists:
        lines.append(f"!{parsed.name}")
        if parsed.whitelist:
            lines.append("$whitelist")
        for passcode, count in sorted(parsed.entries.items(), key=lambda e: (e[1], e[0])):
            comment = parsed.comments.get(passcode)
            lines.append(f"{passcode} {count}" + (f" --{comment}" if comment else ""))
    return "\n".join(lines) + "\n"
