"""`taikai user create USERNAME [--organizer]`, `taikai user list` and `taikai user unlock USERNAME`: accounts
without the web pages.

The generated password is printed once (only its hash is stored); a name that exists is refused with exit
status 2 and one line on standard error.
"""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("user", help="accounts: create, list / アカウント")
    actions = p.add_subparsers(dest="user_command", metavar="ACTION")
    actions.required = True
    create = actions.add_parser("create", help="a new account with a generated password / アカウント作成")
    create.add_argument("username")
    create.add_argument("--organizer", action="store_true", help="may create events / 大会を作成できる主催者")
    create.add_argument("--lang", choices=["ja", "en"], default=None)
    create.set_defaults(func=cmd_create)
    listing = actions.add_parser("list", help="every account / アカウント一覧")
    listing.set_defaults(func=cmd_list)
    unlock = actions.add_parser("unlock", help="forget failed sign-ins for a name / サインインのロック解除")
    unlock.add_argument("username")
    unlock.set_defaults(func=cmd_unlock)


def cmd_create(args: argparse.Namespace) -> int:
    from taikai.server import setup

    setup()
    from taikai.cli.token import problem_line
    from taikai.events.actors import System
    from taikai.events.errors import ServiceError
    from taikai.events.services.accounts import create_account

    try:
        user, password = create_account(args.username, by=System("taikai user create"), organizer=args.organizer)
    except ServiceError as exc:
        sys.stderr.write(problem_line(exc, args.lang) + "\n")
        return 2
    kind = "organizer" if args.organizer else "staff"
    print(f"user: {user.get_username()} ({kind})")
    print("password (shown once / 一度だけ表示):")
    print(password)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from taikai.server import setup

    setup()
    from taikai.events.services.accounts import list_accounts

    for row in list_accounts():
        flags = ["organizer" if row.organizer else "staff"]
        if not row.active:
            flags.append("inactive")
        print(f"{row.username}\t{','.join(flags)}\tevents={row.events}")
    return 0


def cmd_unlock(args: argparse.Namespace) -> int:
    """Someone's failed guesses locked a name out of new devices: clear them (the owner signs in at once)."""
    from taikai.server import setup

    setup()
    from django.contrib.auth import get_user_model

    from taikai.security.throttle import unlock_name

    if not get_user_model().objects.filter(username=args.username).exists():
        sys.stderr.write(f"taikai user unlock: no account named {args.username!r} / そのアカウントはありません\n")
        return 2
    cleared = unlock_name(args.username)
    print(f"unlocked {args.username}: {cleared} failed sign-in(s) forgotten / ロックを解除しました")
    return 0
