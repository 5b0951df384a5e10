"""The Japanese shown by taikai spells the time procedure's words as the official rules do (issue 23):
OFF C writes 「エキストラターン」 and 「エキストラデュエル」, never エクストラ (エクストラデッキ, the extra deck, is
another word and stays)."""

from __future__ import annotations

from pathlib import Path

import taikai

SRC = Path(taikai.__file__).parent
SHOWN = (".po", ".html", ".py", ".js", ".toml", ".txt", ".md")
WRONG = ("エクストラターン", "エクストラデュエル")


def test_time_e_1_time_e_5_extra_turns_and_extra_duel_are_spelled_as_off_writes_them() -> None:
    found = [
        f"{path.relative_to(SRC)}: {word}"
        for path in SRC.rglob("*")
        if path.suffix in SHOWN and path.is_file()
        for word in WRONG
        if word in path.read_text("utf-8", errors="ignore")
    ]
    assert found == []
    rules = (SRC / "events/locale/ja/LC_MESSAGES/django.po").read_text("utf-8")
    assert "エキストラターン" in rules and "エキストラデュエル" in rules
