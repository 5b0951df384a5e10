from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    name = "taikai.api"
    label = "taikai_api"
    verbose_name = _("API")

    def ready(self) -> None:
        from taikai.api import (  # noqa: F401
            texts,  # registers the API's problem texts
            transfer,  # adds the archetypes and the prize publication to the event file
        )
