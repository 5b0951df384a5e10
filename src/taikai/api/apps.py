from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    name = "taikai.api"
    label = "taikai_api"
    verbose_name = _("API")

    def ready(self) -> None:
        from taikai.api import texts  # noqa: F401  (registers the API's problem texts)
