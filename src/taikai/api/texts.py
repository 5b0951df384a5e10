"""Japanese and English texts for the API's own problem codes (the services register theirs)."""

from __future__ import annotations

from taikai.messages import register

register(
    "unauthorized",
    "API トークンが必要です（Authorization: Bearer …）。",
    "An API token is required (Authorization: Bearer …).",
)
register("bad-token", "API トークンが無効か、取り消されています。", "The API token is invalid or revoked.")
register(
    "token-wrong-event",
    "この API トークンは別の大会用です。",
    "This API token belongs to another event.",
)
register("not-found", "見つかりません。", "Not found.")
register("invalid-input", "入力を読めません: {detail}", "Cannot read the input: {detail}")
register(
    "player-token-required",
    "プレイヤーのリンク（X-Player-Token）が必要です。",
    "A player link token (X-Player-Token) is required.",
)
register("method-not-allowed", "この操作はできません。", "This method is not allowed.")
register("server-error", "サーバーでエラーが起きました。", "The server ran into an error.")
register("archetype-name", "デッキタイプ名は1〜60文字です。", "A deck archetype name is 1 to 60 characters.")
register("bad-round-action", "時計の操作 {action!r} はありません。", "There is no clock action {action!r}.")
