"""taikai banlist import FILE... [--allow-older] | list | show NAME [--json]"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from taikai import messages
from taikai.cards.texts import LIMIT_NAMES
from taikai.cli import texts  # noqa: F401  (registers the command line's texts)
from taikai.cli.cards import import_action
from taikai.cli.parsing import action, command_group
from taikai.core.problems import Problem


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    bsub = command_group(sub, "banlist", "Forbidden/Limited lists / 禁止・制限リスト")
    import_action(bsub, "import lflist.conf files (every !NAME list in them)", cmd_import)
    action(bsub, "list", "the imported lists").set_defaults(func=cmd_list)
    show = action(bsub, "show", "the cards on one list")
    show.add_argument("name")
    show.add_argument("--json", action="store_true")
    show.set_defaults(func=cmd_show)


def cmd_import(args: argparse.Namespace) -> int:
    from taikai.server import setup

    setup()
    from taikai.cards import services
    from taikai.cards.lflist import LflistError
    from taikai.cli.cards import print_record
    from taikai.events.actors import System

    lang = messages.cli_language(args.lang)
    for path in map(Path, args.files):
        try:
            record = services.import_lflist_file(path, actor=System("taikai banlist"), allow_older=args.allow_older)
        except (OSError, UnicodeDecodeError, LflistError) as exc:
            sys.stderr.write(f"taikai banlist import: {path}: {exc}\n")
            return 2
        print_record(record, lang)
        print("  " + ", ".join(record.summary.get("lists", [])[:10]))
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from taikai.server import setup

    setup()
    from taikai.cards.models import Banlist

    for banlist in Banlist.objects.filter(frozen=False):
        print(f"{banlist.name}\t{banlist.entries.count()}\t{banlist.imported_at:%Y-%m-%d}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    lang = messages.cli_language(args.lang)
    from taikai.server import setup

    setup()
    from taikai.cards.index import DbCardIndex
    from taikai.cards.services import library_banlist

    banlist = library_banlist(args.name)
    if banlist is None:
        sys.stderr.write(messages.text(Problem("no-banlist", name=args.name), lang) + "\n")
        return 2
    entries = list(banlist.entries.order_by("limit", "passcode").values_list("passcode", "limit", "comment"))
    cards = DbCardIndex().facts(p for p, _, _ in entries)
    names = {p: card.name(lang) if (card := cards.get(p)) else comment for p, _, comment in entries}
    rows = [{"card": passcode, "limit": limit, "name": names[passcode]} for passcode, limit, _ in entries]
    if args.json:
        print(json.dumps({"name": banlist.name, "whitelist": banlist.whitelist, "entries": rows}, ensure_ascii=False))
        return 0
    print(f"!{banlist.name}" + (" ($whitelist)" if banlist.whitelist else ""))
    for passcode, limit, _ in entries:
        label = LIMIT_NAMES[lang].get(limit, str(limit))
        print(f"{label}\t{passcode}\t{names[passcode]}")
    return 0
