from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from taikai.cards.models import Banlist
from taikai.core.ruleset import DEFAULT, Ruleset, builtin, builtin_names
from taikai.events.models import Event, StaffRole
from taikai.events.ruleset_words import described

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise  # a development dependency: types only


class _ListName(forms.ChoiceField):
    """A drop-down of the imported F/L lists on the page; the API may still name a list not imported yet (the deck
    lists are checked against it once it is)."""

    def valid_value(self, value: Any) -> bool:
        return isinstance(value, str) and len(value) <= 100


def _plan_number(label: StrOrPromise, least: int, most: int) -> forms.IntegerField:
    """A number of the round plan (Swiss rounds, top cut) that the ruleset's table fills in when left empty."""
    return forms.IntegerField(
        label=label,
        min_value=least,
        max_value=most,
        required=False,
        help_text=_("Leave empty to take the ruleset's table for the players checked in when round 1 is paired."),
    )


class EventForm(forms.Form):
    name = forms.CharField(label=_("Event name"), max_length=200)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    ruleset_name = forms.ChoiceField(label=_("Ruleset"), choices=[])
    format = forms.ChoiceField(label=_("Format"), choices=Event.Format.choices)
    swiss_rounds = _plan_number(_("Swiss rounds"), 1, 30)
    top_cut = _plan_number(_("Top cut"), 0, 256)
    deck_deadline = forms.DateTimeField(
        label=_("Deck list deadline"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    banlist_name = _ListName(label=_("Forbidden/Limited list"), required=False, choices=[])
    is_team_event = forms.BooleanField(label=_("Team event"), required=False)

    def __init__(self, *args: object, ruleset: Ruleset | None = None, **kwargs: object) -> None:
        """``ruleset``: the event's own (when editing); the numbers the form shows come from it, or from
        each built-in ruleset offered."""
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        ruleset_field = self.fields["ruleset_name"]
        assert isinstance(ruleset_field, forms.ChoiceField)
        ruleset_field.choices = [(n, _ruleset_choice(_builtin(n))) for n in builtin_names()]
        ruleset_field.widget = forms.RadioSelect(choices=ruleset_field.choices)
        self.fields["ruleset_name"].initial = DEFAULT
        self._banlists(str(self.initial.get("banlist_name") or ""))
        rules = ruleset or _builtin(DEFAULT)
        seats = rules.team.seats
        self.fields["is_team_event"].label = gettext("Team event (%(n)s players a team, seats %(seats)s)") % {
            "n": len(seats),
            "seats": "/".join(seats),
        }
        if ruleset is not None:
            self.fields["ruleset_name"].help_text = gettext("This event: %(summary)s") % {
                "summary": _ruleset_summary(ruleset)
            }

    def _banlists(self, current: str) -> None:
        """The imported F/L lists, newest first; the event's own kept even if the library no longer has it."""
        names = list(
            Banlist.objects.filter(frozen=False).order_by("-edition", "-imported_at").values_list("name", flat=True)
        )
        if current and current not in names:
            names.append(current)
        field = self.fields["banlist_name"]
        field.choices = [("", gettext("— choose later (on the deck lists page)"))] + [(n, n) for n in names]  # type: ignore[attr-defined]
        self.no_banlists = not names

    def ruleset_options(self) -> list[dict[str, Any]]:
        """Each built-in ruleset with what it forbids and changes (the picker's words, from the ruleset data)."""
        chosen = str(self["ruleset_name"].value() or DEFAULT)
        return [
            {
                "name": n,
                "title": _title(_builtin(n)),
                "summary": _ruleset_summary(_builtin(n)),
                "lines": described(n),
                "checked": n == chosen,
            }
            for n in builtin_names()
        ]

    def warnings(self, before: dict[str, Any] | None = None) -> list[str]:
        """What the organizer should look at before saving: a date already past, a deck deadline already past
        (only for a value this save sets; an event held yesterday is not warned about at every edit)."""
        data, before = self.cleaned_data, before or {}
        out = []
        day = data.get("date")
        if day is not None and day != before.get("date") and day < timezone.localdate():
            out.append(gettext("The date %(date)s is already past.") % {"date": day.isoformat()})
        deadline = data.get("deck_deadline")
        if deadline is not None and deadline != before.get("deck_deadline") and deadline < timezone.now():
            shown = timezone.localtime(deadline).strftime("%Y-%m-%d %H:%M")
            out.append(
                gettext("The deck list deadline %(at)s is already past: deck lists lock at once.") % {"at": shown}
            )
        return out


def _title(ruleset: Ruleset) -> str:
    return ruleset.title_ja if (get_language() or "ja").startswith("ja") else ruleset.title_en


@functools.cache
def _builtin(name: str) -> Ruleset:
    return builtin(name)


def _ruleset_choice(ruleset: Ruleset) -> str:
    return f"{ruleset.name}: {_ruleset_summary(ruleset)}"


def _ruleset_summary(ruleset: Ruleset) -> str:
    """The numbers an organizer checks before choosing (MATCH-1, TIME-1, TIME-E-1, TIME-E-5)."""
    time = ruleset.time
    return gettext(
        "%(minutes)s-minute matches, first to %(wins)s duel wins, %(extra)s extra turns after time, "
        "extra duel of %(duel_turns)s turns at %(lp)s LP"
    ) % {
        "minutes": time.match_minutes,
        "wins": ruleset.match.duels_to_win,
        "extra": time.extra_turns,
        "duel_turns": time.extra_duel_turns,
        "lp": time.extra_duel_lp,
    }


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    name_kana = forms.CharField(label=_("Reading (kana)"), max_length=100, required=False)
    card_game_id = forms.CharField(
        label=_("Konami Card Game ID (10 digits)"),
        max_length=20,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    contact = forms.CharField(label=_("Contact (optional)"), max_length=200, required=False)


class CsvImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"))


class StaffForm(forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=StaffRole.Role.choices)
    password = forms.CharField(
        label=_("Password (only to create a new account)"), required=False, widget=forms.PasswordInput
    )


class RecoverForm(forms.Form):
    card_game_id = forms.CharField(label=_("Konami Card Game ID"), max_length=20)
    pin = forms.CharField(label=_("PIN"), max_length=12, widget=forms.PasswordInput(attrs={"inputmode": "numeric"}))


class PinForm(forms.Form):
    pin = forms.CharField(max_length=12, widget=forms.PasswordInput(attrs={"inputmode": "numeric"}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        digits = settings.LIMITS.pin_digits
        self.fields["pin"].label = gettext("New PIN (%(digits)s-12 digits)") % {"digits": digits}


class AnonymousLimitsForm(forms.Form):
    """An event's caps on anonymous self-registrations and spectator reports, per 10 minutes (issue 25)."""

    register_per_address = forms.IntegerField(
        label=_("Self-registrations per address"),
        min_value=1,
        max_value=100_000,
        help_text=_("Behind one venue network every phone has the same address: raise it for a venue queue."),
    )
    register_per_event = forms.IntegerField(
        label=_("Self-registrations for the whole event"), min_value=1, max_value=100_000
    )
    report_per_address = forms.IntegerField(label=_("Spectator reports per address"), min_value=1, max_value=100_000)
    report_per_event = forms.IntegerField(
        label=_("Spectator reports for the whole event"), min_value=1, max_value=100_000
    )
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
