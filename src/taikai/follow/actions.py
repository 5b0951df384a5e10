"""The follower's audit actions (names stable, texts in Japanese and English)."""

from django.utils.translation import gettext_lazy as _

from taikai.audit.actions import register

FOLLOW_TOKEN_CREATED = register("taikai.follow.token_created", _("Follow token created (a venue's pairing)"))
FOLLOW_TOKEN_REVOKED = register("taikai.follow.token_revoked", _("Follow token revoked"))
