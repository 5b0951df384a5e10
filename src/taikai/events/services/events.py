"""Creating and configuring events, and staff roles."""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from taikai.audit.services import fields_of, record, save_and_log
from taikai.core.ruleset import Ruleset, RulesetError, builtin, builtin_names
from taikai.events import actions
from taikai.events.actors import Actor, user_of
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Event, StaffRole
from taikai.events.permissions import HEAD_JUDGE_ROLES, require_organizer, require_site_organizer

EVENT_FIELDS = [
    "name",
    "date",
    "venue",
    "ruleset_name",
    "format",
    "swiss_rounds",
    "top_cut",
    "deck_deadline",
    "banlist_name",
    "is_team_event",
    "status",
]


def resolve_ruleset(name: str, document: dict[str, Any] | None = None) -> Ruleset:
    if document is not None:
        from taikai.core.ruleset import from_document

        return from_document(document)
    if name not in builtin_names():
        raise ServiceError("unknown-ruleset", name=name)
    try:
        return builtin(name)
    except RulesetError as exc:  # pragma: no cover - built-ins are tested
        raise ServiceError("bad-ruleset", name=name) from exc


def create_event(
    *,
    by: Actor,
    name: str,
    date: dt.date,
    ruleset_name: str,
    format: str = Event.Format.SWISS,
    venue: str = "",
    swiss_rounds: int | None = None,
    top_cut: int | None = None,
    deck_deadline: dt.datetime | None = None,
    banlist_name: str = "",
    banlist_entries: dict[str, int] | None = None,
    is_team_event: bool = False,
    ruleset_document: dict[str, Any] | None = None,
) -> Event:
    require_site_organizer(by)
    if not name.strip():
        raise ServiceError("required", field="name")
    if format not in Event.Format.values:
        raise ServiceError("bad-choice", field="format", value=format)
    ruleset = resolve_ruleset(ruleset_name, ruleset_document)
    with transaction.atomic():
        event = Event.objects.create(
            name=name.strip(),
            date=date,
            venue=venue,
            ruleset_name=ruleset.name,
            ruleset_document=ruleset.to_dict(),
            ruleset_fingerprint=ruleset.fingerprint,
            format=format,
            swiss_rounds=swiss_rounds,
            top_cut=top_cut,
            deck_deadline=deck_deadline,
            banlist_name=banlist_name,
            banlist_entries=banlist_entries or {},
            is_team_event=is_team_event,
            tiebreak_seed=secrets.randbits(62),
            created_by=user_of(by),
        )
        StaffRole.objects.create(event=event, user=user_of(by), role=StaffRole.Role.ORGANIZER)
        record(
            actions.EVENT_CREATED,
            actor=by,
            obj=event,
            after=fields_of(event, EVENT_FIELDS),
            ruleset_fingerprint=ruleset.fingerprint,
        )
    return event


def update_event(event: Event, *, by: Actor, **changes: Any) -> Event:
    require_organizer(by, event)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        before = fields_of(event, EVENT_FIELDS)
        started = event.rounds.exists()
        if started and ("ruleset_name" in changes or "ruleset_document" in changes or "is_team_event" in changes):
            raise ServiceError("event-started-fixed", field="ruleset")
        if started and "format" in changes and changes["format"] != event.format:
            raise ServiceError("event-started-fixed", field="format")
        if started and any(k in changes and changes[k] != getattr(event, k) for k in ("swiss_rounds", "top_cut")):
            raise ServiceError("round-plan-fixed")  # fixed at round 1; the console's form changes them (issue 22)
        if "ruleset_name" in changes and changes["ruleset_name"] != event.ruleset_name:
            ruleset = resolve_ruleset(changes.pop("ruleset_name"), changes.pop("ruleset_document", None))
            event.ruleset_name = ruleset.name
            event.ruleset_document = ruleset.to_dict()
            event.ruleset_fingerprint = ruleset.fingerprint
            event.__dict__.pop("_ruleset", None)  # the cached Ruleset is read again from the new document
        changes.pop("ruleset_name", None)
        for key, value in changes.items():
            if key not in EVENT_FIELDS and key != "banlist_entries":
                raise ServiceError("bad-field", field=key)
            setattr(event, key, value)
        save_and_log(event, actions.EVENT_UPDATED, actor=by, before=before, shown=EVENT_FIELDS)
    return event


def assign_staff(event: Event, *, by: Actor, username: str, role: str, replace_head_judge: bool = True) -> StaffRole:
    """Give ``username`` a role in the event. PEN-6: exactly one head judge. The staff page names a new head
    judge and the previous one becomes a judge (``replace_head_judge``); the API refuses instead
    (``head-judge-exists``), so a script never demotes someone by accident."""
    require_organizer(by, event)
    if role not in StaffRole.Role.values:
        raise ServiceError("bad-choice", field="role", value=role)
    User = get_user_model()
    try:
        user = User.objects.get(username=username)
    except User.DoesNotExist as exc:
        raise ServiceError("unknown-user", username=username) from exc
    with transaction.atomic():
        existing = StaffRole.objects.filter(event=event, user=user).first()
        before = {"username": username, "role": existing.role} if existing else None
        if role in HEAD_JUDGE_ROLES and not replace_head_judge:
            current = StaffRole.objects.filter(event=event, role__in=HEAD_JUDGE_ROLES).exclude(user=user)
            holder = current.select_related("user").first()
            if holder is not None:
                raise Conflict("head-judge-exists", username=holder.user.get_username())
        if role in HEAD_JUDGE_ROLES:
            # PEN-6: exactly one head judge; naming a new one makes the previous one a judge (an organizer who
            # was head judge stays organizer).
            previous = StaffRole.objects.filter(event=event, role__in=HEAD_JUDGE_ROLES).exclude(user=user)
            previous.filter(role=StaffRole.Role.HEAD_JUDGE).update(role=StaffRole.Role.JUDGE)
            previous.filter(role=StaffRole.Role.ORGANIZER_HEAD_JUDGE).update(role=StaffRole.Role.ORGANIZER)
        try:
            staff, _ = StaffRole.objects.update_or_create(event=event, user=user, defaults={"role": role})
        except IntegrityError as exc:  # pragma: no cover - guarded above
            raise ServiceError("head-judge-taken") from exc
        record(
            actions.STAFF_ASSIGNED,
            actor=by,
            obj=staff,
            before=before,
            after={"username": username, "role": role},
        )
    return staff


def remove_staff(event: Event, *, by: Actor, username: str) -> None:
    """Take ``username``'s role in the event away (the organizer). The last organizer stays: an event always
    has someone who can run it."""
    require_organizer(by, event)
    with transaction.atomic():
        staff = (
            StaffRole.objects.select_for_update().filter(event=event, user__username=username).select_related("user")
        ).first()
        if staff is None:
            raise ServiceError("not-event-staff", username=username)
        # The head judge may be removed (to name another, PEN-6); the last organizer stays.
        running = (StaffRole.Role.ORGANIZER, StaffRole.Role.ORGANIZER_HEAD_JUDGE)
        organizers = StaffRole.objects.filter(event=event, role__in=running)
        if staff.role in running and organizers.count() == 1:
            raise ServiceError("last-organizer")
        before = {"username": username, "role": staff.role}
        staff.delete()
        record(actions.STAFF_REMOVED, actor=by, event_id=event.pk, before=before, after=None)


def create_staff_user(*, by: Actor, username: str, password: str) -> Any:
    """Organizers create judge accounts at the venue (no e-mail needed)."""
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    require_site_organizer(by)
    User = get_user_model()
    if not username.strip():
        raise ServiceError("required", field="username")
    if User.objects.filter(username=username).exists():
        raise ServiceError("username-taken", username=username)
    try:
        validate_password(password)
    except ValidationError as exc:
        raise ServiceError("weak-password", detail=" ".join(str(m) for m in exc.messages)) from exc
    with transaction.atomic():
        user = User.objects.create_user(username=username, password=password)
        record(actions.STAFF_ACCOUNT_CREATED, actor=by, obj=user, after={"username": username})
    return user


def add_staff(event: Event, *, by: Actor, username: str, role: str, password: str = "") -> StaffRole:
    """The organizer's staff form: a new judge's account (when a password is given and the name is new) and the
    role, as one change: a role that is refused leaves no account behind."""
    require_organizer(by, event)
    with transaction.atomic():
        if password and not get_user_model().objects.filter(username=username).exists():
            create_staff_user(by=by, username=username, password=password)
        return assign_staff(event, by=by, username=username, role=role)


def close_registration(event: Event, *, by: Actor, closed: bool = True) -> Event:
    """The organizer closes registration (or opens it again before round 1). Pairing round 1 closes it
    anyway; after that a new arrival is an explicit late entry."""
    require_organizer(by, event)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if not closed and (event.rounds.exists() or event.status == Event.Status.FINISHED):
            raise ServiceError("registration-reopen-too-late")
        if event.registration_closed == closed:
            return event
        event.registration_closed = closed
        save_and_log(
            event,
            actions.REGISTRATION_CLOSED if closed else actions.REGISTRATION_REOPENED,
            actor=by,
            fields=["registration_closed"],
            before={"registration_closed": not closed},
            after={"registration_closed": closed},
        )
    return event


def publish_archetypes(event: Event, *, by: Actor) -> Event:
    """The organizer shows every player's declared deck archetype to everyone before the event ends, e.g. for a
    metagame breakdown after the Swiss rounds (issue 16). Publishing twice is once."""
    return _set_archetypes_published(event, by=by, published=True)


def unpublish_archetypes(event: Event, *, by: Actor) -> Event:
    """The organizer takes an early publication back (pressed too soon): public reads hide the archetypes again
    until the event finishes. What was seen meanwhile stays seen; the log keeps both entries. Once the event
    has finished they are public anyway, so taking them back then is refused rather than pretended."""
    return _set_archetypes_published(event, by=by, published=False)


def _set_archetypes_published(event: Event, *, by: Actor, published: bool) -> Event:
    require_organizer(by, event)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if not published and event.status == Event.Status.FINISHED:
            raise ServiceError("archetypes-public-after-event")
        was = event.archetypes_published_at
        if (was is not None) == published:
            return event
        event.archetypes_published_at = timezone.now() if published else None
        save_and_log(
            event,
            actions.ARCHETYPES_PUBLISHED if published else actions.ARCHETYPES_UNPUBLISHED,
            actor=by,
            fields=["archetypes_published_at"],
            before={"archetypes_published_at": _iso(was)},
            after={"archetypes_published_at": _iso(event.archetypes_published_at)},
        )
    return event


def _iso(at: dt.datetime | None) -> str | None:
    return at.isoformat() if at is not None else None
