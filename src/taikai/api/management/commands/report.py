"""django-admin report EVENT_ID [--pdf FILE | --html FILE] [--lang ja|en]: the organizer's report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from taikai.api.pdf import PdfError, html_to_pdf, report_html
from taikai.events.models import Event


class Command(BaseCommand):
    help = "Write the organizer's report of an event as PDF or HTML."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_id", type=int)
        parser.add_argument("--pdf", type=Path)
        parser.add_argument("--html", type=Path)
        parser.add_argument("--lang", choices=["ja", "en"], default="ja")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(pk=options["event_id"]).first()
        if event is None:
            raise CommandError(f"no event {options['event_id']}")
        html = report_html(event, options["lang"])
        if options["html"]:
            options["html"].write_text(html, "utf-8")
            self.stdout.write(str(options["html"]))
        if options["pdf"]:
            try:
                html_to_pdf(html, options["pdf"])
            except PdfError as exc:
                raise CommandError(str(exc)) from exc
            self.stdout.write(str(options["pdf"]))
        if not options["pdf"] and not options["html"]:
            self.stdout.write(html)
