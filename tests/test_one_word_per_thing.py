"""One Japanese word per thing (issue 24, item 18): 受付 is registration (and the desk where it happens), チェックイン
is a player confirming attendance at the venue (REG-3); no text says 受付済み or 未受付 for a check-in. The form
label 「決勝トーナメント人数」 labels the form only."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import taikai
from taikai import messages
from taikai.decks import texts as _decks  # noqa: F401  (registers its texts)
from taikai.events import texts as _events  # noqa: F401
from taikai.judging import texts as _judging  # noqa: F401

SRC = Path(taikai.__file__).parent
CHECK_IN = re.compile(r"\bcheck(s|ed|ing)?[- ]in\b", re.IGNORECASE)


def _catalogue() -> dict[str, str]:
    out: dict[str, str] = {}
    for mo in SRC.rglob("locale/ja/LC_MESSAGES/django.mo"):
        with mo.open("rb") as f:
            out.update({k: v for k, v in gettext.GNUTranslations(f)._catalog.items() if isinstance(k, str) and k})  # type: ignore[attr-defined]
    return out


def _service_messages() -> dict[str, str]:
    return {entry["en"]: entry["ja"] for entry in messages._TEXTS.values()}


def test_reg_3_a_check_in_is_said_as_check_in_never_as_registration() -> None:
    texts = {**_catalogue(), **_service_messages()}
    wrong = {en: ja for en, ja in texts.items() if CHECK_IN.search(en) and ("チェックイン" not in ja or "受付済" in ja)}
    assert wrong == {}
    assert [ja for ja in texts.values() if "受付済" in ja or "未受付" in ja] == []


def test_the_top_cut_size_label_is_not_a_heading() -> None:
    shown = [p for p in SRC.rglob("*.html") if 'translate "Top cut" %}' in p.read_text("utf-8")]
    assert shown == []


def test_a_slip_is_one_word_in_japanese() -> None:
    """A link slip is 案内票 and a result slip 結果記入票; never 用紙 or 結果票."""
    texts = {**_catalogue(), **_service_messages()}
    slips = {en: ja for en, ja in texts.items() if re.search(r"\bslips?\b", en, re.IGNORECASE)}
    assert slips  # the desk's texts do speak of slips
    assert {en: ja for en, ja in slips.items() if "用紙" in ja or re.search(r"結果票", ja)} == {}
