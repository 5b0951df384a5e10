"""The words of a player's notice (``events/services/notices.py``), in Japanese and English."""

from __future__ import annotations

from taikai.core.problems import Problem
from taikai.messages import register, text

_PREFIX = "notice."
_R = register
_R(
    "notice.penalty-duel",
    "{round_name} {table}番卓: 第{number}デュエルは罰則（デュエルの敗北）により {name} の負けになりました。"
    "結果を報告するときは、このデュエルを含めてください。",
    "{round_name}, table {table}: duel {number} was lost by {name} by a penalty (a duel loss). "
    "Your result report must include it.",
)
_R(
    "notice.match-loss",
    "{round_name} {table}番卓: 罰則（マッチの敗北）により、このマッチは {name} の負けになりました。",
    "{round_name}, table {table}: {name} lost this match by a penalty (a match loss).",
)
_R(
    "notice.dq-forfeit",
    "{round_name} {table}番卓: {name} の失格により、このマッチは {name} の負けになりました。",
    "{round_name}, table {table}: {name} was disqualified, so {name} lost this match.",
)
_R(
    "notice.result-corrected",
    "{round_name} {table}番卓の結果が変わりました（理由: {reason}）。",
    "The result of {round_name}, table {table} was changed (reason: {reason}).",
)
_R(
    "notice.result-entered",
    "{round_name} {table}番卓の結果は、受付が結果記入票から入力して確定しました。",
    "The result of {round_name}, table {table} was entered from the result slip by the desk and is final.",
)
_R(
    "notice.overturned-result-stays",
    "{round_name} {table}番卓: 上訴により罰則が取り消されました。このラウンドは終わっているので結果は今のままで、"
    "ジャッジと主催者が訂正を決めます。決まればここでお知らせします。",
    "{round_name}, table {table}: the penalty was overturned on appeal. The round is over, so the result stays "
    "as it is until the judges and the organizer decide a correction; you will be told here.",
)
_R(
    "notice.overturned-result-restored",
    "{round_name} {table}番卓: 上訴により罰則が取り消され、結果は罰則の前のものに戻りました。",
    "{round_name}, table {table}: the penalty was overturned on appeal and the result before it is back.",
)
_R(
    "notice.overturned-match-reopened",
    "{round_name} {table}番卓: 上訴により罰則が取り消されました。罰則の前までのデュエルはそのままです。"
    "対戦を続けて、結果を報告してください。",
    "{round_name}, table {table}: the penalty was overturned on appeal. The duels played before it stand: "
    "play on and report the result.",
)
_R(
    "notice.pairing-changed",
    "{round_name}の組み合わせが変更されました。あなたは {table}番卓 で {opponent} と対戦します。",
    "The pairings of {round_name} were changed: you now play {opponent} at table {table}.",
)
_R(
    "notice.pairing-changed-bye",
    "{round_name}の組み合わせが変更されました。このラウンドは不戦勝（バイ）です。",
    "The pairings of {round_name} were changed: you have a bye this round.",
)
_R(
    "notice.overturned-duel-to-rule",
    "{round_name} {table}番卓: 上訴により罰則が取り消されました。そのデュエルの扱いはジャッジが決めます。"
    "それまでデュエルの記録はそのままです。ジャッジが卓に向かいます。",
    "{round_name}, table {table}: the penalty was overturned on appeal. A judge will rule on the duel it "
    "decided; until then the duels stay as recorded. A judge is coming to your table.",
)
_R(
    "notice.disqualification-lifted",
    "上訴により失格が取り消されました。",
    "Your disqualification was overturned on appeal.",
)

_R(
    "notice.drop-concession",
    "{round_name} {table}番卓: {name} が対戦中に棄権（ドロップ）したため、"
    "このマッチは {name} の投了（負け）になりました。",
    "{round_name}, table {table}: {name} dropped from the event during the match, so {name} conceded (lost) it.",
)
_R(
    "notice.ineligible-forfeit",
    "{round_name} {table}番卓: {name} が大会への参加資格を失ったため（コナミカードゲームIDの登録）、"
    "このマッチは {name} の負けになりました。",
    "{round_name}, table {table}: {name} lost the right to take part in the event (the Konami Card Game ID "
    "registration), so {name} lost this match.",
)
_R(
    "notice.ineligible",
    "大会への参加資格がないと判断されました（理由: {reason}）。"
    "次のラウンドからは組み合わせに入りません。受付にお越しください。",
    "You were found to have no right to take part in the event (reason: {reason}). You will not be paired "
    "from the next round on; please come to the desk.",
)

_R(
    "notice.withdrawn-result-restored",
    "{round_name} {table}番卓: ヘッドジャッジが自身の罰則を取り消し、結果は罰則の前のものに戻りました。",
    "{round_name}, table {table}: the head judge withdrew their penalty, and the result before it is back.",
)
_R(
    "notice.withdrawn-match-reopened",
    "{round_name} {table}番卓: ヘッドジャッジが自身の罰則を取り消しました。罰則の前までのデュエルはそのままです。"
    "対戦を続けて、結果を報告してください。",
    "{round_name}, table {table}: the head judge withdrew their penalty. The duels played before it stand: "
    "play on and report the result.",
)
_R(
    "notice.withdrawn-result-stays",
    "{round_name} {table}番卓: ヘッドジャッジが自身の罰則を取り消しました。このラウンドは終わっているので結果は"
    "今のままで、ジャッジと主催者が訂正を決めます。決まればここでお知らせします。",
    "{round_name}, table {table}: the head judge withdrew their penalty. The round is over, so the result stays "
    "as it is until the judges and the organizer decide a correction; you will be told here.",
)
_R(
    "notice.withdrawn-duel-to-rule",
    "{round_name} {table}番卓: ヘッドジャッジが自身の罰則を取り消しました。"
    "そのデュエルの扱いはジャッジが決めます。それまでデュエルの記録はそのままです。ジャッジが卓に向かいます。",
    "{round_name}, table {table}: the head judge withdrew their penalty. A judge will rule on the duel it "
    "decided; until then the duels stay as recorded. A judge is coming to your table.",
)
_R(
    "notice.disqualification-withdrawn",
    "ヘッドジャッジが失格を取り消しました。",
    "The head judge withdrew your disqualification.",
)


def notice_text(kind: str, params: dict[str, object], lang: str, round_name: str = "") -> str:
    """``round_name``: the round as the event says it (第2ラウンド, 準決勝: ``events.round_words``); without it,
    the stored round number as a Swiss round."""
    if not round_name and "round" in params:
        round_name = f"第{params['round']}ラウンド" if lang == "ja" else f"Round {params['round']}"
    return text(Problem(_PREFIX + kind, **{**params, "round_name": round_name}), lang)
