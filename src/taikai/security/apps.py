from django.apps import AppConfig


class SecurityConfig(AppConfig):
    name = "taikai.security"
    label = "security"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth import signals
        from django.contrib.auth.models import update_last_login

        from taikai.security.signin import update_last_login_unless_full

        # Signing in stamps last_login; with the disk full that stamp is skipped, not the sign-in (issue 16).
        if signals.user_logged_in.disconnect(update_last_login, dispatch_uid="update_last_login"):
            signals.user_logged_in.connect(update_last_login_unless_full, dispatch_uid="update_last_login")
