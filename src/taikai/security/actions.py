"""The security app's audit actions (taikai.audit.actions): an event's caps on its anonymous forms."""

from django.utils.translation import gettext_lazy as _

from taikai.audit.actions import register

LIMITS_SET = register("taikai.security.limits_set", _("Limits on anonymous forms changed"))
LOCKOUT_LIFTED = register("taikai.security.lockout_lifted", _("Lockout of anonymous forms lifted"))
