"""Japanese and English texts for the webhooks' problem codes (a URL refused when saved, the cap per event)."""

from taikai.messages import register

register(
    "webhook-url-too-long",
    "Webhook の URL は {max} 文字までです。",
    "A webhook URL has at most {max} characters.",
)

register(
    "webhook-url-spaces",
    "Webhook の URL に空白や制御文字（タブ、改行など）は使えません。",
    "A webhook URL cannot contain spaces or control characters (tabs, line breaks…).",
)

register(
    "webhook-url-host",
    "Webhook の URL のホスト名を読めません。ホスト名か、4つの10進数で書いたアドレスにしてください"
    "（ユーザー名・パスワードは入れられません）。",
    "Cannot read the webhook URL's host: write a host name or an address as four decimal numbers "
    "(no user name or password).",
)

register(
    "webhook-url-internal",
    "内部のアドレス（localhost、プライベート、リンクローカルなど）には送れません。"
    "必要ならサーバーの管理者が TAIKAI_WEBHOOK_ALLOW で許可できます。",
    "Webhooks cannot go to internal addresses (localhost, private, link-local…); the server's operator can "
    "allow some with TAIKAI_WEBHOOK_ALLOW.",
)

register(
    "webhook-limit",
    "1つの大会に登録できる Webhook は {max} 件までです。使っていないものを削除してください。",
    "An event can have at most {max} webhooks: remove one you no longer use.",
)
