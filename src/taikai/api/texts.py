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
register(
    "too-many-requests",
    "短い間に操作が続いたため、受け付けられません。{minutes}分ほど待ってから、もう一度送ってください。",
    "Too many tries in a short time: wait about {minutes} min, then send it again.",
)
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
register("unknown-event", "大会 {event} はありません。", "There is no event {event}.")
register(
    "unknown-token",
    "トークン {prefix!r} が見つからないか、一つに決まりません。",
    "No single token matches {prefix!r}.",
)
register(
    "bad-username",
    "ユーザー名 {username!r} は使えません（空白なし、150文字まで）。",
    "The user name {username!r} cannot be used (no spaces, at most 150 characters).",
)
register(
    "site-token-required",
    "この操作にはサイトのトークン（taikai token create USER、--event なし）が必要です。",
    "This needs a site token (taikai token create USER, without --event).",
)
register(
    "head-judge-exists",
    "この大会にはすでにヘッドジャッジ（{username}）がいます。先に外してください (PEN-6)。",
    "This event already has a head judge ({username}); remove them first (PEN-6).",
)
register(
    "not-event-staff", "{username} はこの大会のスタッフではありません。", "{username} is not on this event's staff."
)
register(
    "last-organizer",
    "大会の最後の主催者は外せません。",
    "The event's last organizer cannot be removed.",
)
register("prizes-not-published", "賞の一覧はまだ公開されていません。", "The prize list is not published yet.")
register(
    "bad-webhook-url",
    "Webhook の URL は http:// か https:// で始めてください。",
    "A webhook URL starts with http:// or https://.",
)
register("unknown-penalty", "処罰 {penalty} はこの大会にありません。", "There is no penalty {penalty} in this event.")
register(
    "unknown-call", "ジャッジコール {call} はこの大会にありません。", "There is no judge call {call} in this event."
)
register(
    "not-current-match",
    "その試合はこのプレイヤーの現在の試合ではありません。",
    "That match is not the player's current match.",
)
register("no-open-appeal", "この処罰への未決の上訴はありません。", "This penalty has no open appeal.")
register(
    "no-time-procedure",
    "この卓ではタイムの手順が始まっていません。",
    "The time procedure has not started at this table.",
)
