from django.apps import AppConfig


class SecurityConfig(AppConfig):
    name = "taikai.security"
    label = "security"
    default_auto_field = "django.db.models.BigAutoField"
