"""Japanese and English texts for deck problems (taikai.messages), and their rendering at the edge."""

from __future__ import annotations

from collections.abc import Mapping

from taikai import messages
from taikai.core.deck import CardFacts
from taikai.core.problems import Problem

SECTION_NAMES = {
    "ja": {"main": "メインデッキ", "extra": "エクストラデッキ", "side": "サイドデッキ"},
    "en": {"main": "main deck", "extra": "extra deck", "side": "side deck"},
}
LIMIT_NAMES = {"ja": {0: "禁止", 1: "制限", 2: "準制限"}, "en": {0: "Forbidden", 1: "Limited", 2: "Semi-Limited"}}

_R = messages.register
_R("main-too-small", "{section}が {count} 枚です（{limit} 枚以上）", "{section} has {count} cards (at least {limit})")
_R("main-too-large", "{section}が {count} 枚です（{limit} 枚まで）", "{section} has {count} cards (at most {limit})")
_R("extra-too-small", "{section}が {count} 枚です（{limit} 枚以上）", "{section} has {count} cards (at least {limit})")
_R("extra-too-large", "{section}が {count} 枚です（{limit} 枚まで）", "{section} has {count} cards (at most {limit})")
_R("side-too-small", "{section}が {count} 枚です（{limit} 枚以上）", "{section} has {count} cards (at least {limit})")
_R("side-too-large", "{section}が {count} 枚です（{limit} 枚まで）", "{section} has {count} cards (at most {limit})")
_R(
    "too-many-copies",
    "「{name}」が {count} 枚あります（同名カードは {limit} 枚まで）",
    "{count} copies of {name} (at most {limit} of one name)",
)
_R(
    "forbidden",
    "「{name}」は禁止カードです（{count} 枚）",
    "{name} is Forbidden ({count} in the deck)",
)
_R(
    "limited",
    "「{name}」は制限カードです: {count} 枚（{limit} 枚まで）",
    "{name} is Limited: {count} copies (at most {limit})",
)
_R(
    "semi-limited",
    "「{name}」は準制限カードです: {count} 枚（{limit} 枚まで）",
    "{name} is Semi-Limited: {count} copies (at most {limit})",
)
_R(
    "extra-deck-monster-in-main",
    "「{name}」はエクストラデッキのモンスターです。メインデッキには入れられません",
    "{name} is an extra-deck monster and cannot be in the main deck",
)
_R(
    "not-extra-deck-card",
    "「{name}」はこのルールセットでは{section}に入れられません",
    "{name} cannot be in the {section} under this ruleset",
)
_R("token", "「{name}」はトークンです。デッキには入れられません", "{name} is a token and is never legal in a deck")
_R(
    "unknown-card",
    "{section}のカード {card} はカードデータベースにありません",
    "card {card} in the {section} is not in the card database",
)
_R(
    "unknown-card-name",
    "{line} 行目: 「{name}」というカードは見つかりません{matches}",
    "line {line}: no card named {name!r}{matches}",
)
_R(
    "not-ocg",
    "「{name}」には日本語版（OCG）がありません",
    "{name} has no Japanese (OCG) printing",
)
_R(
    "not-yet-released",
    "「{name}」は {date} 発売です（大会日にはまだ使えません）",
    "{name} is released on {date} (not yet legal on the event date)",
)
_R(
    "pre-release",
    "「{name}」は発売前のカードです（発売前に公開されたカード情報は無効です）",
    "{name} is a pre-release card (information published before release is not valid)",
)
_R(
    "unofficial-card",
    "「{name}」は公式に発売されていないカードです（アニメ・カスタムなど）",
    "{name} is not an officially released card (anime, custom or similar)",
)
_R(
    "heading-count",
    "{line} 行目: 見出し「{heading}」は {stated} 枚ですが、その下のカードは {count} 枚です",
    "line {line}: the heading {heading!r} says {stated} but {count} cards are listed under it",
)
_R(
    "ydk-moved-to-extra",
    "「{name}」（{card}）{count} 枚はエクストラデッキのモンスターなので、メインデッキからエクストラデッキに移しました",
    "{count} {name} ({card}): an extra-deck monster, moved from the main deck to the extra deck",
)
_R(
    "sheet-remark",
    "{line} 行目はカードではなく備考として読みました: {text!r}",
    "line {line} read as a remark, not a card: {text!r}",
)
_R(
    "ydk-line-skipped",
    "{line} 行目の「{text}」は #main より前の数字（MDPro3 が書くデッキの設定）で、カードではないため読み飛ばしました",
    "line {line}: {text!r} comes before #main (MDPro3's deck settings), not a card: skipped",
)
_R(
    "lflist-line-skipped",
    "{line} 行目を読み飛ばしました: {text!r}",
    "line {line} skipped: {text!r}",
)
_R(
    "lflist-negative-count",
    "{line} 行目は枚数が負の数です。EDOPro と同じく 1 枚も使えない（禁止）として読みました: {text!r}",
    "line {line} has a negative count; read as EDOPro reads it, no copy allowed (Forbidden): {text!r}",
)
_R(
    "lflist-points-list",
    "「{name}」はポイント制のリスト（$genesys）です。taikai の大会では使わないため取り込みません",
    "{name!r} is a points list ($genesys); taikai events have no points format, so it was not imported",
)
_R(
    "mixed-languages",
    "複数言語のカードが混在しています（{languages}）: 不透明なプロテクターが必要です",
    "the deck mixes card languages ({languages}): opaque sleeves required",
)
_R(
    "swap-changed-cards",
    "登録したデッキとサイドデッキにないカードが含まれています",
    "cards outside the registered deck and side deck",
)
_R(
    "swap-changed-count",
    "{section}の枚数が {limit} 枚から {count} 枚に変わっています",
    "the {section} changed from {limit} to {count} cards",
)


def describe(problem: Problem, lang: str, cards: Mapping[int, CardFacts] | None = None) -> str:
    """One problem as a sentence in ``lang``: section names translated, card names in that language."""
    params = dict(problem.params)
    if "section" in params:
        params["section"] = SECTION_NAMES.get(lang, SECTION_NAMES["en"]).get(params["section"], params["section"])
    card = (cards or {}).get(params.get("card") or 0)
    if card is not None:
        params["name"] = card.name(lang)
    if params.get("card") and not params.get("name"):
        params["name"] = str(params["card"])  # a card the data does not know is named by its passcode
    code = problem.code
    if code == "unknown-card" and params.get("line"):
        code = "unknown-card-name"
        matches = params.get("matches") or []
        if matches:
            joined = "、".join(matches) if lang == "ja" else ", ".join(matches)
            params["matches"] = f"（候補: {joined}）" if lang == "ja" else f" (did you mean: {joined}?)"
        else:
            params["matches"] = ""
    if code == "mixed-languages":
        params["languages"] = ", ".join(params.get("languages", []))
    return messages.text(Problem(code, **params), lang)


# From cards/report.py.
_R(
    "import-summary",
    "{source}: 追加 {created}、更新 {updated}、変更なし {unchanged}、古いため見送り {skipped}",
    "{source}: {created} added, {updated} updated, {unchanged} unchanged, {skipped} skipped as older",
)
_R("basis-cards", "収録カードの最新の発売日", "the newest release date of its cards")
_R("basis-document", "ファイル内の最新の発売日", "the newest release date in the file")
_R("basis-name", "リスト名の日付", "the date in the list name")
_R(
    "no-date-cards",
    "日付なし（cards.cdb には日付がなく、収録カードの発売日も登録されていないため、保存済みのデータと新旧を比べずに"
    "取り込みました。保存済みのカードのうち {not_in_file} 枚はこのファイルにありません）",
    "no date in the file (a cards.cdb carries none and no release date of its cards is known): imported without"
    " comparing it with the stored data ({not_in_file} stored cards are not in this file)",
)
_R(
    "no-date-document",
    "日付なし（ファイルに発売日がないため、保存済みのデータと新旧を比べずに取り込みました）",
    "no date in the file (it holds no release date): imported without comparing it with the stored data",
)
_R(
    "no-date-name",
    "日付なし（リスト名に日付がないため、保存済みのリストと新旧を比べずに取り込みました）",
    "no date in the list name: imported without comparing it with the stored list",
)
_R("dated", "{edition} 時点のファイル（{basis}）", "the file is as of {edition} ({basis})")
_R("dated-list", "{edition} 時点のリスト（{basis}）", "the list is as of {edition} ({basis})")
_R(
    "older-kept",
    "{edition} 時点のファイル（{basis}）は保存済みのデータ（{stored} 時点）より古いため、{skipped} 枚を上書きしません"
    "でした（新しいカードと空欄だけ補いました）。古いデータで上書きするには --allow-older"
    "（取り込み画面では「古いファイルでも上書きする」）を指定してください",
    "the file is as of {edition} ({basis}), older than the stored data (as of {stored}): {skipped} cards were not"
    " overwritten (only new cards and empty fields were added). To overwrite with older data, use --allow-older"
    " (on the upload page: 'Overwrite with an older file')",
)
_R(
    "older-kept-list",
    "{edition} 時点のリスト（{basis}）は保存済みのリスト（{stored} 時点）より古いため、変更しませんでした。"
    "古いリストで上書きするには --allow-older（取り込み画面では「古いファイルでも上書きする」）を指定してください",
    "the list is as of {edition} ({basis}), older than the stored list (as of {stored}): not changed."
    " To overwrite it with the older list, use --allow-older (on the upload page: 'Overwrite with an older file')",
)
_R(
    "older-allowed",
    "{edition} 時点のファイル（{basis}）は保存済みのデータ（{stored} 時点）より古いですが、指定により上書きしました",
    "the file is as of {edition} ({basis}), older than the stored data (as of {stored}); overwritten as asked",
)
_R("list-updated", "{name}: {count} 件変更 — {dating}", "{name}: {count} entries changed — {dating}")
_R("list-older", "{name}: {dating}", "{name}: {dating}")
_R("limit-change", "「{card}」 {old} → {new}", "{card}: {old} → {new}")
_R("limit-change-kept", "「{card}」 {old} のまま（ファイルでは {new}）", "{card}: kept {old} (the file says {new})")
