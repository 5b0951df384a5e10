from django.apps import AppConfig


class JudgingConfig(AppConfig):
    name = "taikai.judging"
    label = "judging"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from taikai.judging import (
            receivers,  # noqa: F401  (connects to taikai.events.signals)
            transfer,  # noqa: F401  (adds the prize table to the event file)
        )
