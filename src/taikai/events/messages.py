"""Japanese and English texts for the events services' problem codes."""

from __future__ import annotations

from django.utils import translation

from taikai import match_messages  # noqa: F401  (registers match-record texts)
from taikai.core.problems import Problem
from taikai.messages import register, text

_R = register
_R("not-organizer", "この操作は大会の主催者だけができます。", "Only the event's organizers can do this.")
_R("not-staff", "この操作は大会スタッフだけができます。", "Only the event's staff can do this.")
_R("not-judge", "この操作はジャッジだけができます。", "Only judges can do this.")
_R("not-head-judge", "この操作はヘッドジャッジだけができます (PEN-6)。", "Only the head judge can do this (PEN-6).")
_R("required", "{field} を入力してください。", "{field} is required.")
_R("too-long", "{field} は {limit} 文字以内にしてください。", "{field} must be at most {limit} characters.")
_R("bad-choice", "{field} に {value!r} は選べません。", "{value!r} is not a valid choice for {field}.")
_R("bad-field", "{field} は変更できません。", "{field} cannot be changed.")
_R("unknown-ruleset", "ルールセット {name!r} はありません。", "There is no ruleset named {name!r}.")
_R(
    "event-started-fixed",
    "大会が始まった後は {field} を変更できません。",
    "{field} cannot change once the event has started.",
)
_R("unknown-user", "ユーザー {username!r} はいません。", "There is no user {username!r}.")
_R("username-taken", "ユーザー名 {username!r} は使われています。", "The user name {username!r} is taken.")
_R("weak-password", "パスワードが弱すぎます: {detail}", "The password is too weak: {detail}")
_R(
    "bad-card-game-id",
    "コナミカードゲームIDは10桁の数字です（入力: {value!r}）。",
    "A Konami Card Game ID is 10 digits (got {value!r}).",
)
_R(
    "already-registered",
    "カードゲームID {card_game_id} はこの大会に登録済みです。",
    "Card Game ID {card_game_id} is already registered in this event.",
)
_R(
    "registration-closed",
    "受付は終了しました。スタッフに声をかけてください。",
    "Registration is closed. Please ask the staff.",
)
_R(
    "csv-encoding",
    "CSV の文字コードを読めません（UTF-8 か Shift_JIS で保存してください）。",
    "Cannot read the CSV's encoding (save it as UTF-8 or Shift_JIS).",
)
_R("csv-missing-columns", "CSV の見出しに {columns} がありません。", "The CSV header lacks {columns}.")
_R("csv-row", "CSV {line} 行目: {code}", "CSV line {line}: {code}")
_R("already-dropped", "すでにドロップしています。", "Already dropped.")
_R("already-disqualified", "すでに失格になっています。", "Already disqualified.")
_R("bad-pin", "PIN は4〜8桁の数字です。", "A PIN is 4 to 8 digits.")
_R(
    "recovery-failed",
    "カードゲームIDかPINが違います。受付で再発行してもらってください。",
    "The Card Game ID or PIN is wrong. The desk can issue a new link.",
)
_R(
    "round-not-finished",
    "前のラウンドの結果がそろっていません（未確定 {count} 卓）。",
    "The previous round still has {count} unconfirmed tables.",
)
_R("round-started", "このラウンドはすでに始まっています。", "This round has already started.")
_R("no-players", "対戦できるプレイヤーが2人以上必要です。", "At least two active players are needed.")
_R("all-rounds-played", "予定のスイスラウンドはすべて終わりました。", "All planned Swiss rounds have been played.")
_R("pairing-failed", "組み合わせを作れませんでした: {detail}", "Could not pair the round: {detail}")
_R(
    "rematch",
    "{a} と {b} はすでに対戦しています（再戦を確認してください）。",
    "{a} and {b} have already played (confirm the rematch).",
)
_R("player-twice", "{name} が2回組まれています。", "{name} appears twice.")
_R("clock-not-running", "時計は動いていません。", "The clock is not running.")
_R("clock-not-paused", "時計は止まっていません。", "The clock is not paused.")
_R(
    "conflict",
    "ほかの人が先に変更しました。画面を読み込み直してください。",
    "Someone else changed this first. Reload and try again.",
)
_R("not-your-match", "この卓はあなたの対戦ではありません。", "This is not your match.")
_R(
    "result-final",
    "確定した結果はスタッフだけが訂正できます (END-3)。",
    "A confirmed result can only be corrected by staff (END-3).",
)
_R("bad-record", "結果を読めません: {detail}", "Cannot read the result: {detail}")
_R("match-not-finished", "マッチはまだ終わっていません。", "The match is not finished yet.")
# What the record still lacks, by the rules' next step (core.match.Next): said in words, never as the step's code.
_R(
    "match-not-finished-duel",
    "マッチはまだ終わっていません。次のデュエルの結果も入力してください。",
    "The match is not finished yet: enter the next duel's result too.",
)
_R(
    "match-not-finished-sudden_death",
    "マッチはまだ終わっていません。ライフポイントが同じなので、サドンデスの勝者を入力してください。",
    "The match is not finished yet: the life points were equal, so enter who won the sudden death.",
)
_R(
    "match-not-finished-extra_duel",
    "マッチはまだ終わっていません。エキストラデュエルの結果を入力してください。",
    "The match is not finished yet: enter the extra duel's result.",
)
_R("nothing-to-confirm", "確認する報告がありません。", "There is no report to confirm.")
_R(
    "confirm-own-report",
    "自分の報告は自分で確認できません。相手が確認します。",
    "You cannot confirm your own report; your opponent does.",
)
_R("reason-required", "理由を入力してください。", "Give a reason.")
_R(
    "id-not-in-elimination",
    "インテンショナル・ドローはスイスドローだけです (END-2)。",
    "An intentional draw is possible in Swiss rounds only (END-2).",
)
_R("bye-has-no-result", "不戦勝の卓に結果は入力できません。", "A bye has no result to enter.")
_R(
    "cut-too-large",
    "上位 {cut} 人を選ぶにはプレイヤーが足りません（{players} 人）。",
    "Not enough players ({players}) for a top {cut}.",
)
_R("team-name-taken", "チーム名 {name!r} は使われています。", "The team name {name!r} is taken.")
_R("team-needs-three", "チームは {seats} 人で登録してください。", "A team has {seats} players.")
_R("import-invalid", "大会データを読み込めません: {detail}", "Cannot import the event file: {detail}")
_R("server-not-empty", "この大会データはすでにあります。", "This event already exists on this server.")


FIELDS = {
    "name": ("名前", "name"),
    "name_kana": ("よみがな", "reading"),
    "card_game_id": ("カードゲームID", "Card Game ID"),
    "username": ("ユーザー名", "user name"),
    "format": ("形式", "format"),
    "role": ("役割", "role"),
    "ruleset": ("ルールセット", "ruleset"),
}


def problem_text(problem: Problem) -> str:
    lang = (translation.get_language() or "ja")[:2]
    if problem.code == "match-not-finished" and problem.params.get("next") in ("duel", "sudden_death", "extra_duel"):
        problem = Problem(f"match-not-finished-{problem.params['next']}")
    inner = problem.params.get("inner")
    if isinstance(inner, Problem):  # e.g. a CSV row: "line 3: <what was wrong>"
        prefix = (
            f"CSV {problem.params.get('line')}行目: " if lang == "ja" else f"CSV line {problem.params.get('line')}: "
        )
        return prefix + problem_text(inner)
    field = problem.params.get("field")
    if field in FIELDS:
        params = {**problem.params, "field": FIELDS[field][0 if lang == "ja" else 1]}
        problem = Problem(problem.code, **params)
    line = text(problem, lang)
    duel = problem.params.get("duel")
    if isinstance(duel, int) and duel > 0:
        line = (f"{duel}デュエル目: " if lang == "ja" else f"Duel {duel}: ") + line
    return line
