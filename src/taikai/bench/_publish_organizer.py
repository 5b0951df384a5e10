"""The organizer of the publish bench (``taikai.bench.publish``), in a process of its own with the database's
settings: it decides a round, starts it, enters results one by one, and pairs the next round, timed, as the
console's buttons call the services. Commands come on stdin, one JSON line answers each."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

RESULTS_APART = 0.5  # seconds between results entered one by one: more than live.js's debounce, a refresh each


# --- the organizer, in the database's environment -----------------------------------------------------------


def _organizer(event_id: int) -> None:
    """Commands on stdin, one JSON line per answer: ``decide`` enters every open table's result, ``pair``
    pairs the next round (timed: monotonic clock, shared by the processes of this machine)."""
    import random
    from contextlib import redirect_stdout

    from taikai.server import prepare

    with redirect_stdout(sys.stderr):
        prepare()
    from django.contrib.auth import get_user_model

    from taikai.events.actors import Staff
    from taikai.events.models import Event, Match
    from taikai.events.services import clock as clock_services
    from taikai.events.services import results as result_services
    from taikai.events.services import rounds as round_services
    from taikai.events.services.result_input import ResultInput

    organizer = Staff(get_user_model().objects.filter(is_superuser=True).order_by("id").first())
    rng = random.Random(event_id)
    outcomes = [ResultInput(({"winner": "A"}, {"winner": "A"})), ResultInput(({"winner": "B"}, {"winner": "B"}))]
    event = Event.objects.get(pk=event_id)
    for line in sys.stdin:
        if line.strip() == "decide":
            rnd = event.rounds.order_by("-number").get(number=event.rounds.count())
            if rnd.started_at is None:
                clock_services.start_round(rnd, by=organizer)  # the organizer's "start" of the round published
            tables = rnd.matches.filter(is_bye=False).exclude(status=Match.Status.CONFIRMED)
            for m in tables.select_related("round__event", "player_a", "player_b"):
                result_services.enter_result(m, by=organizer, result=rng.choice(outcomes))
            answer: dict[str, Any] = {"round": rnd.number}
        elif line.strip() == "start":  # the round published starts (every page follows its clock)
            rnd = event.rounds.order_by("-number").get(number=event.rounds.count())
            clock_services.start_round(rnd, by=organizer)
            answer = {"round": rnd.number}
        elif line.startswith("report"):  # "report N": N tables' results, one at a time, apart (not one burst)
            rnd = event.rounds.order_by("-number").get(number=event.rounds.count())
            tables = rnd.matches.filter(is_bye=False, status=Match.Status.PENDING).order_by("table")
            for m in tables.select_related("round__event", "player_a", "player_b")[: int(line.split()[1])]:
                result_services.enter_result(m, by=organizer, result=rng.choice(outcomes))
                time.sleep(RESULTS_APART)
            answer = {"round": rnd.number}
        else:
            t0 = time.monotonic()
            rnd = round_services.pair_next_round(event, by=organizer)
            t1 = time.monotonic()
            matches = list(rnd.matches.filter(is_bye=False))
            paired = {str(m.pk): m.table for m in matches}
            seats = {str(p): m.table for m in matches for p in (m.player_a_id, m.player_b_id)}
            answer = {"round": rnd.number, "called": t0, "returned": t1, "tables": paired, "seats": seats}
        print(json.dumps(answer), flush=True)


class Organizer:
    """The organizer's process, driven from the bench's event loop."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def start(cls, env: dict[str, str], event_id: int) -> Organizer:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "taikai.bench._publish_organizer", str(event_id), env=env,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        return cls(proc)

    async def ask(self, command: str) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{command}\n".encode())
        await self.proc.stdin.drain()
        line = await self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the organizer's process ended ({command})")
        return dict(json.loads(line))

    async def stop(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        await self.proc.wait()


if __name__ == "__main__":
    _organizer(int(sys.argv[1]))
