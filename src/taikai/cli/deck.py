"""taikai deck check DECKFILE [--cards CDB]... [--banlist LFLIST [--list NAME]] [--ruleset NAME] [--date D] [--json]
taikai deck lock-due   (stamp the lock on lists whose deadline has passed; needs the database)

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
from taikai.cards.formats import DeckFormatError, read_deck, sort_ydk
from taikai.cards.index import CardIndex, MemoryCardIndex
from taikai.cards.lflist import LflistError, find_list, parse_lflist
from taikai.cards.sources import CardSourceError
from taikai.cli.ruleset import load as load_ruleset
from taikai.core import ruleset as rs
from taikai.core.deck import Banlist, CardFacts, check_deck
from taikai.core.problems import Problem

messages.register("deck-legal", "使用できるデッキです", "legal deck")
messages.register("deck-illegal", "使用できないデッキです（問題 {n} 件）", "illegal deck ({n} problems)")
messages.register("deck-no-banlist", "（禁止・制限リストは適用していません）", "(no Forbidden/Limited list applied)")


class Unreadable(Exception):
    """Input the command cannot use; the message is the one stderr line."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("deck", help="deck lists: check legality / デッキ")
    dsub = p.add_subparsers(dest="action", metavar="ACTION")
    dsub.required = True
    check = dsub.add_parser("check", help="check a .ydk, ydke:// or text deck sheet")
    check.add_argument("deckfile")
    check.add_argument("--cards", action="append", default=[], metavar="CDB", help="cards.cdb (repeatable)")
    check.add_argument("--banlist", metavar="LFLIST", help="an lflist.conf file")
    check.add_argument("--list", dest="list_name", metavar="NAME", help="the list to use (!NAME)")
    check.add_argument("--ruleset", default="modern", help="a built-in ruleset name or a .toml file")
    check.add_argument("--date", help="the event date, YYYY-MM-DD (default: today)")
    check.add_argument("--json", action="store_true")
    check.add_argument("--lang", choices=messages.LANGS)
    check.set_defaults(func=cmd_check)
    due = dsub.add_parser("lock-due", help="stamp the lock on lists whose deadline has passed (run from cron)")
    due.set_defaults(func=cmd_lock_due)


def cmd_lock_due(args: argparse.Namespace) -> int:
    """DECK-9: write the lock the deadline brought (pages only show it); safe to run every minute."""
    from taikai.cli.django_setup import setup

    setup()
    from taikai.decks.lock import events_due, lock_due

    for event in events_due():
        print(f"{event.pk}\t{event.name}\t{lock_due(event)}")
    return 0


def read_deck_file(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise Unreadable(f"{path}: {exc.strerror or exc}") from exc
    for encoding in ("utf-8-sig", "cp932"):  # Japanese sheets saved on Windows come as Shift_JIS
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise Unreadable(f"{path}: not a text file (neither UTF-8 nor Shift_JIS)")


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
    from taikai.cli.django_setup import setup

    setup()
    from taikai.cards.index import DbCardIndex

    index = DbCardIndex()
    if len(index) == 0:
        raise Unreadable("no cards imported: run `taikai cards import FILE` or pass --cards CDB")
    return index


def _load_banlist(args: argparse.Namespace, ruleset: rs.Ruleset) -> Banlist | None:
    name = args.list_name or ruleset.deck.banlist
    if args.banlist:
        try:
            lists = parse_lflist(Path(args.banlist).read_bytes().decode("utf-8-sig"))
        except (OSError, UnicodeDecodeError, LflistError) as exc:
            raise Unreadable(f"{args.banlist}: {exc}") from exc
        if not name and len(lists) == 1:
            return lists[0].banlist()
        found = find_list(lists, name) if name else None
        if found is None:
            names = ", ".join(p.name for p in lists[:10]) + (" ..." if len(lists) > 10 else "")
            raise Unreadable(f"{args.banlist}: choose a list with --list NAME ({names})")
        return found.banlist()
    if not name:
        return None
    from taikai.cli.django_setup import setup

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


def evaluate(args: argparse.Namespace) -> tuple[dict[str, Any], list[Problem], dict[int, CardFacts], bool]:
    path = Path(args.deckfile)
    text = read_deck_file(path)
    try:
        ruleset = load_ruleset(args.ruleset)
    except rs.RulesetError as exc:
        raise Unreadable(f"--ruleset {args.ruleset}: {exc}") from exc
    event_date = _event_date(args.date)
    index = _load_index(args.cards)
    banlist = _load_banlist(args, ruleset)
    try:
        sheet = read_deck(text, index, path.name)
    except DeckFormatError as exc:
        raise Unreadable(f"{path}: {exc}") from exc
    deck = sort_ydk(sheet.deck, index) if sheet.format == "ydk" else sheet.deck
    cards = index.facts(deck.all_cards())
    problems = [u.problem() for u in sheet.unknown]
    problems += check_deck(deck, cards, banlist, ruleset, event_date)
    result = {"legal": not problems, "counts": deck.counts(), "problems": [p.as_dict() for p in problems]}
    return result, problems, cards, banlist is not None


def cmd_check(args: argparse.Namespace) -> int:
    lang = messages.cli_language(args.lang)
    try:
        result, problems, cards, with_banlist = evaluate(args)
    except Unreadable as exc:
        sys.stderr.write(f"taikai deck check: {exc}\n")
        return 2
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        counts = result["counts"]
        sizes = " / ".join(f"{texts.SECTION_NAMES[lang][s]} {n}" for s, n in counts.items())
        verdict = messages.text(Problem("deck-illegal", n=len(problems)) if problems else Problem("deck-legal"), lang)
        print(f"{args.deckfile}: {verdict} ({sizes})")
        for problem in problems:
            print(f"  - {texts.describe(problem, lang, cards)}")
        if not with_banlist:
            print(messages.text(Problem("deck-no-banlist"), lang))
    return 1 if problems else 0
