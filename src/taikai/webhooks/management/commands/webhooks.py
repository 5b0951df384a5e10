"""`python -m django webhooks`: deliver webhooks in a loop (when taikai runs without `taikai serve`)."""

from __future__ import annotations

import threading
from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Deliver the events' webhooks until stopped (taikai serve runs this itself)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--once", action="store_true", help="one pass, then exit")

    def handle(self, *args: Any, **options: Any) -> None:
        from taikai.webhooks import delivery

        if options["once"]:
            self.stdout.write(f"delivered {delivery.deliver_due()}")
            return
        stop = threading.Event()
        try:
            delivery.run(stop)
        except KeyboardInterrupt:
            stop.set()
