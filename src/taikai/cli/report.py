"""taikai report EVENT_ID [--pdf FILE] [--html FILE] [--lang ja|en]: the organizer's report."""

from taikai.api.cli import register  # noqa: F401
