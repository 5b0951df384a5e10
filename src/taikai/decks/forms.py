from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from taikai.decks.services import MAX_UPLOAD_BYTES, DeckInput

LANGUAGE_CHOICES = [
    ("ja", _("Japanese (OCG)")),
    ("en", _("English")),
    ("ko", _("Korean")),
    ("fr", _("French")),
    ("de", _("German")),
    ("it", _("Italian")),
    ("es", _("Spanish")),
    ("pt", _("Portuguese")),
]


class DeckForm(forms.Form):
    text = forms.CharField(
        label=_("Deck list"),
        required=False,
        widget=forms.Textarea(
            attrs={
                "rows": 14,
                "spellcheck": "false",
                "autocapitalize": "off",
                "placeholder": "メインデッキ\n3 灰流うらら\n…",
            }
        ),
        help_text=_(
            "One card a line (3 灰流うらら / Ash Blossom x3) under メインデッキ, エクストラデッキ, "
            "サイドデッキ; or a ydke:// URL or a YGO Omega deck code."
        ),
    )
    file = forms.FileField(label=_("…or a file (.ydk, ydke:// or text)"), required=False)
    languages = forms.MultipleChoiceField(
        label=_("Languages of your physical cards"),
        choices=LANGUAGE_CHOICES,
        initial=["ja"],
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def deck_input(self) -> DeckInput:
        upload: Any = self.cleaned_data.get("file")
        return DeckInput(
            text=self.cleaned_data.get("text") or "",
            file_name=upload.name if upload else "",
            file_data=upload.read(MAX_UPLOAD_BYTES + 1) if upload else None,
            languages=tuple(self.cleaned_data.get("languages") or ()),
        )


class JudgeChangeForm(DeckForm):
    reason = forms.CharField(label=_("Reason for the change"), max_length=500)
