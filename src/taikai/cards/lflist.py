"""``lflist.conf``: Forbidden/Limited lists as YGOPro and EDOPro publish them.

``!NAME`` starts a list; ``PASSCODE COUNT --comment`` lines follow (COUNT 0, 1, 2, or 3 for an
explicit "unlimited"); ``#`` lines are comments; ``$whitelist`` makes the current list a whitelist
(every card it does not name is forbidden). Passcodes may have leading zeros.

Read as EDOPro reads it: an entry is split where EDOPro splits it (passcode, first space, count, then
anything: ``63166095 0 -Sky Striker Mobilize – Engage!`` is an entry); a line EDOPro cannot read is
skipped with a warning naming it (ProjectIgnis' Speed list has ``--SS05 Bakura``); a negative count
(its Rush pre-release list has ``1 -1``) allows no copy in EDOPro, so it is read as Forbidden, with a
warning. Only a file with no list at all is refused. A ``$genesys`` list gives cards points, not limits:
taikai's events have no points format, so such a list is left out with one warning instead of being
read as limits.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date

from taikai.core.deck import Banlist
from taikai.core.problems import Problem

# As EDOPro's ``LoadLFListSingle`` splits an entry: the passcode up to the first space, the count right
# after it, and anything after the count a comment ("63166095 0 -Sky Striker Mobilize – Engage!").
_CODE = re.compile(r"^\+?0*(\d{1,10})")
_COUNT = re.compile(r"^[ \t]*([+-]?\d+)")
MAX_LINES = 200_000  # the 102-list ygopro file has 21,000 lines
# A list's date in its name, as the publishers write it: "2026.07 OCG", "2026.7", "2013.3.1", "2026.5 TCG".
_NAME_DATE = re.compile(r"(?<!\d)((?:19|20)\d\d)[.\-/](\d{1,2})(?:[.\-/](\d{1,2}))?(?!\d)")


class LflistError(ValueError):
    """A file that holds no list; ``line`` is 1-based (0: the whole file)."""

    def __init__(self, line: int, reason: str):
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.line = line
        self.reason = reason


@dataclass
class ParsedList:
    name: str
    entries: dict[int, int] = field(default_factory=dict)
    comments: dict[int, str] = field(default_factory=dict)
    whitelist: bool = False
    points: bool = False  # a $genesys points list
    edition: date | None = None  # what the list is as of (list_date of its name unless the source says)
    dated_by: str = "name"  # where the edition comes from: "name", or "document" (a YGOPRODeck document)

    def banlist(self) -> Banlist:
        return Banlist(self.name, dict(self.entries), self.whitelist)


@dataclass
class LflistFile:
    lists: list[ParsedList]
    # Problem("lflist-line-skipped", line=, text=) and Problem("lflist-points-list", name=)
    warnings: list[Problem] = field(default_factory=list)


def _skip(warnings: list[Problem], number: int, line: str) -> None:
    warnings.append(Problem("lflist-line-skipped", line=number, text=line[:60]))


def _entry(line: str) -> tuple[int, int, str] | None:
    """``(passcode, count, comment)`` of an entry line as EDOPro reads it, or None where EDOPro skips it."""
    split = re.search(r"[ \t]", line)
    code = _CODE.match(line[: split.start()]) if split else None
    if split is None or code is None or not 0 < int(code.group(1)) <= 0xFFFFFFFF:
        return None
    rest = line[split.start() :]
    count = _COUNT.match(rest)
    if count is None:
        return None
    comment = rest[count.end() :].strip().lstrip("-#").strip()
    return int(code.group(1)), int(count.group(1)), comment


def read_lflist(text: str) -> LflistFile:
    """Every list in the file, in file order, and a warning for each line skipped.

    Pure (no database): call it before opening a write transaction. Raises ``LflistError`` only when
    the file holds no list at all, or is beyond ``MAX_LINES``."""
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise LflistError(0, f"{len(lines)} lines (at most {MAX_LINES})")
    lists: list[ParsedList] = []
    warnings: list[Problem] = []
    current: ParsedList | None = None
    for number, raw in enumerate(lines, start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith(("#", "--")):
            continue  # "--SS05 Bakura": a comment with no entry before it
        if line.startswith("!"):
            name = line[1:].strip()
            if not name:
                _skip(warnings, number, line)
                current = None  # the entries under a nameless header belong to no list
                continue
            current = ParsedList(name, edition=list_date(name))
            lists.append(current)
            continue
        if current is None:
            _skip(warnings, number, line)
            continue
        if line.startswith("$"):
            directive = line.split()[0].lower()
            current.whitelist = current.whitelist or directive == "$whitelist"
            current.points = current.points or directive == "$genesys"
            continue  # other EDOPro directives do not change limits
        entry = _entry(line)
        if entry is None or (entry[1] > 3 and not current.points):
            _skip(warnings, number, line)  # more than 3 would allow 3 anyway: skipped, it changes nothing
            continue
        passcode, count, comment = entry
        if count < 0:
            # EDOPro keeps it, and then no copy is allowed (any count is above it): Forbidden, said so.
            warnings.append(Problem("lflist-negative-count", line=number, text=line[:60]))
            count = 0
        current.entries[passcode] = count
        if comment:
            current.comments[passcode] = comment
    if not lists:
        raise LflistError(0, "no '!name' list in the file")
    warnings += [Problem("lflist-points-list", name=p.name) for p in lists if p.points]
    return LflistFile([p for p in lists if not p.points], warnings)


def list_date(name: str) -> date | None:
    """The date a list's name carries (``2026.07 OCG`` -> 2026-07-01), or None for a name without one."""
    match = _NAME_DATE.search(unicodedata.normalize("NFKC", name))
    if match is None:
        return None
    year, month, day = int(match.group(1)), int(match.group(2)), int(match.group(3) or 1)
    try:
        return date(year, month, day)
    except ValueError:
        return None


def parse_lflist(text: str) -> list[ParsedList]:
    """The readable lists of ``read_lflist`` (warnings dropped)."""
    return read_lflist(text).lists


def squash(name: str) -> str:
    """A list name compared without regard to width, case and spaces (``2026.5 tcg`` is ``2026.5TCG``,
    ``!２０１１．９．１`` is ``2011.9.1``)."""
    return "".join(unicodedata.normalize("NFKC", name).split()).casefold()


def find_list(lists: list[ParsedList], name: str) -> ParsedList | None:
    """The list called ``name`` (exact, then ignoring case and spaces)."""
    for parsed in lists:
        if parsed.name == name:
            return parsed
    for parsed in lists:
        if squash(parsed.name) == squash(name):
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
