"""Japanese and English texts for the command line's own problem codes (deck checks, card and list imports)."""

from taikai import messages  # not `register` by name: the cli package calls a module's register(subparsers)

# From cli/deck.py.
messages.register("deck-legal", "使用できるデッキです", "legal deck")
messages.register("deck-illegal", "使用できないデッキです（問題 {n} 件）", "illegal deck ({n} problems)")
messages.register("deck-no-banlist", "（禁止・制限リストは適用していません）", "(no Forbidden/Limited list applied)")
messages.register("deck-unreadable-row", "読めません: {reason}", "unreadable: {reason}")
messages.register(
    "deck-folder-summary",
    "{n} 件: 使用可 {legal}、使用不可 {illegal}、読めない {unreadable}（{seconds:.2f} 秒）",
    "{n} files: {legal} legal, {illegal} illegal, {unreadable} unreadable ({seconds:.2f} s)",
)
messages.register("deck-empty-folder", "{path} にデッキファイルがありません", "no deck files in {path}")

# From cli/banlist.py.
messages.register(
    "no-banlist", "禁止・制限リスト {name!r} はありません", "there is no Forbidden/Limited list named {name!r}"
)

# From cli/cards.py.
messages.register(
    "offline",
    "{url} に接続できません（{reason}）。"
    "オフラインの場合は `taikai cards import FILE` でファイルから取り込んでください",
    "cannot reach {url} ({reason}). If you are offline, import files with `taikai cards import FILE`",
)
messages.register(
    "sync-too-large",
    "{url} は {limit} MB を超えたため、取り込みを中止しました（--max-mb / TAIKAI_CARDS_SYNC_MAX_MB）。"
    "何も保存していません",
    "{url} is larger than {limit} MB: sync stopped, nothing was saved (--max-mb / TAIKAI_CARDS_SYNC_MAX_MB)",
)
messages.register(
    "sync-deadline",
    "{seconds} 秒以内にダウンロードが終わらなかったため、中止しました"
    "（{url}; --deadline / TAIKAI_CARDS_SYNC_DEADLINE）。"
    "何も保存していません",
    "the downloads did not finish within {seconds} s: sync stopped at {url}, nothing was saved "
    "(--deadline / TAIKAI_CARDS_SYNC_DEADLINE)",
)
messages.register("no-card-found", "「{name}」に一致するカードはありません", "no card matches {name!r}")
