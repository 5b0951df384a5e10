from django.apps import AppConfig


class JudgingConfig(AppConfig):
    name = "taikai.judging"
    label = "judging"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from taikai.events.ruleset_words import register_rung_words
        from taikai.judging import (
            placings_hook,  # noqa: F401  (says each player's prize beside their place)
            player_panel,  # noqa: F401  (the judge call at the player's table, on their page)
            receivers,  # noqa: F401  (connects to taikai.events.signals)
            transfer,  # noqa: F401  (adds calls, penalties, appeals and prizes to the event file)
        )
        from taikai.judging.words import rung_label

        register_rung_words(rung_label)  # the ruleset picker names penalties in the judges' words
