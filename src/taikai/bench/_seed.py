"""Seeding a live server's database, run inside the server's environment (``taikai.bench._live.seed`` starts it).

``python -m taikai.bench._seed seed --players N [--open-players K] [--top-cut M]`` creates an event with N
checked-in players (with M: a Swiss, then a top M single elimination),
pairs and starts round 1, and prints one JSON line: the event, its matches and the players' personal-link
tokens. With K, a second event whose round 1 has not started (deck lists still open) gets K checked-in players,
listed with their ids and tokens under "open".
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import Any


def seed_events(players: int, open_players: int = 0, top_cut: int = 0) -> dict[str, Any]:
    import datetime as dt

    from taikai.server import prepare

    with contextlib.redirect_stdout(sys.stderr):
        prepare()
    from django.contrib.auth import get_user_model

    from taikai.events.actors import Staff
    from taikai.events.services import clock as clock_services
    from taikai.events.services import events as event_services
    from taikai.events.services import registration
    from taikai.events.services import rounds as round_services

    organizer = Staff(get_user_model().objects.filter(is_superuser=True).order_by("id").first())
    event = event_services.create_event(
        by=organizer,
        name="負荷試験 / Load test",
        date=dt.date.today(),
        ruleset_name="harajuku-cs-1.2",
        format="swiss_cut" if top_cut else "swiss",
        top_cut=top_cut or None,
    )
    tokens = {}
    for i in range(players):
        p = registration.register_player(event, by=organizer, name=f"Player {i:05d}", card_game_id=f"{i:010d}")
        _, tokens[p.pk] = registration.check_in(p, by=organizer)
    rnd = round_services.pair_next_round(event, by=organizer)
    clock_services.start_round(rnd, by=organizer)
    matches = []
    for m in rnd.matches.filter(is_bye=False).order_by("table"):
        assert m.player_b_id is not None  # a table that is not a bye has two players
        matches.append({"id": str(m.pk), "a_token": tokens[m.player_a_id], "b_token": tokens[m.player_b_id]})
    seeded = {"event_id": event.pk, "round": rnd.number, "limit": rnd.time_limit_seconds, "matches": matches}
    if open_players:
        later = event_services.create_event(
            by=organizer, name="受付中 / Registration open", date=dt.date.today(), ruleset_name="harajuku-cs-1.2"
        )
        checked_in = []
        for i in range(open_players):
            p = registration.register_player(later, by=organizer, name=f"Open {i:04d}", card_game_id=f"9{i:09d}")
            _, token = registration.check_in(p, by=organizer)
            checked_in.append({"id": str(p.pk), "token": token})
        seeded["open"] = {"event_id": later.pk, "players": checked_in}
    return seeded


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m taikai.bench._seed")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("seed")
    p.add_argument("--players", type=int, default=100)
    p.add_argument("--open-players", type=int, default=0)
    p.add_argument("--top-cut", type=int, default=0)
    args = parser.parse_args(argv)
    print(json.dumps(seed_events(args.players, args.open_players, args.top_cut)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
