"""taikai serve: get ready (``taikai.server.prepare``: migrate, static files, the first organizer), then serve
on the LAN."""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import subprocess
import sys
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("serve", help="run the web application / サーバーを起動")
    p.add_argument("--host", default=os.environ.get("TAIKAI_HOST", "0.0.0.0"))
    p.add_argument("--port", type=int, default=int(os.environ.get("TAIKAI_PORT", "8000")))
    p.add_argument("--workers", type=int, default=None, help="web processes (default: one per core, 2 to 4)")
    p.set_defaults(func=cmd_serve)


def lan_addresses() -> list[str]:
    """IPv4 addresses of this machine other than loopback, for phones on the venue network."""
    found: list[str] = []
    try:
        out = subprocess.run(["ip", "-4", "-o", "addr", "show"], capture_output=True, text=True, timeout=3).stdout
        for line in out.splitlines():
            parts = line.split()
            if "inet" in parts:
                addr = parts[parts.index("inet") + 1].split("/")[0]
                if not addr.startswith("127."):
                    found.append(addr)
    except (OSError, subprocess.SubprocessError):
        pass
    if not found:
        with contextlib.suppress(OSError):
            found = [a for a in socket.gethostbyname_ex(socket.gethostname())[2] if not a.startswith("127.")]
    return found


def venue_address(public_url: str, lan: list[str], port: int, scheme: str = "http") -> str:
    """The address phones must use: TAIKAI_PUBLIC_URL when set, else the first LAN address."""
    if public_url:
        return public_url
    return f"{scheme}://{lan[0]}:{port}" if lan else ""


def cmd_serve(args: argparse.Namespace) -> int:
    from taikai.cli import tls as tls_files
    from taikai.config import ConfigError
    from taikai.follow import config as follow_config
    from taikai.server import prepare

    try:  # checked before anything starts: a bad certificate must not cost a migration first
        tls = tls_files.load(dict(os.environ))
        follower = follow_config.target(), follow_config.role()
    except ConfigError as exc:
        sys.stderr.write(f"taikai: configuration error: {exc}\n{tls_files.HOW_TO}\n")
        return 2
    prepare()
    import uvicorn
    from django.conf import settings

    engine = str(settings.DATABASES["default"]["ENGINE"])
    workers = args.workers or min(4, max(2, os.cpu_count() or 2))
    scheme = "https" if tls else "http"
    print(f"taikai: serving on {scheme}://127.0.0.1:{args.port}/")
    lan = lan_addresses() if args.host in ("0.0.0.0", "::") else []
    for addr in lan:
        print(f"taikai: on the venue network: {scheme}://{addr}:{args.port}/")
    venue = venue_address(settings.TAIKAI_PUBLIC_URL, lan, args.port, scheme)
    if lan:
        # The workers (new processes) read it from the environment in taikai.config.
        os.environ["TAIKAI_LAN_URL"] = f"{scheme}://{lan[0]}:{args.port}"
    if venue:
        print(f"taikai: players' slips and QR codes use / 参加者の案内票とQRコード: {venue}/")
    _say_offline_copy(tls, venue)
    print(f"taikai: database {engine.rsplit('.', 1)[-1]}; {workers} worker(s). Stop with Ctrl-C.")
    sys.stdout.flush()
    from taikai.security.backup import serving
    from taikai.webhooks.delivery import start_worker

    start_worker()  # webhooks are delivered beside the web processes, never inside a request
    _start_follow(*follower)
    with serving():  # `taikai restore` refuses while this is held
        _run(uvicorn, args, settings, workers, tls)
    return 0


def _start_follow(target: Any, role: str) -> None:
    """A venue connects out to its public follower, beside the web processes (issue 29); a follower says so."""
    if role == "follower":
        print("taikai: 公開フォロワー / public follower: the public pages and API are the venue's copies")
    if target is not None:
        from taikai.follow.venue import start

        start(target.url, target.token, say=lambda line: print(line, flush=True))


def _say_offline_copy(tls: Any, venue: str) -> None:
    """Whether phones keep an offline copy of their page, and what they see (issue 24, item 23)."""
    from urllib.parse import urlparse

    from taikai.cli import tls as tls_files

    if tls is None:
        print(
            "taikai: plain http: phones keep their open page when the Wi-Fi drops, but a reload without Wi-Fi\n"
            "        fails (no offline copy without HTTPS); the slips say 「このページを開いたままにしてください」."
        )
        print("\n".join("        " + line for line in tls_files.HOW_TO.splitlines()))
        return
    until = f", valid until {tls.not_after:%Y-%m-%d}" if tls.not_after else ""
    print(f"taikai: HTTPS with {tls.cert} (for {', '.join(tls.names) or '?'}{until}); phones keep an offline copy.")
    host = urlparse(venue).hostname or ""
    if venue.startswith("http://"):
        print(f"taikai: warning: TAIKAI_PUBLIC_URL {venue} is plain http: the slips will not use HTTPS.")
    elif host and not tls_files.covers(tls, host):
        print(
            f"taikai: warning: the certificate is not for {host}: phones opening {venue} see a warning page.\n"
            f"        Set TAIKAI_PUBLIC_URL to an https address the certificate names ({', '.join(tls.names)})."
        )


def _run(uvicorn: Any, args: argparse.Namespace, settings: Any, workers: int, tls: Any) -> None:
    from taikai.security.logs import uvicorn_log_config

    server = settings.SERVER_LIMITS
    uvicorn.run(
        "taikai.asgi:application",
        host=args.host,
        port=args.port,
        workers=workers,
        log_level="warning",
        log_config=uvicorn_log_config(),  # players' links masked, repeated 4xx thinned (taikai.security.logs)
        # a deadline for each request head and caps on open connections (taikai.security.connections)
        http="taikai.security.connections:GuardedHTTP",
        timeout_keep_alive=server.keep_alive,
        h11_max_incomplete_event_size=server.max_header_bytes,
        # X-Forwarded-For is believed only from the proxies the operator named; by default from nobody,
        # so a client cannot pick its own address for the sign-in throttle.
        proxy_headers=bool(settings.LIMITS.trusted_proxies),
        forwarded_allow_ips=",".join(settings.LIMITS.trusted_proxies) or "",
        timeout_graceful_shutdown=5,
        # HTTPS with the organizer's certificate (taikai.cli.tls, checked before start-up)
        ssl_certfile=str(tls.cert) if tls else None,
        ssl_keyfile=str(tls.key) if tls else None,
    )
