from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from taikai.core.ids import parse_id
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event
from taikai.events.permissions import is_staff, role_of
from taikai.events.texts import problem_text

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise  # a development dependency: types only

View = Callable[..., HttpResponse]
T = TypeVar("T")


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


@dataclass(frozen=True)
class Ask:
    """What a confirmation page says: the question, what happens, the button that does it, where Cancel goes;
    ``keep``: the fields posted again with the confirmation (e.g. the version the page was shown on)."""

    title: str
    text: str
    button: str
    cancel: str
    keep: dict[str, str] = field(default_factory=dict)
    items: list[str] = field(default_factory=list)


def confirmation(request: HttpRequest, event: Event, ask: Ask) -> HttpResponse | None:
    """The confirm-page pattern's first half: the page asking ``ask`` while the POST is not confirmed yet; None
    once it is (the view goes on to the service call)."""
    if confirmed(request):
        return None
    words = {"title": ask.title, "text": ask.text, "button": ask.button, "cancel": ask.cancel}
    return confirm_page(request, event, **words, keep=ask.keep, items=ask.items)


def attempt(
    request: HttpRequest, call: Callable[[], T], done: str | Callable[[T], str] = "", *, form: forms.Form | None = None
) -> bool:
    """A staff form's service call: a refusal is shown in words (the service changed nothing), on ``form`` when
    the page shows one again, else as a message; success says ``done`` (worded from the call's answer when
    ``done`` is a function). True when it went through."""
    try:
        answer = call()
    except ServiceError as exc:
        if form is not None:
            form.add_error(None, error_text(exc))
        else:
            flash_error(request, exc)
        return False
    if done:
        messages.success(request, done(answer) if callable(done) else done)
    return True


def spam_window(request: HttpRequest) -> dt.datetime:
    """The "last N minutes" of a spam clean-up form (1 to 1440, default 60)."""
    minutes = parse_id(request.POST.get("minutes", "60"), digits=4) or 60
    return timezone.now() - dt.timedelta(minutes=min(max(minutes, 1), 1440))


def spam_clean_up(clean: Callable[..., int], done: StrOrPromise, back: str) -> View:
    """The view of a spam clean-up form (self-registrations at the desk, spectator reports in the judges' queue):
    ``clean(event, by=, since=)`` takes away what came in the form's last N minutes and answers how many, which
    page ``back`` then says in ``done`` (``%(n)s``)."""

    @staff_view
    @require_POST
    def view(request: HttpRequest, event: Event) -> HttpResponse:
        attempt(
            request,
            lambda: clean(event, by=Staff(request.user), since=spam_window(request)),
            lambda n: done % {"n": n},
        )
        return redirect(back, event_id=event.pk)

    return view


def confirm_then(
    request: HttpRequest, event: Event, ask: Ask, call: Callable[[], object], done: str, *, after: str = ""
) -> HttpResponse:
    """The confirm-page pattern whole: the page asking ``ask`` until the POST is confirmed, then the service call.
    A refusal is shown in words back at ``ask.cancel``; success says ``done``, at ``after`` when given."""
    if (page := confirmation(request, event, ask)) is not None:
        return page
    went = attempt(request, call, done)
    return HttpResponseRedirect(after if went and after else ask.cancel)
