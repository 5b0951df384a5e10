from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from taikai.cards.models import Card
from taikai.web import first_run
from taikai.web.middleware import SUPPORTED


class LoginView(auth_views.LoginView):
    template_name = "taikai/login.html"
    redirect_authenticated_user = True


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    logout(request)
    response = HttpResponseRedirect(settings.LOGOUT_REDIRECT_URL and "/login/")
    # Signed out on a shared device: the browser drops its cached pages and the players' offline copies
    # (Cache Storage and the service worker go with "storage"; browsers honour it over HTTPS and localhost).
    response["Clear-Site-Data"] = '"cache", "storage"'
    return response


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    from taikai.events.models import Event
    from taikai.events.site_roles import is_organizer
    from taikai.follow import status as follow_status

    user = request.user
    assert not isinstance(user, AnonymousUser)  # login_required
    events = Event.objects.all() if user.is_superuser else Event.objects.filter(staff__user=user).distinct()
    shown = list(events[:50])
    can_create = is_organizer(user)
    steps = first_run.checklist(user, shown) if can_create else []
    context = {
        "events": shown,
        "can_create": can_create,
        "stopped_webhooks": _stopped_webhooks(user),
        "follower_links": follow_status.links() if can_create else [],
        "first_run": steps if not all(s.done for s in steps) else [],
        "card_count": Card.objects.count() if user.is_staff else None,
    }
    return render(request, "taikai/dashboard.html", context)


def _stopped_webhooks(user: Any) -> list[dict[str, Any]]:
    """The webhooks stopped after their deliveries kept failing, in the events this user organizes (issue 25).
    The address is shown without its path: a Discord webhook's path is its password, and screens are seen."""
    from django.utils.translation import gettext as _

    from taikai.events.models import StaffRole
    from taikai.webhooks import net
    from taikai.webhooks.models import Webhook

    reasons = {net.NO_ANSWER: _("no answer"), net.REFUSED: _("destination not allowed")}

    hooks = Webhook.objects.filter(active=False, disabled_at__isnull=False).select_related("event")
    if not user.is_superuser:
        organizing = (StaffRole.Role.ORGANIZER, StaffRole.Role.ORGANIZER_HEAD_JUDGE)
        hooks = hooks.filter(event__staff__user=user, event__staff__role__in=organizing).distinct()
    return [
        {"hook": h, "address": net.shown(h.url), "why": reasons.get(h.last_error, h.last_error)}
        for h in hooks.order_by("-disabled_at")[:20]
    ]


def set_language(request: HttpRequest) -> HttpResponse:
    """The language switch on every page (a link, or a form post): remembers the choice in a cookie."""
    data = request.POST if request.method == "POST" else request.GET
    language = data.get("language", "")
    target = data.get("next") or "/"
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = "/"
    response = HttpResponseRedirect(target)
    if language in SUPPORTED:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME, language, max_age=365 * 24 * 3600, samesite="Lax", httponly=False
        )
    return response


def healthz(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"ok": True, "database": connection.vendor})
