from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebhooksConfig(AppConfig):
    """Per-event webhooks (issue 28): the API and the dashboard manage them, `taikai serve` runs the delivery."""

    name = "taikai.webhooks"
    label = "webhooks"
    verbose_name = _("Webhooks")
    default_auto_field = "django.db.models.BigAutoField"
