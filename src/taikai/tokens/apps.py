from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TokensConfig(AppConfig):
    """API tokens (issue 28): the API reads them, the command line and the tokens page make and revoke them."""

    name = "taikai.tokens"
    label = "tokens"
    verbose_name = _("API tokens")
    default_auto_field = "django.db.models.BigAutoField"
