"""The log pages: the organizer's and the head judge's (the whole event), and the player's (their own tables).

Both only read (STYLE 13); who may read what is ``permissions.require_log_reader``, asked by ``reads.read_log``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import pgettext_lazy

from taikai.core.collation import name_order
from taikai.eventlog.reads import PAGE_SIZE, LogFilter, LogPage, read_log
from taikai.eventlog.words import lines
from taikai.events.actors import Actor, PlayerSelf, Staff
from taikai.events.errors import PermissionDenied
from taikai.events.models import Event, Player
from taikai.events.permissions import is_organizer, role_of
from taikai.events.texts import problem_text
from taikai.events.views.player import player_view


class LogFilterForm(forms.Form):
    """The filters as a person picks them; a value the form refuses is said in the page's language."""

    round = forms.TypedChoiceField(label=_lazy("Round"), required=False, coerce=int, empty_value=None)
    table = forms.IntegerField(label=_lazy("Table"), required=False, min_value=1, max_value=99_999)
    player = forms.TypedChoiceField(
        label=pgettext_lazy("log filter", "Player"), required=False, coerce=int, empty_value=None
    )
    page = forms.IntegerField(required=False, min_value=1, max_value=100_000, widget=forms.HiddenInput)

    def __init__(self, data: Any, event: Event, *, with_players: bool) -> None:
        super().__init__(data)
        everything = [("", _lazy("All"))]
        rounds = event.rounds.order_by("number").values_list("number", flat=True)
        self.fields["round"].choices = everything + [(n, str(n)) for n in rounds]  # type: ignore[attr-defined]
        if with_players:
            people = sorted(event.players.values_list("pk", "name", "name_kana"), key=lambda p: name_order(p[1], p[2]))
            self.fields["player"].choices = everything + [(pk, name) for pk, name, _kana in people]  # type: ignore[attr-defined]
        else:
            del self.fields["player"]

    def filters(self) -> LogFilter:
        data = self.cleaned_data
        return LogFilter(table=data.get("table"), player=data.get("player"), round=data.get("round"))


def _page(request: HttpRequest, event: Event, by: Actor, *, with_players: bool) -> dict[str, Any]:
    form = LogFilterForm(request.GET, event, with_players=with_players)
    page: LogPage | None = None
    if form.is_valid():
        number = form.cleaned_data.get("page") or 1
        page = read_log(event, by=by, filters=form.filters(), offset=(number - 1) * PAGE_SIZE, limit=PAGE_SIZE)
    show_private = is_organizer(by, event)
    query = request.GET.copy()
    query.pop("page", None)
    return {
        "event": event,
        "form": form,
        "page": page,
        "lines": lines(page.entries, show_private=show_private) if page is not None else [],
        "number": (page.offset // PAGE_SIZE + 1) if page is not None else 1,
        "query": query.urlencode(),
        "filtered": bool(page is not None and not form.filters().empty),
    }


@login_required
def event_log(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event's changes for the organizer and the head judge: newest first, 50 a page, filterable."""
    event = get_object_or_404(Event, pk=event_id)
    by = Staff(request.user)
    # The event's menu shows what this role may open.
    request.event_role = role_of(by, event)  # type: ignore[attr-defined]
    try:
        context = _page(request, event, by, with_players=True)
    except PermissionDenied as exc:
        return render(
            request, "taikai/log_forbidden.html", {"event": event, "text": problem_text(exc.problem)}, status=403
        )
    return render(request, "taikai/log.html", context)


@player_view
def player_log(request: HttpRequest, player: Player, token: str) -> HttpResponse:
    """What changed at the player's own tables (a result reported, confirmed, corrected, a penalty's effect)."""
    context = _page(request, player.event, PlayerSelf(player), with_players=False)
    return render(request, "taikai/log.html", {**context, "player": player, "token": token})
