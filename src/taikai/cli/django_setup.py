"""Commands that need the database call ``setup()`` first; pure commands never import Django."""

from __future__ import annotations

import os


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "taikai.settings")
    import django

    django.setup()
