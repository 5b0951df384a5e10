from __future__ import annotations

import functools
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from taikai.core.ruleset import DEFAULT, Ruleset, builtin, builtin_names
from taikai.events.models import Event, StaffRole


class EventForm(forms.Form):
    name = forms.CharField(label=_("Event name"), max_length=200)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    ruleset_name = forms.ChoiceField(label=_("Ruleset"), choices=[])
    format = forms.ChoiceField(label=_("Format"), choices=Event.Format.choices)
    swiss_rounds = forms.IntegerField(
        label=_("Swiss rounds"),
        min_value=1,
        max_value=30,
        required=False,
        help_text=_("Leave empty to take the ruleset's table for the players checked in when round 1 is paired."),
    )
    top_cut = forms.IntegerField(
        label=_("Top cut"),
        min_value=0,
        max_value=256,
        required=False,
        help_text=_("Leave empty to take the ruleset's table for the players checked in when round 1 is paired."),
    )
    deck_deadline = forms.DateTimeField(
        label=_("Deck list deadline"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    banlist_name = forms.CharField(label=_("Forbidden/Limited list"), max_length=100, required=False)
    is_team_event = forms.BooleanField(label=_("Team event"), required=False)

    def __init__(self, *args: object, ruleset: Ruleset | None = None, **kwargs: object) -> None:
        """``ruleset``: the event's own (when editing); the numbers the form shows come from it, or from
        each built-in ruleset offered."""
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        ruleset_field = self.fields["ruleset_name"]
        assert isinstance(ruleset_field, forms.ChoiceField)
        ruleset_field.choices = [(n, _ruleset_choice(_builtin(n))) for n in builtin_names()]
        self.fields["ruleset_name"].initial = DEFAULT
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
