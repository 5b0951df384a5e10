"""taikai deck check PATH [--cards CDB]... [--banlist LFLIST [--list NAME]] [--ruleset NAME] [--date D] [--json]
taikai deck export EVENT [--player ID] [--format ydk|ydke|omega|sheet] [--out FILE]
taikai deck lock-due   (stamp the lock on lists whose deadline has passed; needs the database)

``check`` takes a deck file or a folder of them (checked in one process, one table row per file).
Exit status: 0 legal, 1 illegal, 2 input that cannot be read (one line on stderr naming the problem).
With ``--cards`` (and ``--banlist``) no database is needed; otherwise the imported cards and the
library F/L list named by ``--list`` or the ruleset are used.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

from taikai import messages
from taikai.cards import texts
from taikai.cards.check import DeckCheck, check_resolved, resolve_deck_text
from taikai.cards.deck_formats import FORMATS, exported
from taikai.cards.formats import DeckFormatError, decode_bytes
from taikai.cards.index import CardIndex, MemoryCardIndex
from taikai.cards.lflist import LflistError, find_list, read_lflist
from taikai.cards.sources import CardSourceError
from taikai.cli import texts as _cli_texts  # noqa: F401  (registers the command line's texts)
from taikai.cli.ruleset import load as load_ruleset
from taikai.core import ruleset as rs
from taikai.core.deck import Banlist
from taikai.core.problems import Problem

DECK_SUFFIXES = (".ydk", ".txt", ".ydke", "")
MAX_FILE_BYTES = 64 * 1024


class Unreadable(Exception):
    """Input the command cannot use; the message is the one stderr line."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("deck", help="deck lists: check legality, export / デッキ")
    dsub = p.add_subparsers(dest="action", metavar="ACTION")
    dsub.required = True
    check = dsub.add_parser("check", help="check a .ydk, ydke:// or text deck sheet, or a folder of them")
    check.add_argument("deckfile", metavar="PATH")
    check.add_argument("--cards", action="append", default=[], metavar="CDB", help="cards.cdb (repeatable)")
    check.add_argument("--banlist", metavar="LFLIST", help="an lflist.conf file")
    check.add_argument("--list", dest="list_name", metavar="NAME", help="the list to use (!NAME)")
    check.add_argument("--ruleset", default="modern", help="a built-in ruleset name or a .toml file")
    check.add_argument("--date", help="the event date, YYYY-MM-DD (default: today)")
    check.add_argument("--json", action="store_true")
    check.add_argument("--lang", choices=messages.LANGS)
    check.set_defaults(func=cmd_check)
    export = dsub.add_parser("export", help="registered decks of an event: one to stdout, or all as a zip")
    export.add_argument("event", type=int, metavar="EVENT")
    export.add_argument("--player", type=int, help="one player's deck, written to stdout (or --out)")
    export.add_argument("--format", choices=[f.exported_as for f in FORMATS], default="ydk")
    export.add_argument("--out", metavar="FILE", help="where to write (default: stdout, or event-N-decks.zip)")
    export.add_argument("--lang", choices=messages.LANGS)
    export.set_defaults(func=cmd_export)
    due = dsub.add_parser("lock-due", help="stamp the lock on lists whose deadline has passed (run from cron)")
    due.set_defaults(func=cmd_lock_due)


def cmd_lock_due(args: argparse.Namespace) -> int:
    """DECK-9: write the lock the deadline brought (pages only show it); safe to run every minute."""
    from taikai.server import setup

    setup()
    from taikai.decks.lock import events_due, lock_due

    for event in events_due():
        print(f"{event.pk}\t{event.name}\t{lock_due(event)}")
    return 0


def read_deck_file(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise Unreadable(f"{path}: larger than {MAX_FILE_BYTES // 1024} KB: not a deck list")
        return decode_bytes(path.read_bytes())
    except OSError as exc:
        raise Unreadable(f"{path}: {exc.strerror or exc}") from exc
    except DeckFormatError as exc:
        raise Unreadable(f"{path}: {exc.reason}") from exc


@functools.lru_cache(maxsize=2)
def _memory_index(files: tuple[tuple[str, int, int], ...]) -> MemoryCardIndex:
    """Cached per (path, mtime, size), so checking many decks in one process reads the files once."""
    return MemoryCardIndex.from_cdb(path for path, _, _ in files)


def _load_index(paths: list[str]) -> CardIndex:
    if paths:
        try:
            stats = [(p, Path(p).stat()) for p in paths]
            return _memory_index(tuple((p, st.st_mtime_ns, st.st_size) for p, st in stats))
        except OSError as exc:
            raise Unreadable(f"{exc.filename}: {exc.strerror}") from exc
        except CardSourceError as exc:
            raise Unreadable(str(exc)) from exc
    from taikai.server import setup

    setup()
    from taikai.cards.index import DbCardIndex

    index = DbCardIndex()
    if len(index) == 0:
        raise Unreadable("no cards imported: run `taikai cards sync`, `taikai cards import FILE` or pass --cards CDB")
    return index


def _load_banlist(args: argparse.Namespace, ruleset: rs.Ruleset, lang: str) -> Banlist | None:
    name = args.list_name or ruleset.deck.banlist
    if args.banlist:
        try:
            parsed = read_lflist(decode_bytes(Path(args.banlist).read_bytes()))
        except OSError as exc:
            raise Unreadable(f"{args.banlist}: {exc.strerror or exc}") from exc
        except (DeckFormatError, LflistError) as exc:
            raise Unreadable(f"{args.banlist}: {exc}") from exc
        for warning in parsed.warnings:
            sys.stderr.write(f"{args.banlist}: {texts.describe(warning, lang)}\n")
        lists = parsed.lists
        if not name and len(lists) == 1:
            return lists[0].banlist()
        found = find_list(lists, name) if name else None
        if found is None:
            names = ", ".join(p.name for p in lists[:10]) + (" ..." if len(lists) > 10 else "")
            raise Unreadable(f"{args.banlist}: choose a list with --list NAME ({names})")
        return found.banlist()
    if not name:
        return None
    from taikai.server import setup

    setup()
    from taikai.cards.services import library_banlist

    stored = library_banlist(name)
    if stored is None:
        raise Unreadable(f"no Forbidden/Limited list named {name!r}: run `taikai banlist import FILE`")
    return stored.as_core()


def _event_date(value: str | None) -> date:
    if not value:
        return date.today()
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise Unreadable(f"--date {value!r}: expected YYYY-MM-DD") from exc


class Checker:
    """Everything a check needs, loaded once: the card index, the list, the ruleset, the date."""

    def __init__(self, args: argparse.Namespace, lang: str):
        try:
            self.ruleset = load_ruleset(args.ruleset)
        except rs.RulesetError as exc:
            raise Unreadable(f"--ruleset {args.ruleset}: {exc}") from exc
        self.event_date = _event_date(args.date)
        self.index = _load_index(args.cards)
        self.banlist = _load_banlist(args, self.ruleset, lang)

    def check(self, path: Path) -> DeckCheck:
        text = read_deck_file(path)
        try:
            resolved = resolve_deck_text(text, self.index, path.name)
        except DeckFormatError as exc:
            raise Unreadable(f"{path}: {exc}") from exc
        return check_resolved(resolved, ruleset=self.ruleset, banlist=self.banlist, event_date=self.event_date)


def evaluate(args: argparse.Namespace) -> tuple[dict[str, Any], DeckCheck, bool]:
    checker = Checker(args, messages.cli_language(getattr(args, "lang", None)))
    result = checker.check(Path(args.deckfile))
    return result.as_dict(), result, checker.banlist is not None


def _sizes(counts: dict[str, int], lang: str) -> str:
    return " / ".join(f"{texts.SECTION_NAMES[lang][s]} {n}" for s, n in counts.items())


def cmd_check(args: argparse.Namespace) -> int:
    lang = messages.cli_language(args.lang)
    if Path(args.deckfile).is_dir():
        return check_folder(args, lang)
    try:
        result, check, with_banlist = evaluate(args)
    except Unreadable as exc:
        sys.stderr.write(f"taikai deck check: {exc}\n")
        return 2
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        problems = check.problems
        verdict = messages.text(Problem("deck-illegal", n=len(problems)) if problems else Problem("deck-legal"), lang)
        print(f"{args.deckfile}: {verdict} ({_sizes(check.deck.counts(), lang)})")
        for problem in problems:
            print(f"  - {texts.describe(problem, lang, check.cards)}")
        for note in check.notes:
            print(f"  * {texts.describe(note, lang, check.cards)}")
        if not with_banlist:
            print(messages.text(Problem("deck-no-banlist"), lang))
    return 1 if check.problems else 0


def deck_files(folder: Path) -> list[Path]:
    return sorted(
        p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".") and p.suffix.lower() in DECK_SUFFIXES
    )


def check_folder(args: argparse.Namespace, lang: str) -> int:
    """Every deck file in a folder, in one process (the card index is read once), as a table."""
    import time

    start = time.perf_counter()
    folder = Path(args.deckfile)
    files = deck_files(folder)
    if not files:
        sys.stderr.write(messages.text(Problem("deck-empty-folder", path=folder), lang) + "\n")
        return 2
    try:
        checker = Checker(args, lang)
    except Unreadable as exc:
        sys.stderr.write(f"taikai deck check: {exc}\n")
        return 2
    rows: list[dict[str, Any]] = []
    for path in files:
        try:
            check = checker.check(path)
        except Unreadable as exc:
            rows.append({"file": path.name, "legal": None, "error": str(exc).removeprefix(f"{path}: ")})
            continue
        first = texts.describe(check.problems[0], lang, check.cards) if check.problems else ""
        rows.append({**check.as_dict(), "file": path.name, "first_problem": first})
    seconds = time.perf_counter() - start
    tally = {
        "n": len(rows),
        "legal": sum(1 for r in rows if r["legal"] is True),
        "illegal": sum(1 for r in rows if r["legal"] is False),
        "unreadable": sum(1 for r in rows if r["legal"] is None),
    }
    if args.json:
        print(json.dumps({"decks": rows, **tally, "seconds": round(seconds, 3)}, ensure_ascii=False))
    else:
        _print_table(rows, lang)
        print(messages.text(Problem("deck-folder-summary", seconds=seconds, **tally), lang))
    return 2 if tally["unreadable"] else 1 if tally["illegal"] else 0


def _print_table(rows: list[dict[str, Any]], lang: str) -> None:
    width = max(len(r["file"]) for r in rows)
    for row in rows:
        if row["legal"] is None:
            verdict = messages.text(Problem("deck-unreadable-row", reason=row["error"]), lang)
            print(f"{row['file']:<{width}}  {verdict}")
            continue
        n = len(row["problems"])
        verdict = messages.text(Problem("deck-illegal", n=n) if n else Problem("deck-legal"), lang)
        counts = "/".join(str(row["counts"][s]) for s in ("main", "extra", "side"))
        first = f"  {row['first_problem']}" if row["first_problem"] else ""
        print(f"{row['file']:<{width}}  {counts:>8}  {verdict}{first}")


def cmd_export(args: argparse.Namespace) -> int:
    """A registered deck as .ydk, ydke:// or a Japanese text sheet; all decks of an event as a zip."""
    lang = messages.cli_language(args.lang)
    from taikai.server import setup

    setup()
    from taikai.decks import export
    from taikai.events.models import Event

    event = Event.objects.filter(pk=args.event).first()
    if event is None:
        sys.stderr.write(f"taikai deck export: no event {args.event}\n")
        return 2
    if args.player is not None:
        registration = export.registration_for(event, args.player)
        if registration is None:
            sys.stderr.write(f"taikai deck export: player {args.player} has no registered deck in event {event.pk}\n")
            return 2
        fmt = exported(args.format)
        if fmt is None:
            sys.stderr.write(f"taikai deck export: no format {args.format}\n")
            return 2
        name, content = export.deck_file(registration, fmt, lang)
        if args.out:
            Path(args.out).write_text(content, "utf-8")
        else:
            sys.stdout.write(content)
        return 0
    target = Path(args.out or f"event-{event.pk}-decks.zip")
    data, count = export.event_zip(event, lang)
    target.write_bytes(data)
    print(f"{target}: {count}")
    return 0
