"""Japanese and English texts for the deck-registration problem codes (taikai.messages)."""

from __future__ import annotations

from taikai.cards import texts as _card_texts  # noqa: F401  (registers the deck-problem texts)
from taikai.events import texts as _event_texts  # noqa: F401  (not-judge, reason-required, conflict)
from taikai.messages import register

_R = register
_R(
    "deck-locked",
    "デッキリストは締め切られました。変更はジャッジに相談してください。",
    "Deck lists are locked. Ask a judge to change yours.",
)
_R("deck-empty", "デッキリストを入力するか、ファイルを選んでください。", "Paste a deck list or choose a file.")
_R(
    "deck-input-too-large",
    "大きすぎます（{limit} KB まで）。デッキリストだけを送ってください。",
    "Too large (at most {limit} KB). Send only the deck list.",
)
_R(
    "deck-too-many-lines",
    "{line} 行目: カードの行が {limit} を超えています。1 つのデッキリストだけを送ってください。",
    "line {line}: more than {limit} card lines. Send one deck list only.",
)
_R(
    "deck-encoding",
    "ファイルの文字コードを読めません（UTF-8 か Shift_JIS で保存してください）。",
    "Cannot read the file's encoding (save it as UTF-8 or Shift_JIS).",
)
_R(
    "deck-unreadable",
    "デッキリストを読めません（{line} 行目）: {detail}",
    "Cannot read the deck list (line {line}): {detail}",
)
_R(
    "unknown-banlist",
    "禁止・制限リスト {name!r} は取り込まれていません。",
    "No Forbidden/Limited list named {name!r} is imported.",
)
