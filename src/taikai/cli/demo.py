"""taikai demo: create a realistic demo event (64 players, six Swiss rounds, a top 8)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("demo", help="create a demo event / デモ大会を作成")
    p.add_argument("--players", type=int, default=64)
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--top-cut", type=int, default=8)
    p.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    if not 4 <= args.players <= 4096 or not 1 <= args.rounds <= 20 or args.top_cut not in (0, 2, 4, 8, 16, 32, 64):
        print("taikai demo: --players 4..4096, --rounds 1..20, --top-cut 0/2/4/8/16/32/64")
        return 2
    from taikai.server import prepare

    prepare()
    from taikai.demo import create_demo

    event = create_demo(args.players, args.rounds, args.top_cut)
    print(f"デモ大会を作成しました / Demo event created: {event.name} (id {event.pk})")
    print(
        f"  organizer console: /events/{event.pk}/   public page: /e/{event.pk}/   projector: /e/{event.pk}/projector/"
    )
    return 0
