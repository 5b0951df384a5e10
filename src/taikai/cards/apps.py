from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _

from taikai.cards.index import forget_names


class CardsConfig(AppConfig):
    name = "taikai.cards"
    label = "cards"
    verbose_name = _("Cards")

    def ready(self) -> None:
        # A card saved in this process drops the index's cached name table; the index reads the models, so
        # the models do not call back into it.
        from taikai.cards.models import Card

        post_save.connect(_forget_names, sender=Card, dispatch_uid="taikai.cards.forget_names")


def _forget_names(**_kwargs: Any) -> None:
    forget_names()
