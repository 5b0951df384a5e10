"""Deck registration pages: the player's phone page, staff overview, per-player page, print pages."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django.contrib import messages
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from taikai.audit.actions import describe as describe_action
from taikai.audit.models import AuditEntry
from taikai.cards.deck_formats import FORMATS, TEXT_SHEET, exported
from taikai.cards.formats import write_text_sheet
from taikai.cards.models import Banlist
from taikai.decks import export, lock, overview, services, sheets
from taikai.decks.forms import DeckForm, JudgeChangeForm
from taikai.decks.models import DeckRegistration, RejectedDeckList
from taikai.events.actors import PlayerSelf, Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player
from taikai.events.permissions import is_judge, role_of
from taikai.events.services import links
from taikai.events.views.common import attempt, error_text, staff_view
from taikai.security import rates


def _lang() -> str:
    return (translation.get_language() or "ja")[:2]


def _registration_context(registration: DeckRegistration | None) -> dict[str, Any]:
    if registration is None:
        return {"registration": None}
    cards = sheets.card_facts(registration)
    context = {
        "registration": registration,
        "problems": sheets.problem_texts(registration.problems, cards, _lang()),
        "notes": sheets.problem_texts(registration.notes, cards, _lang()),
        "sections": sheets.sections(registration, cards),
        "cards": cards,
    }
    rejected = overview.pending_rejection(registration)
    if rejected is not None:  # a list sent later that did not pass the check: the registered one stays
        rejected_cards = sheets.card_facts(rejected)
        context.update(
            rejected=rejected,
            rejected_problems=sheets.problem_texts(rejected.problems, rejected_cards, _lang()),
            rejected_sections=sheets.sections(rejected, rejected_cards),
            rejected_cards=rejected_cards,
        )
    return context


def _prefill(context: dict[str, Any], *, rejected: bool) -> tuple[str, list[str]]:
    """What the form starts with: the registered list, or (``rejected``, the player's page) the list they sent
    that was not accepted, to fix it; as their own sheet or an uploaded list written as a sheet, with its languages."""
    sent, cards = (context.get("rejected"), context.get("rejected_cards", {})) if rejected else (None, {})
    if sent is None:
        sent, cards = context.get("registration"), context.get("cards", {})
    if sent is None:
        return "", ["ja"]
    if sent.format == TEXT_SHEET.name:
        return sent.source_text, sent.languages
    return write_text_sheet(sent.deck, cards, _lang()), sent.languages


def _saved_message(request: HttpRequest, sent: services.Submitted) -> None:
    if isinstance(sent, RejectedDeckList):
        messages.warning(request, _("Not accepted: the list has problems. The registered list stays; see below."))
    elif sent.legal:
        messages.success(request, _("Deck list registered. It is legal."))
    else:
        messages.warning(request, _("Saved, but the list has problems. Fix them and send it again."))


# --- the player's page ---------------------------------------------------------------------------


def player_deck(request: HttpRequest, token: str) -> HttpResponse:
    player = links.player_for_token(token)
    if player is None:
        raise Http404
    event = player.event
    registration = DeckRegistration.objects.filter(player=player).first()
    context = _registration_context(registration)
    form = DeckForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        wait = rates.take((rates.DECK_PER_PLAYER, player.pk))  # issue 16: a loop of deck lists is refused
        if wait:
            return rates.too_many(request, wait)
        try:
            sent = services.submit_deck(player, form.deck_input(), by=PlayerSelf(player))
        except ServiceError as exc:
            form.add_error(None, error_text(exc))
        else:
            _saved_message(request, sent)
            return redirect("deck_player", token=token)
    elif request.method != "POST":
        text, languages = _prefill(context, rejected=True)
        form = DeckForm(initial={"text": text, "languages": languages})
    context.update(
        event=event,
        player=player,
        token=token,
        form=form,
        locked=lock.is_locked(event),
        lock_time=lock.lock_time(event),
        export_formats=FORMATS,
        deadline=event.deck_deadline,
    )
    return render(request, "decks/player_deck.html", context)


def player_deck_export(request: HttpRequest, token: str, fmt: str) -> HttpResponse:
    """The player's registered deck as .ydk, ydke:// or a Japanese text sheet (a download; reads only)."""
    player, wanted = links.player_for_token(token), exported(fmt)
    if player is None or wanted is None:
        raise Http404
    registration = get_object_or_404(DeckRegistration.objects.select_related("player"), player=player)
    return _download(*export.deck_file(registration, wanted, _lang()))


def _download(name: str, content: str | bytes, content_type: str = "text/plain; charset=utf-8") -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f"attachment; filename*=UTF-8''{quote(name)}"
    return response


# --- staff ---------------------------------------------------------------------------------------


@staff_view
def deck_overview(request: HttpRequest, event: Event) -> HttpResponse:
    rows = overview.deck_overview(event)
    setup = lock.deck_setup(event)
    context = {
        "event": event,
        "rows": rows,
        "chase": [r for r in rows if r.status != "legal"],
        "mixed": [r for r in rows if r.registration is not None and r.registration.mixed_languages],
        "rejected": [r for r in rows if r.rejected is not None],
        "counts": overview.counts(rows),
        "locked": lock.is_locked(event),
        "lock_time": lock.lock_time(event),
        "setup": setup,
        "banlist_label": services.banlist_label(event),
        "library_lists": Banlist.objects.filter(frozen=False).order_by("-name").values_list("name", flat=True),
        "is_organizer": role_of(Staff(request.user), event) == "organizer",
    }
    return render(request, "decks/overview.html", context)


@staff_view
@require_POST
def deck_lock(request: HttpRequest, event: Event) -> HttpResponse:
    attempt(
        request,
        lambda: lock.lock_decks(event, by=Staff(request.user)),
        lambda stamped: _("Deck lists locked (%(n)d lists).") % {"n": stamped},
    )
    return redirect("decks", event_id=event.pk)


@staff_view
@require_POST
def deck_banlist(request: HttpRequest, event: Event) -> HttpResponse:
    attempt(
        request,
        lambda: services.choose_banlist(event, request.POST.get("name", ""), by=Staff(request.user)),
        lambda copy: _("%(name)s is now this event's list; every list was checked again.") % {"name": copy.name},
    )
    return redirect("decks", event_id=event.pk)


@staff_view
def deck_export_zip(request: HttpRequest, event: Event) -> HttpResponse:
    """Every registered deck of the event, as .ydk, ydke:// and text sheet, in one zip."""
    data, _count = export.event_zip(event, _lang())
    return _download(f"event-{event.pk}-decks.zip", data, "application/zip")


def _event_player(event: Event, player_id: int) -> Player:
    return get_object_or_404(Player, pk=player_id, event=event)


@staff_view
def deck_detail(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    """Staff submit for a player before the lock; after it, a judge changes the list with a reason."""
    player = _event_player(event, player_id)
    registration = DeckRegistration.objects.filter(player=player).first()
    locked = lock.is_locked(event)
    judge_mode = locked or request.GET.get("judge") == "1"
    form_class = JudgeChangeForm if judge_mode and registration is not None else DeckForm
    context = _registration_context(registration)
    form = form_class(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            if form_class is JudgeChangeForm and registration is not None:
                sent = services.judge_change_deck(
                    registration, by=Staff(request.user), deck=form.deck_input(), reason=form.cleaned_data["reason"]
                )
            else:
                sent = services.submit_deck(player, form.deck_input(), by=Staff(request.user))
        except ServiceError as exc:
            form.add_error(None, error_text(exc))
        else:
            _saved_message(request, sent)
            return redirect("deck_detail", event_id=event.pk, player_id=player.pk)
    elif request.method != "POST":
        text, languages = _prefill(context, rejected=False)
        form = form_class(initial={"text": text, "languages": languages})
    context.update(
        event=event,
        player=player,
        form=form,
        locked=locked,
        judge_mode=form_class is JudgeChangeForm,
        can_change=not locked or is_judge(Staff(request.user), event),
        history=_history(registration, player),
    )
    return render(request, "decks/detail.html", context)


def _history(registration: DeckRegistration | None, player: Player) -> list[tuple[AuditEntry, str, str]]:
    """Every change of the registered list and every list sent that was not accepted, oldest first."""
    if registration is None:
        return []
    rejected = [str(pk) for pk in RejectedDeckList.objects.filter(player=player).values_list("pk", flat=True)]
    entries = AuditEntry.objects.filter(
        Q(object_type="decks.deckregistration", object_id=str(registration.pk))
        | Q(object_type="decks.rejecteddecklist", object_id__in=rejected)
    ).order_by("id")
    return [(e, describe_action(e.action), _who(e, player)) for e in entries.select_related("actor")]


def _who(entry: AuditEntry, player: Player) -> str:
    """Who made a change, in words: the staff member's name, or the player (never the log's ``player:N``)."""
    if entry.actor is not None:
        return str(entry.actor.get_username())
    if entry.actor_label == f"player:{player.pk}":
        return player.name
    return _("taikai") if entry.actor_label else "—"


def _print_context(event: Event, player_id: int, *, sort_for_check: bool) -> dict[str, Any]:
    player = _event_player(event, player_id)
    registration = get_object_or_404(DeckRegistration, player=player)
    cards = sheets.card_facts(registration)
    return {
        "event": event,
        "player": player,
        "registration": registration,
        "sections": sheets.sections(registration, cards, sort_for_check=sort_for_check),
        "problems": sheets.problem_texts(registration.problems, cards, _lang()),
        "banlist_label": services.banlist_label(event),
    }


@staff_view
def deck_sheet(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    """デッキ記入シート: the registered list as a printable A4 sheet."""
    return render(request, "decks/sheet.html", _print_context(event, player_id, sort_for_check=False))


@staff_view
def deck_check(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    """The judge's deck check: the list sorted by kind and name, with boxes to tick while counting."""
    return render(request, "decks/check.html", _print_context(event, player_id, sort_for_check=True))
