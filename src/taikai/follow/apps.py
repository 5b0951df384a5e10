from django.apps import AppConfig


class FollowConfig(AppConfig):
    name = "taikai.follow"
    label = "follow"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from taikai.follow import actions, texts  # noqa: F401  (register the audit actions and problem texts)
