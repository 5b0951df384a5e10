"""One hostile client (issue 16), in a process of its own so that it never slows the measuring client.

``python -m taikai.bench._hostile URL TARGET_JSON ATTACK...`` runs the named attacks together until its
stdin closes, prints ``ready`` once they run, and at the end one JSON line: per attack, the statuses it got
(-1: still sending when told to stop; 0: no answer). The attacks, each as one person with a laptop could:

- ``slow``: 100 connections promise a 1,000-byte body and send a byte every half second (a form and a JSON
  API write), reconnecting when cut off (taikai.security.bodies answers 408 after its deadline);
- ``deck``: a player of an event whose lists are still open submits, in a loop, the worst list the reader
  accepts (200 lines of names nobody knows, 20 KB) and a 1 MiB list (over the API's cap);
- ``pin``: a PIN-change loop on that player's link (the per-player rate answers 429 after a few);
- ``upload``: 48 MiB card-database uploads with a made-up session cookie and a matching CSRF pair, so the body
  is buffered and parsed before the view refuses it, and 300 MB ones announced without a session;
- ``webhook`` (issue 25): the running event's organizer has pointed its webhooks (as many as an event may have)
  at receivers in this process: one honest (answers 204) and the others hostile (two accept and never answer,
  one answers a byte a second, one answers a non-HTTP line). Its tally: ``204``, the messages the honest
  receiver got; ``no answer``, the connections the hostile ones held. The parent adds and removes the webhooks
  (``python -m taikai.bench._hostile webhooks add|remove EVENT_ID PORT...``, with the server's settings).

Loopback only; bounded by the parent, which closes stdin after its measurement.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

SLOW_CONNECTIONS = 100
UPLOAD_BYTES = 48 * 1024 * 1024
ANNOUNCED_BYTES = 300 * 1000 * 1000
# A request is written a chunk at a time, as fast as the server takes it, as an attacker's own client would: one
# 48 MiB write made asyncio copy the unsent rest of it into its buffer on every try, and this process spent a
# whole core of the server's two on copies the server never saw (issue 25, "big uploads": 0.99 of a core).
CHUNK = 256 * 1024
CSRF = "benchcsrf" + "0" * 23  # 32 characters: Django's secret length, the same in cookie and form


@dataclass(frozen=True)
class Target:
    host: str
    port: int
    event_id: int  # the running event
    open_event_id: int  # an event whose deck lists are still open
    player_id: str  # a player of the open event, and the token of their personal link
    token: str
    webhook_ports: tuple[int, ...] = ()  # the receivers of the ``webhook`` attack: honest first, then hostile


Tally = Counter[int]


async def _answer(reader: asyncio.StreamReader) -> tuple[int, bool]:
    """Read one answer: (status, the connection stays open)."""
    status_line = await reader.readline()
    if not status_line:
        return 0, False
    length, keep = -1, True
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
        elif name.strip().lower() == b"connection" and value.strip().lower() == b"close":
            keep = False
    if length >= 0:
        await reader.readexactly(length)
    else:
        await reader.read()
        keep = False
    return int(status_line.split()[1]), keep


async def _connect(target: Target, tally: Tally) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    while True:
        try:
            return await asyncio.open_connection(target.host, target.port)
        except OSError:
            tally[0] += 1  # refused: the server is not taking connections
            await asyncio.sleep(0.1)


async def _exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, raw: bytes) -> tuple[int, bool]:
    view = memoryview(raw)
    with contextlib.suppress(ConnectionError):  # a server that answers before the whole body is sent may close early
        for start in range(0, len(view), CHUNK):
            writer.write(view[start : start + CHUNK])
            await writer.drain()
    try:
        return await _answer(reader)
    except (ConnectionError, asyncio.IncompleteReadError):
        return 0, False


async def _loop(target: Target, requests: Callable[[int], bytes], tally: Tally) -> None:
    """Send request 0, 1, 2, ... one after another (closed loop), reconnecting when the server closes."""
    i = 0
    while True:
        reader, writer = await _connect(target, tally)
        keep = True
        try:
            while keep:
                in_flight = True
                status, keep = await _exchange(reader, writer, requests(i))
                in_flight = False
                tally[status] += 1
                i += 1
        except asyncio.CancelledError:
            tally[-1] += in_flight
            raise
        finally:
            writer.close()


def _head(method: str, path: str, target: Target, length: int, *extra: str) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {target.host}:{target.port}", f"Content-Length: {length}", *extra]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


# --- the attacks ------------------------------------------------------------------------------------------------


async def _slow_one(target: Target, path: str, extra: tuple[str, ...], tally: Tally) -> None:
    while True:
        reader, writer = await _connect(target, tally)
        answer = asyncio.ensure_future(_answer(reader))
        try:
            writer.write(_head("POST", path, target, 1000, *extra))
            while not answer.done():
                with contextlib.suppress(ConnectionError):
                    writer.write(b" ")
                await asyncio.wait({answer}, timeout=0.5)
            try:
                tally[answer.result()[0]] += 1
            except (ConnectionError, asyncio.IncompleteReadError):
                tally[0] += 1
        except asyncio.CancelledError:
            answer.cancel()
            tally[-1] += 1
            raise
        finally:
            writer.close()


async def slow(target: Target, tally: Tally) -> None:
    form = ("/login/", ("Content-Type: application/x-www-form-urlencoded",))
    api = (f"/api/v1/events/{target.event_id}/players", ("Content-Type: application/json",))
    chosen = [form if i % 2 else api for i in range(SLOW_CONNECTIONS)]
    await asyncio.gather(*(_slow_one(target, path, extra, tally) for path, extra in chosen))


def _worst_list() -> str:
    from taikai.bench.cards import unknown_names_list

    return unknown_names_list()


async def deck(target: Target, tally: Tally) -> None:
    path = f"/api/v1/events/{target.open_event_id}/players/{target.player_id}/deck"
    bodies = [
        json.dumps({"text": _worst_list(), "languages": ["ja"]}, ensure_ascii=False).encode(),
        json.dumps({"text": "3 灰流うらら\n" * (1024 * 1024 // 18), "languages": ["ja"]}, ensure_ascii=False).encode(),
    ]
    extra = ("Content-Type: application/json", f"X-Player-Token: {target.token}")
    requests = [_head("PUT", path, target, len(b), *extra) + b for b in bodies]
    await _loop(target, lambda i: requests[i % 2], tally)


async def pin(target: Target, tally: Tally) -> None:
    def request(i: int) -> bytes:
        body = f"csrfmiddlewaretoken={CSRF}&pin={secrets.randbelow(10**6):06d}".encode()
        extra = ("Content-Type: application/x-www-form-urlencoded", f"Cookie: csrftoken={CSRF}")
        return _head("POST", f"/p/{target.token}/pin/", target, len(body), *extra) + body

    await _loop(target, request, tally)


async def upload(target: Target, tally: Tally) -> None:
    boundary = "taikaibench" + secrets.token_hex(8)
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n{CSRF}\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="cards"; filename="cards.cdb"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode()
    body += b"\0" * (UPLOAD_BYTES - len(body) - len(boundary) - 8) + f"\r\n--{boundary}--\r\n".encode()
    forged = _head(
        "POST",
        "/cards/import/",
        target,
        len(body),
        f"Content-Type: multipart/form-data; boundary={boundary}",
        f"Cookie: sessionid={secrets.token_hex(16)}; csrftoken={CSRF}",
    )
    announced = _head(
        "POST", "/cards/import/", target, ANNOUNCED_BYTES, "Content-Type: multipart/form-data; boundary=x"
    )
    whole = forged + body  # built once: a 48 MiB concatenation on every try was a copy of its own
    await _loop(target, lambda i: whole if i % 2 == 0 else announced, tally)


async def _receive_head(reader: asyncio.StreamReader) -> int:
    """Read a request's head; its Content-Length."""
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    return length


def _receiver(kind: str, tally: Tally) -> Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            length = await _receive_head(reader)
            await reader.readexactly(length)
            if kind == "honest":
                tally[204] += 1
                writer.write(b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
                await writer.drain()
                return
            tally[0] += 1
            if kind == "junk":
                writer.write(b"SSH-2.0-OpenSSH_9.6\r\n")
                await writer.drain()
            elif kind == "drip":
                for byte in b"HTTP/1.1 200 OK\r\n" * 100:
                    writer.write(bytes([byte]))
                    await writer.drain()
                    await asyncio.sleep(1.0)
            else:  # hang
                await asyncio.sleep(3600)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass  # cancelled: the row is over
        finally:
            writer.close()

    return handle


RECEIVERS = ["honest", "hang", "hang", "drip", "junk"]


async def webhook(target: Target, tally: Tally) -> None:
    servers = [
        await asyncio.start_server(_receiver(kind, tally), "127.0.0.1", port)
        for kind, port in zip(RECEIVERS, target.webhook_ports, strict=False)
    ]
    try:
        await asyncio.Event().wait()
    finally:
        for server in servers:
            server.close()


def webhooks_cli(argv: list[str]) -> None:
    """``add EVENT_ID PORT...`` points the event's webhooks at 127.0.0.1:PORT (as its first organizer);
    ``remove EVENT_ID`` removes them. Run with the server's environment (the database, TAIKAI_WEBHOOK_ALLOW)."""
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "taikai.settings")
    django.setup()
    from django.contrib.auth import get_user_model

    from taikai.events.actors import Staff
    from taikai.events.models import Event
    from taikai.webhooks.delivery import create_webhook, delete_webhook
    from taikai.webhooks.models import Webhook

    action, event_id, *ports = argv
    event = Event.objects.get(pk=int(event_id))
    organizer = Staff(get_user_model().objects.filter(is_superuser=True).order_by("id").first())
    if action == "add":
        for port in ports:
            create_webhook(event, by=organizer, url=f"http://127.0.0.1:{port}/hook")
    else:
        for hook in Webhook.objects.filter(event=event):
            delete_webhook(hook, by=organizer)


ATTACKS: dict[str, Callable[[Target, Tally], Awaitable[None]]] = {
    "slow": slow,
    "deck": deck,
    "pin": pin,
    "upload": upload,
    "webhook": webhook,
}


# --- the process, and its handle in the parent -------------------------------------------------------------------


async def _main(target: Target, attacks: list[str]) -> dict[str, Any]:
    tallies = {name: Counter[int]() for name in attacks}
    tasks = [asyncio.ensure_future(ATTACKS[name](target, tallies[name])) for name in attacks]
    await asyncio.sleep(0.3)  # the slow connections are open and dribbling
    print("ready", flush=True)
    started = (time.monotonic(), time.process_time())
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until the parent closes it
    for task in tasks:
        task.cancel()
    for name, ended in zip(attacks, await asyncio.gather(*tasks, return_exceptions=True), strict=True):
        if isinstance(ended, Exception):  # an attack that stopped on its own before it was told to
            print(f"{name}: {ended!r}", file=sys.stderr)
            tallies[name][0] += 1
    # its own CPU time: on one machine it competes with the server for the same cores (issue 25)
    wall, cpu = time.monotonic() - started[0], time.process_time() - started[1]
    return {"got": {name: dict(t) for name, t in tallies.items()}, "cores": cpu / wall if wall > 0 else 0.0}


@dataclass
class Hostile:
    """A running hostile client; ``got`` holds its tallies once it has stopped."""

    proc: subprocess.Popen[str]
    got: dict[str, Counter[int]]
    cores: float = 0.0  # CPU seconds per second the hostile process used while it attacked


@contextlib.contextmanager
def hostile(target: Target, attacks: list[str], ramp: float = 0.5, nice: int = 0) -> Iterator[Hostile]:
    """Run ``attacks`` from their own process while the block runs (none: an idle stand-in), ``nice`` steps below
    this process's priority (``os.nice``): a hostile client on the network spends its own machine's CPU, not the
    server's, and a niced one takes only what the server leaves (its tally shows what it still sent)."""
    import os

    proc = subprocess.Popen(
        [sys.executable, "-m", "taikai.bench._hostile", json.dumps(asdict(target)), *attacks],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "TAIKAI_BENCH_HOSTILE_NICE": str(nice)},
    )
    handle = Hostile(proc, {})
    try:
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != "ready":
            raise RuntimeError("the hostile client did not start")
        time.sleep(ramp if attacks else 0)
        yield handle
    finally:
        out, _ = proc.communicate(timeout=60)
        lines = out.strip().splitlines()
        ended: dict[str, Any] = json.loads(lines[-1]) if lines else {}
        handle.got = {name: Counter({int(k): v for k, v in t.items()}) for name, t in ended.get("got", {}).items()}
        handle.cores = float(ended.get("cores", 0.0))


if __name__ == "__main__" and sys.argv[1:2] == ["webhooks"]:
    webhooks_cli(sys.argv[2:])
elif __name__ == "__main__":
    import os

    os.nice(int(os.environ.get("TAIKAI_BENCH_HOSTILE_NICE", "0")))
    spec = Target(**json.loads(sys.argv[1]))
    print(json.dumps(asyncio.run(_main(spec, sys.argv[2:]))), flush=True)
