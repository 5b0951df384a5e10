"""Japanese and English texts for the judging services' problem codes."""

from __future__ import annotations

from taikai.messages import register as _R

_R(
    "unknown-infraction",
    "違反 {infraction} はルールセットにありません。",
    "There is no infraction {infraction} in the ruleset.",
)
_R("unknown-rung", "罰則 {rung!r} は罰則の段階にありません。", "{rung!r} is not a rung of the penalty ladder.")
_R(
    "rung-required",
    "この違反には既定の罰則がありません。罰則を選んでください。",
    "This infraction has no default penalty: choose one.",
)
_R(
    "rung-reason-required",
    "既定 ({default}) と違う罰則には理由が必要です。",
    "A penalty other than the default ({default}) needs a reason.",
)
_R(
    "infraction-needs-time-called",
    "{infraction} は対戦時間の終了後にだけ適用されます（「対戦時間終了後、決着がつかなかった場合、"
    "プレイヤーは通常よりも迅速にプレイする努力義務を負う」原宿CS大会規定 2.1 B）。"
    "この対戦ではまだ時間が終了していません。",
    "{infraction} applies only after time was called (CS 2.1 B: once the match time is over with no winner, players "
    "must play faster than usual). Time has not been called at this match.",
)
_R("not-in-event", "このプレイヤーはこの大会にいません。", "This player is not in this event.")
_R("no-current-match", "このプレイヤーには今の対戦がありません。", "This player has no current match.")
_R("call-closed", "このジャッジコールは終了しています。", "This judge call is closed.")
_R("call-not-yours", "このジャッジコールはあなたが呼んだものではありません。", "You did not make this judge call.")
_R(
    "call-already-taken",
    "ジャッジがもう向かっています。取り消さずに、そのままお待ちください。",
    "A judge is already on the way: the call can no longer be taken back. Please wait at your table.",
)
_R("table-required", "卓番号を入力してください。", "Enter a table number.")
_R("unknown-table", "{table}番卓は今のラウンドにありません。", "There is no table {table} in the current round.")
_R("description-required", "内容を入力してください。", "Please describe what happened.")
_R("already-overturned", "この罰則はすでに取り消されています。", "This penalty was already overturned.")
_R("appeal-decided", "この上告はすでに裁定済みです。", "This appeal has already been decided.")
_R(
    "appeal-own-ruling",
    "ヘッドジャッジ自身の裁定には上告できません。",
    "The head judge's own ruling cannot be appealed.",
)
_R(
    "withdraw-not-head-judge-ruling",
    "この罰則はヘッドジャッジ自身の裁定ではありません。取り消すには、プレイヤーがヘッドジャッジに上告します。",
    "This penalty is not the head judge's own ruling: to take it back, the player appeals to the head judge.",
)
_R(
    "bad-decision",
    "罰則（裁定）を維持するか取り消すかを選んでください。",
    "Choose to keep the penalty (the ruling) or to cancel it.",
)
_R("bad-prize-ranks", "賞の順位が正しくありません: {detail}", "The prize ranks are not valid: {detail}")
_R("bad-import", "取り込めないファイルです: {detail}", "This file cannot be imported: {detail}")
_R("procedure-done", "時間切れの処理はもう終わっています。", "The time procedure is already finished.")
_R(
    "procedure-not-done",
    "時間切れの処理はまだ終わっていません。画面の指示に従って進めてください。",
    "The time procedure is not finished yet: follow the step shown on the page.",
)
_R(
    "procedure-input",
    "今はその操作はできません（ほかの人が先に進めたかもしれません）。画面の指示に従ってください。",
    "That step is not possible now (someone may have gone on first). Follow the step shown on the page.",
)
_R("time-not-callable", "この対戦はもう決着しています。", "This match is already decided.")
_R(
    "no-pending-duel-loss",
    "次の対戦に適用するデュエルの敗北はありません。",
    "There is no duel loss waiting for the next match.",
)
_R("nothing-to-pair", "プレーオフは必要ありません。", "No playoff is needed.")
_R(
    "penalty-lands-current-impossible",
    "この罰則は今の対戦に適用できません（デュエルの敗北はプレイ中の対戦だけ、失格は終わった対戦を変えません）。"
    "「次の対戦」を選んでください。",
    "This penalty cannot apply to the current match (a duel loss needs a match being played; a DQ does not change "
    "a finished match). Choose the next match.",
)
_R(
    "penalty-lands-next-impossible",
    "この罰則は次の対戦まで待てません（失格はプレイ中の対戦だけを敗北にします）。",
    "This penalty cannot wait for the next match (a DQ only forfeits the match being played).",
)
_R(
    "extension-needs-ruling",
    "対戦時間の追加には、その判断（この卓のジャッジコール）か、判断にかかった時間が必要です (CS 3.1: "
    "ジャッジの判断に{minutes}分以上の時間がかかった場合)。",
    "Time is added for a ruling: name its judge call at this table, or how long the ruling took (CS 3.1: when a "
    "judge's ruling takes {minutes} minute(s) or more).",
)
_R(
    "extension-call-elsewhere",
    "このジャッジコールは別の卓（{table}番卓）のものです。",
    "That judge call is for another table (table {table}).",
)
_R(
    "bad-downgrade-steps",
    "受賞資格を下げる段階数は1から{most}までです。賞を失わせるのは「受賞資格を失う失格」(ヘッドジャッジ) です。",
    "A prize is lowered by 1 to {most} steps. Taking the prize away is a DQ losing prize eligibility (head judge).",
)
