"""`taikai follow serve|push`: the public follower (issue 29).

On the internet: `taikai follow serve` (the same as `TAIKAI_ROLE=follower taikai serve`, usually on PostgreSQL)
serves read-only copies of the venue's events; `taikai token create --scope follow` makes the pairing token
there. At the venue: `taikai serve` with `TAIKAI_FOLLOWER_URL` and `TAIKAI_FOLLOWER_TOKEN` keeps the connection
beside the web processes, or `taikai follow push --to URL --token T` runs it alone in the foreground.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("follow", help="the public follower / 公開フォロワー")
    actions = p.add_subparsers(dest="follow_command", metavar="ACTION")
    actions.required = True
    serve = actions.add_parser("serve", help="serve the public copies (a follower) / 公開コピーを配信")
    serve.add_argument("--host", default=os.environ.get("TAIKAI_HOST", "0.0.0.0"))
    serve.add_argument("--port", type=int, default=int(os.environ.get("TAIKAI_PORT", "8000")))
    serve.add_argument("--workers", type=int, default=None)
    serve.set_defaults(func=cmd_serve)
    push = actions.add_parser("push", help="connect this venue to a follower / 会場からフォロワーへ接続")
    push.add_argument("--to", required=True, metavar="URL", help="the follower, e.g. https://follow.example.jp")
    push.add_argument("--token", required=True, help="the pairing token made on the follower")
    push.add_argument("--once", action="store_true", help="one round trip, then exit (0: it went through)")
    push.set_defaults(func=cmd_push)


def cmd_serve(args: argparse.Namespace) -> int:
    from taikai.cli import serve

    os.environ["TAIKAI_ROLE"] = "follower"  # read by the URL configuration, in this process and the workers
    return serve.cmd_serve(args)


def cmd_push(args: argparse.Namespace) -> int:
    from taikai.config import ConfigError
    from taikai.server import setup

    setup()
    from taikai.follow.config import check_url, retry
    from taikai.follow.venue import Pusher

    try:
        url = check_url(args.to, "--to")
        wait = retry()
    except ConfigError as exc:
        sys.stderr.write(f"taikai: {exc}\n")
        return 2
    pusher = Pusher(url=url, token=args.token, retry=wait)
    if args.once:
        try:
            pusher.turn()
            pusher.turn()  # the first asks what the follower holds, the second sends the difference
        except Exception as exc:
            sys.stderr.write(
                f"taikai: 公開フォロワーに届きません / the follower did not answer: {type(exc).__name__}\n"
            )
            return 1
        return 0
    stop = threading.Event()
    try:
        pusher.run(stop)
    except KeyboardInterrupt:
        stop.set()
    return 0


def create_token(label: str) -> int:
    """`taikai token create --scope follow`: run on the follower; the token is alone on the last line."""
    from taikai.server import setup

    setup()
    from taikai.follow.follower import create_token as make

    row, token = make(label)
    print(f"follow token {row.prefix}… (scope follow); give it to the venue, shown once / 一度だけ表示:")
    print(token)
    return 0


def list_tokens() -> None:
    from taikai.follow.models import FollowToken

    for row in FollowToken.objects.order_by("id"):
        state = "revoked" if row.revoked_at else "active"
        print(f"{row.prefix}\t-\tfollow\t-\t{state}\t{row.label}")


def revoke_token(prefix: str) -> int:
    from taikai.follow.follower import revoke_token as revoke

    row = revoke(prefix[:10])
    if row is None:
        sys.stderr.write(f"taikai: no follow token {prefix[:10]}\n")
        return 2
    print(f"revoked {row.prefix}…")
    return 0
