"""Card-name keys for look-up: Japanese or English, full-width or half-width (NFKC)."""

from __future__ import annotations

import re
import unicodedata

# Dashes and quotes that deck sheets and card databases spell in several ways.
_FOLD = str.maketrans(
    {
        "‐": "-",
        "‑": "-",
        "‒": "-",
        "–": "-",
        "—": "-",
        "―": "-",
        "−": "-",
        "“": '"',
        "”": '"',
        "„": '"',
        "‘": "'",
        "’": "'",
        "〜": "~",
        "～": "~",
    }
)
_SPACE = re.compile(r"\s+")


def name_key(name: str) -> str:
    """The search key of a name: NFKC, case-folded, dashes and quotes unified, no whitespace.

    ``増殖するＧ`` and ``増殖するG``, ``Ｎｏ．３９ 希望皇ホープ`` and ``No.39希望皇ホープ`` get the same key.
    """
    text = unicodedata.normalize("NFKC", name).translate(_FOLD).casefold()
    return _SPACE.sub("", text)


# Katakana to hiragana (ァ..ヶ -> ぁ..ゖ): a player types ウララ or うらら for 灰流うらら.
_KANA = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}


def fold_key(name: str) -> str:
    """``name_key`` with katakana read as hiragana: the key a Japanese player's typing is matched by
    (``ｳﾗﾗ``, ``ウララ`` and ``うらら`` are one key; NFKC has already made half-width kana full-width)."""
    return fold(name_key(name))


def fold(key: str) -> str:
    """A ``name_key`` already made, katakana read as hiragana."""
    return key.translate(_KANA)


def is_japanese(text: str) -> bool:
    """True if ``text`` contains kana or CJK ideographs (half-width kana too)."""
    text = unicodedata.normalize("NFKC", text)
    return any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in text)
