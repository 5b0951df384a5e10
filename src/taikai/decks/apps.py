from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DecksConfig(AppConfig):
    name = "taikai.decks"
    label = "decks"
    verbose_name = _("Deck registration")

    def ready(self) -> None:
        from taikai.decks import (  # noqa: F401
            receivers,  # connects to taikai.events.signals
            transfer,  # adds the deck lists to the event file
        )
