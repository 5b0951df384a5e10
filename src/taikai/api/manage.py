"""Running an event over the API: create it, its staff, undoing a round, prize ranks and the prize list,
webhooks. Each operation finds the objects, calls one service and shapes the answer (as ``writes``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Status

from taikai.api import public, serialize, serialize_ops
from taikai.api import schemas as s
from taikai.api import schemas_ops as so
from taikai.api.base import READ_ERRORS, WRITE_ERRORS, FormInvalid, optional_staff, site_actor, staff_actor
from taikai.api.routes import SignedInRoutes
from taikai.events.errors import PermissionDenied
from taikai.events.forms import EventForm
from taikai.events.models import Event, Round
from taikai.events.permissions import is_staff, require_staff
from taikai.events.services import events as event_services
from taikai.events.services import rounds as round_services
from taikai.judging.services import prizes as prize_services
from taikai.judging.services.prizes import publish_prizes
from taikai.webhooks.delivery import create_webhook, delete_webhook, enable_webhook
from taikai.webhooks.models import Webhook

router = public.router
TAGS = ["running an event"]
routes = SignedInRoutes(router, TAGS)

# API names of the page form's fields (the form's own names where they differ).
FORM_FIELDS = {"ruleset": "ruleset_name", "banlist": "banlist_name"}


def _event(event_id: s.Id) -> Event:
    return get_object_or_404(Event, pk=event_id)


def _form_data(body: so.EventIn) -> dict[str, Any]:
    data = body.dict()
    out = {FORM_FIELDS.get(k, k): v for k, v in data.items()}
    out = {k: "" if v is None else v for k, v in out.items()}
    if not body.is_team_event:
        out.pop("is_team_event")  # an unchecked box is absent from a form post
    return out


@routes.post("/events", s.EventOut, status=201)
def create_event(request: HttpRequest, body: so.EventIn) -> Status[dict[str, Any]]:
    """Create an event with a site token (`taikai token create USER`, no `--event`); its creator is its
    organizer. Values are checked by the page's form: a bad one is a 400 with the form's code and message."""
    by = site_actor(request)
    form = EventForm(data=_form_data(body))
    if not form.is_valid():
        field, errors = next(iter(form.errors.as_data().items()))
        api_name = {v: k for k, v in FORM_FIELDS.items()}.get(field, field)
        error = errors[0]
        message = " ".join(str(m) for m in error.messages)
        label = str(form.fields[field].label) if field in form.fields else ""
        raise FormInvalid(api_name, error.code or "invalid", f"{label}: {message}" if label else message)
    event = event_services.create_event(by=by, **form.cleaned_data)
    return Status(201, serialize.event_rows(Event.objects.filter(pk=event.pk))[0])


def _staff_rows(event: Event) -> list[dict[str, Any]]:
    rows = event.staff.select_related("user").order_by("user__username")
    return [{"username": r.user.get_username(), "role": r.role} for r in rows]


@routes.get("/events/{event_id}/staff", so.StaffList)
def list_staff(request: HttpRequest, event_id: s.Id) -> dict[str, Any]:
    """The event's staff and their roles (staff)."""
    event = _event(event_id)
    require_staff(staff_actor(request, event), event)
    return {"items": _staff_rows(event)}


@routes.post("/events/{event_id}/staff", so.StaffOut, status=201)
def add_staff(request: HttpRequest, event_id: s.Id, body: so.StaffIn) -> Status[dict[str, Any]]:
    """Give an account a role (organizer). PEN-6: one head judge; naming a second is refused with
    `head-judge-exists` until the current one is removed (the staff page instead demotes them to judge)."""
    event = _event(event_id)
    staff = event_services.assign_staff(
        event, by=staff_actor(request, event), username=body.username, role=body.role, replace_head_judge=False
    )
    return Status(201, {"username": staff.user.get_username(), "role": staff.role})


@routes.delete("/events/{event_id}/staff/{username}", None, status=204)
def remove_staff(request: HttpRequest, event_id: s.Id, username: str) -> Status[None]:
    """Take an account's role away (organizer); the last organizer stays."""
    event = _event(event_id)
    event_services.remove_staff(event, by=staff_actor(request, event), username=username[:150])
    return Status(204, None)


@routes.delete("/events/{event_id}/rounds/{number}", None, status=204)
def undo_round(request: HttpRequest, event_id: s.Id, number: s.RoundNumber) -> Status[None]:
    """Undo the last round while it has no result (organizer): its tables go; pair again with POST."""
    event = _event(event_id)
    rnd = get_object_or_404(Round, event=event, number=number)
    round_services.undo_round(rnd, by=staff_actor(request, event))
    return Status(204, None)


@routes.put("/events/{event_id}/prize-ranks", so.PrizesOut)
def set_prize_ranks(request: HttpRequest, event_id: s.Id, body: so.PrizeRanksIn) -> dict[str, Any]:
    """Define the prizes over final places, e.g. 1st, 2nd, 3rd-4th shared (organizer)."""
    event = _event(event_id)
    ranks = [(r.label, r.first, r.last, r.shared) for r in body.ranks]
    prize_services.set_prize_ranks(event, by=staff_actor(request, event), ranks=ranks)
    return serialize_ops.prizes_payload(event)


@router.get("/events/{event_id}/prizes", response={200: so.PrizesOut, **READ_ERRORS, **WRITE_ERRORS}, tags=TAGS)
def get_prizes(request: HttpRequest, event_id: s.Id) -> dict[str, Any]:
    """Prize ranks after downgrades and promotions (PEN-2, PEN-3), with playoffs. Staff (a token) at any
    time; anyone once the organizer published the list."""
    event = _event(event_id)
    payload = serialize_ops.prizes_payload(event)
    if not payload["published"]:
        by = optional_staff(request, event)
        if by is None or not is_staff(by, event):
            raise PermissionDenied("prizes-not-published")
    return payload


@routes.post("/events/{event_id}/prizes/publish", so.PrizesOut)
def publish(request: HttpRequest, event_id: s.Id) -> dict[str, Any]:
    """Publish the prize list (organizer): from then on `GET …/prizes` needs no token."""
    event = _event(event_id)
    publish_prizes(event, by=staff_actor(request, event))
    return serialize_ops.prizes_payload(event)


@routes.get("/events/{event_id}/webhooks", so.WebhookList)
def list_webhooks(request: HttpRequest, event_id: s.Id) -> dict[str, Any]:
    """The event's webhooks and how their deliveries went (organizer)."""
    from taikai.events.permissions import require_organizer

    event = _event(event_id)
    require_organizer(staff_actor(request, event), event)
    return {"items": [serialize_ops.webhook_row(w) for w in Webhook.objects.filter(event=event)]}


@routes.post("/events/{event_id}/webhooks", so.WebhookOut, status=201)
def add_webhook(request: HttpRequest, event_id: s.Id, body: so.WebhookIn) -> Status[dict[str, Any]]:
    """POST the event stream's messages to `url` (organizer). Each request carries
    `X-Taikai-Signature: sha256=<hex HMAC-SHA256 of the body under the secret>`; the secret is shown once."""
    event = _event(event_id)
    hook, secret = create_webhook(event, by=staff_actor(request, event), url=body.url)
    return Status(201, serialize_ops.webhook_row(hook, secret))


@routes.delete("/events/{event_id}/webhooks/{webhook_id}", None, status=204)
def remove_webhook(request: HttpRequest, event_id: s.Id, webhook_id: s.Id) -> Status[None]:
    """Stop a webhook (organizer)."""
    event = _event(event_id)
    hook = get_object_or_404(Webhook, pk=webhook_id, event=event)
    delete_webhook(hook, by=staff_actor(request, event))
    return Status(204, None)


@routes.post("/events/{event_id}/webhooks/{webhook_id}/enable", so.WebhookOut)
def restart_webhook(request: HttpRequest, event_id: s.Id, webhook_id: s.Id) -> dict[str, Any]:
    """Restart a webhook that was stopped after its deliveries kept failing (organizer); it resumes after the
    last message it handled."""
    event = _event(event_id)
    hook = get_object_or_404(Webhook, pk=webhook_id, event=event)
    enable_webhook(hook, by=staff_actor(request, event))
    return serialize_ops.webhook_row(hook)
