"""Japanese and English texts for core's problem codes (core is pure and says no words): rulesets, pairing and
standings, match records (core.match and core.match_json); and getting the server ready (taikai.server).

Every ``taikai.messages.register`` call lives in a texts module: ``texts.py`` or ``<topic>_texts.py`` of the
package whose codes it says (docs/architecture.md, "Where the words live").
"""

from taikai import messages

register = messages.register
_R = register

# Rulesets (taikai ruleset check).
register("toml-syntax", "TOML の書式エラー: {detail}", "TOML syntax error: {detail}")
register("unknown-ruleset", "ルールセット {name!r} はありません", "there is no ruleset named {name!r}")
register("unknown-key", "{key}: 不明なキーです（綴りを確認してください）", "{key}: unknown key (check the spelling)")
register("missing-key", "{key}: 必須のキーがありません", "{key}: required key is missing")
register(
    "bad-value", "{key}: 値 {value!r} は使えません（{expected}）", "{key}: value {value!r} is not allowed ({expected})"
)
register(
    "min-above-max", "{key}: 最小 {min} が最大 {max} を超えています", "{key}: minimum {min} is above maximum {max}"
)
register(
    "too-few-duels",
    "{key}: {duels_to_win} 勝先取には {value} デュエルでは足りません",
    "{key}: {value} duels cannot decide a first-to-{duels_to_win} match",
)
register(
    "elimination-draws",
    "{key}: トーナメント方式ではマッチの引き分けはありません (MATCH-2)",
    "{key}: single elimination has no match draws (MATCH-2)",
)
register(
    "bad-ladder",
    "{key}: 罰則の段階を軽い順に1回ずつ並べてください（使える段階: {expected}）",
    "{key}: list the rungs lightest first, each once (the rungs: {expected})",
)
register(
    "rung-not-on-ladder",
    "{key}: 罰則 {value!r} は penalties.ladder にありません",
    "{key}: the rung {value!r} is not on penalties.ladder",
)
register(
    "duplicate-infraction", "{key}: 違反 {value!r} が2回あります", "{key}: the infraction {value!r} is listed twice"
)
register(
    "too-many-seat-wins",
    "{key}: 席数 {seats} より多い勝利数は指定できません",
    "{key}: cannot need more seat wins than the {seats} seats",
)
register(
    "open-band-not-last",
    "{key}: max_players のない行は最後にしてください",
    "{key}: only the last row may omit max_players",
)
register(
    "bands-not-increasing",
    "{key}: max_players は増加していく正の整数にしてください（{value!r}）",
    "{key}: max_players must be positive and increasing ({value!r})",
)
register("extends-cycle", "extends が循環しています: {name}", "extends forms a cycle: {name}")

# Pairing and standings (taikai pair, taikai standings, and the event services).
_PAIRING = {
    "unknown-opponent": (
        "プレイヤー {player} の対戦相手 {opponent} がいません",
        "player {player}: unknown opponent {opponent}",
    ),
    "unpairable": ("禁止された組み合わせを避けて組むことができません", "no pairing avoids the forbidden pairs"),
    "duplicate-player": ("プレイヤー {player} が2回あります", "player {player} is listed twice"),
    "unknown-player": ("プレイヤー {player} はいません", "unknown player {player}"),
    "team-seats": ("チームの席の数がルールセットと合いません", "a team's seats do not match the ruleset"),
    "odd-bracket": (
        "トーナメントの人数 {players} は偶数にしてください",
        "a bracket round needs an even count ({players})",
    ),
    "bad-result": ("{a} 対 {b} の結果 {result!r} は使えません", "result {result!r} of {a} v {b} is not valid"),
}
for _code, (_ja, _en) in _PAIRING.items():
    register(_code, _ja, _en)

# Match records (taikai match result, the result forms and the API).
_R("match-input-unreadable", "入力を読めません: {detail}", "cannot read the input: {detail}")
_R("match-json-syntax", "JSON の書式エラー: {detail}", "JSON syntax error: {detail}")
_R("match-not-object", "入力は JSON オブジェクトにしてください", "the input must be a JSON object")
_R("match-unknown-field", "不明な項目 {field!r} があります", "unknown field {field!r}")
_R("match-bad-type", "{field} は {expected} にしてください", "{field} must be {expected}")
_R(
    "match-format-missing",
    "大会形式がありません（JSON の format か --format で swiss / elimination を指定）",
    "no format given (set format in the JSON or --format: swiss or elimination)",
)
_R(
    "match-format-conflict",
    "JSON の format {given!r} と --format {flag!r} が食い違っています",
    "the JSON's format {given!r} disagrees with --format {flag!r}",
)
_R(
    "match-unknown-format",
    "大会形式 {format!r} はありません（swiss か elimination）",
    "unknown format {format!r} (swiss or elimination)",
)
_R("match-duel-not-object", "デュエルは JSON オブジェクトにしてください", "a duel must be a JSON object")
_R(
    "match-duel-kind",
    "winner・draw・time のどれか1つだけを指定してください",
    "give exactly one of winner, draw or time",
)
_R("match-unknown-player", "プレイヤー {player!r} はいません（A か B）", "unknown player {player!r} (A or B)")
_R("match-lp-missing", "プレイヤー {player} のライフポイントがありません", "the LP of player {player} are missing")
_R(
    "duel-after-match-end",
    "マッチの勝敗が決まった後のデュエルです",
    "a duel after the match was already decided",
)
_R(
    "too-many-duels",
    "1マッチは最大 {max_duels} デュエルです",
    "a match has at most {max_duels} duels",
)
_R(
    "duel-after-time",
    "制限時間の後に通常のデュエルは行いません（エキストラデュエルのみ）",
    "no regular duel after time was called (only the extra duel)",
)
_R(
    "draw-not-allowed",
    "{format} ではこのデュエルを引き分けにできません",
    "this duel cannot be a draw in {format}",
)
_R(
    "lp-not-positive",
    "プレイヤー {player} のライフポイント {lp} は使えません（0 以下ならデュエルは通常どおり決着しています）",
    "player {player}'s LP {lp} are impossible (at 0 or below the duel ended normally)",
)
_R(
    "sudden-death-not-allowed",
    "{format} にサドンデスはありません（同じライフポイントなら引き分け）",
    "there is no sudden death in {format} (equal LP draw the duel)",
)
_R(
    "sudden-death-unequal-lp",
    "ライフポイントが異なる（A {a}・B {b}）のにサドンデスがあります",
    "sudden death with unequal LP (A {a}, B {b})",
)
_R(
    "sudden-death-missing",
    "同じライフポイントのためサドンデスの勝者が必要ですが、記録されていません",
    "equal LP: the sudden death winner must be recorded before anything else",
)
_R(
    "time-between-duels-after-match-end",
    "マッチの勝敗が決まった後にデュエル間の時間切れはありえません",
    "time cannot run out between duels after the match was decided",
)
_R(
    "time-called-twice",
    "制限時間の終了は1マッチに1回だけです",
    "time can be called only once in a match",
)
_R(
    "extra-duel-not-allowed",
    "{format} にエキストラデュエルはありません",
    "there is no extra duel in {format}",
)
_R(
    "extra-duel-not-due",
    "エキストラデュエルを行う状況ではありません（制限時間後の 0勝0敗 か 1勝1敗 のみ）",
    "no extra duel is due here (only at 0-0 or 1-1 after time)",
)
_R(
    "match-unknown-basis",
    "決着の仕方 {basis!r} はありません（played・concession-consent・concession-own-turn・intentional-draw）",
    "unknown basis {basis!r} (played, concession-consent, concession-own-turn or intentional-draw)",
)

# The duel-by-duel result form (core.match_json.report_from_form): the person filling it in sees these, so they
# name what to do, not the form's field names. The edge puts "Duel n:" in front.
_R("form-duel-choice", "結果を選び直してください。", "Choose the duel's result again.")
_R(
    "form-lp-missing",
    "時間切れのデュエルには両プレイヤーのライフポイントを入力してください。",
    "For a duel that ended at time, enter both players' life points.",
)
_R(
    "form-lp-not-number",
    "ライフポイントは数字で入力してください（例: 8000）。",
    "Enter the life points as a number (for example 8000).",
)
_R(
    "form-sudden-death-choice",
    "サドンデスの勝者を選び直してください。",
    "Choose the sudden death's winner again.",
)
_R("form-basis-choice", "マッチの決着の仕方を選び直してください。", "Choose how the match ended again.")
_R(
    "form-opening-choice",
    "1デュエル目のじゃんけんの勝者と先攻のプレイヤーを両方選んでください（記録しない場合は両方空欄）。",
    "Choose both who won duel 1's rock-paper-scissors and who went first (or leave both empty).",
)
# END-2, CS 4.3: the report is refused whole and the judges hear of it (possible INF-22).
_R(
    "id-contradicts-duels",
    "インテンショナル・ドローとして報告されましたが、記録されたデュエルでは一方が勝ち越しています（{a}–{b}）。"
    "実際の対戦内容どおりに報告してください。引き分けの合意の後に一方が勝った場合は、その勝敗を報告します"
    "（ルール上問題ありません、CS 4.3）。この報告はジャッジに伝えました。",
    "This was reported as an intentional draw, but in the duels listed one player leads ({a}-{b}). Report what "
    "was played. If a player won after you agreed to draw, report that win: it is no rules problem (CS 4.3). "
    "The judges have been told of this report.",
)

# Getting the server ready (taikai.server).
_R(
    "db-migrating",
    "taikai: データベースを準備しています（マイグレーション {n} 件）…",
    "taikai: preparing the database ({n} migrations)…",
)
_R(
    "db-unavailable",
    "taikai: データベースを開けません（{reason}）。TAIKAI_DATABASE_URL を確認してください",
    "taikai: cannot open the database ({reason}); check TAIKAI_DATABASE_URL",
)
