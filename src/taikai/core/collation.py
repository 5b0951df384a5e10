"""The one order of people's names on every list: the pairings by name, the players, the deck lists, the pairing
editor, the penalty picker, the slips and the projector.

あいうえお order reads the kana reading (よみがな) when there is one, else the name; A–Z order reads the name.
Both go through the same key: NFKC (half-width ｶﾀｶﾅ and full-width Ａ become ordinary ones), katakana read as
hiragana (ヤマダ and やまだ sort together instead of every katakana reading after every hiragana one) and case
folded (alice and Bob in alphabetical order, not capitals first). A database's own collation differs between
SQLite and PostgreSQL, so lists are sorted here and never by ``ORDER BY name``.
"""

from __future__ import annotations

import unicodedata

# Katakana ァ..ヶ (U+30A1..U+30F6) to hiragana ぁ..ゖ (U+3041..U+3096).
_KATAKANA_AS_HIRAGANA = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}


def name_order(name: str, reading: str = "") -> tuple[str, str, str]:
    """The sort key of a person: by ``reading`` (or the name without one), then by the name; the name as written
    last, so two spellings that fold alike still come out in one fixed order. A–Z order passes no reading."""
    return _folded(reading or name), _folded(name), name


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).translate(_KATAKANA_AS_HIRAGANA).casefold()
