"""What a person sees of a page: its text without scripts, styles and markup (attribute values left out)."""

from __future__ import annotations

import html as html_lib
import re

_HIDDEN = re.compile(r"<(script|style|template)\b.*?</\1>", re.S | re.I)
_TAG = re.compile(r"<[^>]+>")


def visible_text(page: str) -> str:
    text = _TAG.sub(" ", _HIDDEN.sub(" ", page))
    return re.sub(r"\s+", " ", html_lib.unescape(text))
