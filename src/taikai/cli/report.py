"""taikai report EVENT_ID [--pdf FILE] [--html FILE] [--lang ja|en]: the organizer's report.

The API app renders it (its ``report`` management command); the command line only names that command, so the
CLI imports nothing of the API."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("report", help="the organizer's report as PDF or HTML / 主催者レポート")
    p.add_argument("event_id", type=int)
    p.add_argument("--pdf", help="write a PDF (printed by headless Chromium)")
    p.add_argument("--html", help="write the printable HTML page")
    p.add_argument("--lang", choices=["ja", "en"], default="ja")
    p.set_defaults(func=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    from taikai.server import setup

    setup()
    from pathlib import Path

    from django.core.management import call_command

    options: dict[str, object] = {"lang": args.lang}
    if args.pdf:
        options["pdf"] = Path(args.pdf)
    if args.html:
        options["html"] = Path(args.html)
    call_command("report", args.event_id, **options)
    return 0
