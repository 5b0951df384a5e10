from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.messages import problem_text
from taikai.events.models import Event
from taikai.events.permissions import is_staff, role_of

View = Callable[..., HttpResponse]


def staff_view(view: View) -> View:
    """Login required, and staff of this event; the event is loaded and passed in."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, event_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
        event = get_object_or_404(Event, pk=event_id)
        if not is_staff(Staff(request.user), event):
            return render(request, "events/forbidden.html", {"event": event}, status=403)
        request.event_role = role_of(Staff(request.user), event)  # type: ignore[attr-defined]
        return view(request, event, *args, **kwargs)

    return wrapper


def flash_error(request: HttpRequest, exc: ServiceError) -> None:
    messages.error(request, problem_text(exc.problem))


def error_text(exc: ServiceError) -> str:
    return problem_text(exc.problem)


def confirmed(request: HttpRequest) -> bool:
    """A destructive POST goes ahead only from its confirmation page (works without JavaScript)."""
    return request.POST.get("confirm") == "yes"


def confirm_page(
    request: HttpRequest,
    event: Event,
    *,
    title: str,
    text: str,
    button: str,
    cancel: str,
    keep: dict[str, str] | None = None,
    items: list[str] | None = None,
) -> HttpResponse:
    """Ask before destroying: the same POST again, with confirm=yes, or back to ``cancel``. Nothing changes."""
    context = {
        "event": event,
        "title": title,
        "text": text,
        "button": button,
        "cancel": cancel,
        "keep": keep or {},
        "items": items or [],
        "action": request.path,
    }
    return render(request, "events/confirm.html", context)
