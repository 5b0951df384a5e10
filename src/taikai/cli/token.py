"""`taikai token create|list|revoke`: API tokens from the command line, for scripts and bots.

`taikai token create USERNAME` makes a site token: it creates events (when the user is a site organizer) and
acts in each event with the user's own role there. With `--event ID` the token is for that event only, with
the lower of the user's role there and `--role`. The token is printed alone on the last line of standard
output, once; only its hash is kept.
"""

from __future__ import annotations

import argparse
import sys

ROLES = ["organizer", "head_judge", "judge"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("token", help="API tokens: create, list, revoke / API トークン")
    actions = p.add_subparsers(dest="token_command", metavar="ACTION")
    actions.required = True
    create = actions.add_parser("create", help="a new token, printed once / トークン発行")
    create.add_argument("username", nargs="?", default=None, help="the account (not for --scope follow)")
    create.add_argument("--event", type=int, default=None, help="an event's id; without it, a site token")
    create.add_argument("--role", choices=ROLES, default=None, help="the highest role the token acts with")
    create.add_argument("--expires", type=int, default=None, metavar="DAYS", help="expires after DAYS days")
    create.add_argument("--label", default="", help="a note to tell tokens apart")
    create.add_argument("--lang", choices=["ja", "en"], default=None)
    create.add_argument(
        "--scope", choices=["follow"], default=None, help="follow: a venue's pairing with this follower"
    )
    create.set_defaults(func=cmd_create)
    listing = actions.add_parser("list", help="tokens (prefix, user, event, role, state) / 一覧")
    listing.add_argument("username", nargs="?", default=None)
    listing.set_defaults(func=cmd_list)
    revoke = actions.add_parser("revoke", help="revoke a token by its prefix or the token / 取り消し")
    revoke.add_argument("token", help="the prefix shown by `taikai token list` (tk_…), or the whole token")
    revoke.add_argument("--lang", choices=["ja", "en"], default=None)
    revoke.set_defaults(func=cmd_revoke)


def problem_line(exc: Exception, lang: str | None) -> str:
    """The service's problem as one line in the user's language (--lang, else the locale)."""
    from django.utils import translation

    from taikai.events.texts import problem_text
    from taikai.messages import cli_language

    problem = getattr(exc, "problem", None)
    if problem is None:
        return str(exc)
    with translation.override(cli_language(lang)):
        return problem_text(problem).replace("\n", " ")


def _fail(exc: Exception, lang: str | None) -> int:
    sys.stderr.write(problem_line(exc, lang) + "\n")
    return 2


def cmd_create(args: argparse.Namespace) -> int:
    from taikai.cli import follow
    from taikai.server import setup

    if args.scope == "follow":  # a follower's pairing token (taikai.follow), not an account's
        return follow.create_token(args.label)
    if args.username is None:
        sys.stderr.write("taikai token create: USERNAME is required / ユーザー名が必要です\n")
        return 2

    setup()
    from taikai.events.actors import System
    from taikai.events.errors import PermissionDenied, ServiceError
    from taikai.events.models import Event
    from taikai.tokens import services

    by = System("taikai token create")
    try:
        if args.event is None:
            row, token = services.create_site_token(
                by=by,
                username=args.username,
                role=args.role or "organizer",
                label=args.label,
                expires_days=args.expires,
            )
        else:
            event = Event.objects.filter(pk=args.event).first()
            if event is None:
                raise ServiceError("unknown-event", event=args.event)
            row, token = services.create_token(
                event,
                by=by,
                username=args.username,
                role=args.role or "organizer",
                label=args.label,
                expires_days=args.expires,
            )
    except (ServiceError, PermissionDenied) as exc:
        return _fail(exc, args.lang)
    scope = f"event {row.event_id}" if row.event_id else "site"
    expires = f", expires {row.expires_at:%Y-%m-%d %H:%M}" if row.expires_at else ""
    print(f"token {row.prefix}… for {args.username} ({scope}, {row.role}{expires}); shown once / 一度だけ表示:")
    print(token)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from taikai.server import setup

    setup()
    from taikai.tokens.models import ApiToken

    rows = ApiToken.objects.select_related("user").order_by("id")
    if args.username:
        rows = rows.filter(user__username=args.username)
    for row in rows:
        state = "revoked" if row.revoked_at else "active"
        if row.expires_at:
            state += f" until {row.expires_at:%Y-%m-%d}"
        scope = f"event={row.event_id}" if row.event_id else "site"
        print(f"{row.prefix}\t{row.user.get_username()}\t{scope}\t{row.role}\t{state}\t{row.label}")
    if not args.username:
        from taikai.cli import follow

        follow.list_tokens()
    return 0


def cmd_revoke(args: argparse.Namespace) -> int:
    from taikai.server import setup

    setup()
    from taikai.events.actors import System
    from taikai.events.errors import PermissionDenied, ServiceError
    from taikai.follow.protocol import TOKEN_PREFIX
    from taikai.tokens import services

    if args.token.startswith(TOKEN_PREFIX):
        from taikai.cli import follow

        return follow.revoke_token(args.token)
    try:
        row = services.revoke_token(services.token_by_prefix(args.token), by=System("taikai token revoke"))
    except (ServiceError, PermissionDenied) as exc:
        return _fail(exc, args.lang)
    print(f"revoked {row.prefix}…")
    return 0
