"""Japanese and English texts for the events services' problem codes."""

from __future__ import annotations

from django.utils import translation

from taikai import texts as _core_texts  # noqa: F401  (registers core's problem texts)
from taikai.core.problems import Problem
from taikai.messages import register, text

# code: (Japanese, English)
TEXTS: dict[str, tuple[str, str]] = {
    "not-organizer": ("この操作は大会の主催者だけができます。", "Only the event's organizers can do this."),
    "not-staff": ("この操作は大会スタッフだけができます。", "Only the event's staff can do this."),
    "not-judge": ("この操作はジャッジだけができます。", "Only judges can do this."),
    "not-head-judge": ("この操作はヘッドジャッジだけができます。", "Only the head judge can do this."),
    "not-log-reader": (
        "大会の変更履歴は主催者とヘッドジャッジだけが見られます。",
        "Only the organizer and the head judge can read the event's log.",
    ),
    "required": ("{field} を入力してください。", "{field} is required."),
    "too-long": ("{field} は {limit} 文字以内にしてください。", "{field} must be at most {limit} characters."),
    "bad-choice": ("{field} に {value!r} は選べません。", "{value!r} is not a valid choice for {field}."),
    "bad-field": ("{field} は変更できません。", "{field} cannot be changed."),
    "unknown-ruleset": ("ルールセット {name!r} はありません。", "There is no ruleset named {name!r}."),
    "event-started-fixed": (
        "大会が始まった後は {field} を変更できません。",
        "{field} cannot change once the event has started.",
    ),
    "round-plan-fixed": (
        "スイスドローの回戦数と決勝トーナメントの人数は 1 回戦の組み合わせで確定しました。"
        "変えるときは大会コンソールの「回戦数と決勝トーナメント」で変更してください。",
        "The Swiss rounds and the top cut were fixed when round 1 was paired. "
        'Change them on the event console, under "Rounds and top cut".',
    ),
    "round-plan-conflict": (
        "ほかの人が先に変更しました。現在はスイスドロー {swiss_rounds} 回戦・決勝トーナメント {top_cut} 名です。"
        "画面を読み込み直して、もう一度決めてください。",
        "Someone else changed this first: it is now {swiss_rounds} Swiss rounds and a top cut of {top_cut}. "
        "Reload the page and decide again.",
    ),
    "round-plan-required": (
        "1 回戦の後は、スイスドローの回戦数と決勝トーナメントの人数を数字で入力してください。",
        "Once round 1 is paired, the Swiss rounds and the top cut must be numbers.",
    ),
    "plan-rounds-paired": (
        "すでに {played} 回戦まで組み合わせ済みです。スイスドローの回戦数はそれより少なくできません。",
        "{played} Swiss rounds are already paired: there cannot be fewer.",
    ),
    "plan-cut-made": (
        "決勝トーナメントはもう始まっています。回戦数と人数は変えられません。",
        "The top cut has been made: the Swiss rounds and the cut can no longer change.",
    ),
    "swiss-rounds-range": ("スイスドローの回戦数は {low}〜{high} です。", "Swiss rounds are {low} to {high}."),
    "top-cut-range": (
        "決勝トーナメントの人数は 0（なし）か {low}〜{high} 名です。",
        "The top cut is 0 (none) or {low} to {high} players.",
    ),
    "unknown-user": ("ユーザー {username!r} はいません。", "There is no user {username!r}."),
    "username-taken": ("ユーザー名 {username!r} は使われています。", "The user name {username!r} is taken."),
    "weak-password": ("パスワードが弱すぎます: {detail}", "The password is too weak: {detail}"),
    "bad-card-game-id": (
        "コナミカードゲームIDは10桁の数字です（入力: {value!r}）。",
        "A Konami Card Game ID is 10 digits (got {value!r}).",
    ),
    "already-registered": (
        "カードゲームID {card_game_id} はこの大会に登録済みです。",
        "Card Game ID {card_game_id} is already registered in this event.",
    ),
    "registration-closed": (
        "受付は終了しました。スタッフに声をかけてください。",
        "Registration is closed. Please ask the staff.",
    ),
    "csv-encoding": (
        "CSV の文字コードを読めません（UTF-8 か Shift_JIS で保存してください）。",
        "Cannot read the CSV's encoding (save it as UTF-8 or Shift_JIS).",
    ),
    "csv-missing-columns": ("CSV の見出しに {columns} がありません。", "The CSV header lacks {columns}."),
    "csv-row": ("CSV {line} 行目: {code}", "CSV line {line}: {code}"),
    "csv-too-many-rows": (
        "CSV の行が多すぎます（1回に {limit} 人まで）。ファイルを分けて取り込んでください。",
        "The CSV has too many rows ({limit} players at most at a time). Split the file and import each part.",
    ),
    "csv-unreadable-line": (
        "この行を読めません（長すぎる欄か、閉じていない引用符があります）。",
        "This line cannot be read (a field is far too long, or a quote is not closed).",
    ),
    "already-dropped": ("すでにドロップしています。", "Already dropped."),
    "already-disqualified": ("すでに失格になっています。", "Already disqualified."),
    "announcement-changed": (
        "ほかの人が先にお知らせを変えました。いま表示中: 「{text}」。必要ならもう一度送ってください。",
        "Someone changed the announcement first. Now shown: “{text}”. Send yours again if it is still needed.",
    ),
    "bad-characters": ("{field} に使えない文字（制御文字）が含まれています。", "{field} contains a control character."),
    "bad-pin": ("PIN は{digits}〜12桁の数字です。", "A PIN is {digits} to 12 digits."),
    "recovery-failed": (
        "カードゲームIDかPINが違います。受付で再発行してもらってください。",
        "The Card Game ID or PIN is wrong. The desk can issue a new link.",
    ),
    "round-not-finished": (
        "前のラウンドの結果がそろっていません（未確定 {count} 卓）。",
        "The previous round still has {count} unconfirmed tables.",
    ),
    "round-started": ("このラウンドはすでに始まっています。", "This round has already started."),
    "extension-ruling-short": (
        "「ジャッジの判断に一分以上の時間がかかった場合、ジャッジの判断で、対戦時間を追加することができる」(CS 3.1)。"
        "この大会の基準は{minutes}分以上で、今回の判断は{seconds}秒でした。時間は追加していません。",
        "CS 3.1: when a judge's ruling takes {minutes} minute(s) or more, the judge may add time to the match. This "
        "ruling took {seconds} s: no time was added.",
    ),
    "extension-over-ruling": (
        "追加できるのは判断にかかった時間（{ruling_seconds}秒、追加済み{given}秒、残り{left}秒）までです。"
        "それ以上はヘッドジャッジが決めます (CS 3.1)。",
        "A judge adds at most the time the ruling took ({ruling_seconds} s; {given} s added already, {left} s left); "
        "more is the head judge's decision (CS 3.1).",
    ),
    "extension-not-in-ruleset": (
        "この大会のルールには対戦時間を追加する規定がありません（追加は原宿CS大会規定 3.1 の規定です）。",
        "This event's rules have no rule for adding time (adding it is the Harajuku CS rules' 3.1).",
    ),
    "bad-seed": ("シードは 0 から {limit} までの整数です。", "A seed is a whole number from 0 to {limit}."),
    "repair-result-in": (
        "結果が入っている卓があるため組み直せません（{tables}番卓）。結果のない卓は「組み合わせを編集」で変えられます。",
        "Tables with a result cannot be paired again (table {tables}). Tables without one can be changed with "
        "Edit pairings.",
    ),
    "repair-not-swiss": (
        "決勝トーナメントのラウンドは組み直せません（組み合わせは順位とシードで決まります）。",
        "An elimination round is not paired again (its pairings follow the standings and seeds).",
    ),
    "table-has-result": (
        "{table}番卓（{a} 対 {b}）は結果が入っているため変えられません。",
        "Table {table} ({a} v {b}) has a result and cannot be changed.",
    ),
    "pairings-changed": (
        "この画面を開いた後に、組み合わせが変わりました。何も変更していません。いまの組み合わせを確かめて、もう一度操作してください。",
        "The pairings changed after this page was opened. "
        "Nothing was changed: check the current pairings and try again.",
    ),
    "pairings-changed-results": (
        "この画面を開いた後に、組み合わせか卓の結果が変わりました（いま結果が入っている卓: {tables}）。"
        "何も変更していません。いまの状態を確かめて、もう一度操作してください。",
        "The pairings or a table's result changed after this page was opened (tables with a result now: {tables}). "
        "Nothing was changed: check the current state and try again.",
    ),
    "no-players": ("対戦できるプレイヤーが2人以上必要です。", "At least two active players are needed."),
    "all-rounds-played": ("予定のスイスラウンドはすべて終わりました。", "All planned Swiss rounds have been played."),
    "pairing-failed": ("組み合わせを作れませんでした: {detail}", "Could not pair the round: {detail}"),
    "rematch": (
        "{a} と {b} はすでに対戦しています（再戦を確認してください）。",
        "{a} and {b} have already played (confirm the rematch).",
    ),
    "player-twice": ("{name} が2回組まれています。", "{name} appears twice."),
    "clock-not-running": ("時計は動いていません。", "The clock is not running."),
    "clock-not-paused": ("時計は止まっていません。", "The clock is not paused."),
    "slip-no-link": (
        "{name} にはいま使えるリンクがありません（無効化されたか、まだ発行していません）。"
        "票を渡すには「リンク再発行」を押してください。",
        "{name} has no working link (it was revoked, or never issued). To give them a slip, issue a new link.",
    ),
    "slip-not-reprintable": (
        "{name} の今のリンクは印刷し直せません（以前の版の taikai か、別のサーバーで発行されたリンク）。"
        "票をなくしたなら「リンク再発行」で新しいリンクを渡してください。",
        "The current link of {name} cannot be printed again (issued by an earlier taikai or on another server). "
        "If they lost their slip, issue a new link.",
    ),
    "player-link-changed": (
        "{name} の登録（リンクや参加の状態）は、この画面を開いた後にほかの人が変えました。"
        "選手一覧で今の状態を確かめてから、もう一度決めてください。",
        "Someone else changed the entry of {name} (their link or their status) after you opened this page. "
        "Check the player list, then decide again.",
    ),
    "conflict": (
        "ほかの人が先に変更しました。画面を読み込み直してください。",
        "Someone else changed this first. Reload and try again.",
    ),
    "not-your-match": ("この卓はあなたの対戦ではありません。", "This is not your match."),
    "no-such-notice": ("このお知らせは見つかりません。", "There is no such notice."),
    "table-gone": (
        "この卓は組み合わせの変更でなくなりました。何も記録していません。画面を読み込み直して、今の卓を確かめてください。",
        "This table was removed by a change of the pairings; nothing was recorded. Reload to see your table now.",
    ),
    "result-final": (
        "確定した結果はスタッフだけが訂正できます。",
        "A confirmed result can only be corrected by staff.",
    ),
    "bad-record": ("結果を読めません: {detail}", "Cannot read the result: {detail}"),
    "match-not-finished": ("マッチはまだ終わっていません。", "The match is not finished yet."),
    "contradicts-penalty-duel": (
        "第{number}デュエルは罰則（デュエルの敗北）で {name} の負けと決まっています。その結果はこれと合いません。",
        "Duel {number} was decided by a penalty (a duel loss for {name}); this result does not keep it.",
    ),
    # What the record still lacks, by the rules' next step (core.match.Next): said in words, never as the step's code.
    "match-not-finished-duel": (
        "マッチはまだ終わっていません。次のデュエルの結果も入力してください。",
        "The match is not finished yet: enter the next duel's result too.",
    ),
    "match-not-finished-sudden_death": (
        "マッチはまだ終わっていません。ライフポイントが同じなので、サドンデスの勝者を入力してください。",
        "The match is not finished yet: the life points were equal, so enter who won the sudden death.",
    ),
    "match-not-finished-extra_duel": (
        "マッチはまだ終わっていません。エキストラデュエルの結果を入力してください。",
        "The match is not finished yet: enter the extra duel's result.",
    ),
    "nothing-to-confirm": ("確認する報告がありません。", "There is no report to confirm."),
    "confirm-own-report": (
        "自分の報告は自分で確認できません。相手が確認します。",
        "You cannot confirm your own report; your opponent does.",
    ),
    "reason-required": ("理由を入力してください。", "Give a reason."),
    "id-not-in-elimination": (
        "合意の引き分け（ID）はスイスドローのラウンドだけでできます。",
        "An intentional draw is possible in Swiss rounds only.",
    ),
    "bye-has-no-result": ("不戦勝の卓に結果は入力できません。", "A bye has no result to enter."),
    "cut-too-large": (
        "上位 {cut} 人を選ぶにはプレイヤーが足りません（{players} 人）。",
        "Not enough players ({players}) for a top {cut}.",
    ),
    "team-name-taken": ("チーム名 {name!r} は使われています。", "The team name {name!r} is taken."),
    "team-needs-three": ("チームは {seats} 人で登録してください。", "A team has {seats} players."),
    "team-member-twice": ("同じ選手を二つの席に入れることはできません。", "One player cannot take two seats."),
    "player-has-team": (
        "{name} はすでにチーム {team!r} のメンバーです。",
        "{name} is already a member of the team {team!r}.",
    ),
    "seat-taken": (
        "チーム {team!r} の {seat} 席はすでに埋まっています。",
        "Seat {seat} of the team {team!r} is taken.",
    ),
    "player-changed": (
        "{name} の登録はこの画面を開いた後に変わりました（現在の版 {version}）。何も変えていません。",
        "{name}'s entry changed after you read it (now version {version}). Nothing was changed.",
    ),
    "team-members-or-players": (
        "新しい選手（members）か登録済みの選手（players）のどちらか一方を送ってください。",
        "Send either new players (members) or registered players (players), not both or neither.",
    ),
    "not-team-event": ("この大会はチーム戦ではありません。", "This event is not a team event."),
    "teams-fixed": (
        "1回戦の組み合わせ後はチームのメンバーを変えられません。",
        "Teams cannot change once round 1 is paired.",
    ),
    "team-incomplete": (
        "チーム {team!r} の席がそろっていません（{seats} 人必要）。",
        "The team {team!r} does not have all {seats} seats filled.",
    ),
    "import-invalid": (
        "大会データを読み込めません（{part}が正しくありません）。taikai から書き出したファイルを選んでください。",
        "Cannot import the event file ({part} is not right). Choose a file exported from taikai.",
    ),
    "import-version": (
        "この大会データは形式のバージョン {version} で、このサーバーが読めるのはバージョン {readable} です。"
        "新しい taikai で書き出したファイルなら、このサーバーの taikai を更新してから読み込んでください。",
        "This event file is format version {version}; this server reads versions {readable}. If it was exported by a "
        "newer taikai, update taikai on this server, then import it again.",
    ),
    "event-finished": (
        "この大会は終了しています。登録もチェックインもできません。",
        "This event has finished: nobody can register or check in.",
    ),
    "registration-closed-late-entry": (
        "受付は締め切られています。遅れて来た人は「遅刻参加」で登録してください（出られなかったラウンドは負け扱い）。",
        "Registration is closed. Register a late arrival as a late entry (missed rounds count as losses).",
    ),
    "registration-reopen-too-late": (
        "ラウンドが始まった後は受付を再開できません。遅刻参加で登録してください。",
        "Registration cannot reopen once a round is paired; register late arrivals as late entries.",
    ),
    "archetypes-public-after-event": (
        "大会が終了したので、デッキタイプは公開されています。非公開には戻せません。",
        "The event has finished, so the deck archetypes are public; they cannot be hidden again.",
    ),
    "player-delete-after-start": (
        "ラウンド1の組み合わせ後は削除できません。ドロップにしてください（成績は残ります）。",
        "A player cannot be deleted after round 1 is paired; drop them instead (their results stay).",
    ),
    "player-has-records": (
        "{name} には罰則などの記録があるため削除できません。ドロップにしてください。",
        "{name} has records (such as a penalty) and cannot be deleted; drop them instead.",
    ),
    "csv-rows": (
        "CSV の {count} 行に問題があるため、1行も登録していません。",
        "{count} CSV rows have problems, so no row was imported.",
    ),
    "csv-duplicate": (
        "同じカードゲームIDが {first} 行目にもあります。",
        "The same Card Game ID is on line {first} too.",
    ),
    "not-dropped": ("このプレイヤーはドロップしていません。", "This player has not dropped."),
    "undrop-too-late": (
        "ドロップの後に次のラウンドが組まれたため、取り消せません。",
        "The next round was paired after the drop, so it cannot be taken back.",
    ),
    "undrop-disqualified": (
        "失格によるドロップです。取り消すにはヘッドジャッジが罰則を取り消してください。",
        "This drop is a disqualification; the head judge lifts it by overturning the penalty.",
    ),
    "not-checked-in": (
        "{name} はチェックインしていないため、組み合わせに入れられません。",
        "{name} has not checked in and cannot be paired.",
    ),
    "round-finished": ("このラウンドは終わっています。", "This round is over."),
    "bad-time-change": (
        "その時間（{minutes}分）には変更できません。一度に変えられるのは{most}分まで、残り時間は0分から{most}分までです。",
        "The time cannot change by that much ({minutes} min): it moves by at most {most} min at a time, and the"
        " remaining time stays between 0 and {most} min.",
    ),
    "undo-not-latest": ("取り消せるのは最新のラウンドだけです。", "Only the latest round can be undone."),
    "undo-result-in": (
        "結果が入力された卓があるため、このラウンドは取り消せません。",
        "A result is already in for this round, so it cannot be undone.",
    ),
    "cut-not-next": (
        "決勝トーナメントの選出はスイスドローがすべて終わってからです。",
        "The top cut is chosen once all Swiss rounds are done.",
    ),
    "not-qualified": (
        "{name} は決勝トーナメントの進出圏内にいません。",
        "{name} is not among the players who qualify.",
    ),
    "last-organizer": ("主催者が一人もいなくなるため外せません。", "The event's only organizer cannot be removed."),
    "head-judge-needed": (
        "ヘッドジャッジは外せません。先に別の人をヘッドジャッジにしてください（大会にヘッドジャッジは必ず一人）。",
        "The head judge cannot be removed: first name another head judge (an event always has exactly one).",
    ),
    "server-not-empty": ("この大会データはすでにあります。", "This event already exists on this server."),
    "report-for-earlier-round": (
        "前のラウンドの報告だったため、送信しませんでした。",
        "That report was for an earlier round; it was not sent.",
    ),
    "quick-not-allowed": (
        "この結果はこの大会の形式では選べません。デュエルごとに入力してください。",
        "This result is not possible in this event's format. Enter the duels one by one.",
    ),
}
for _code, (_ja, _en) in TEXTS.items():
    register(_code, _ja, _en)


PARTS = {
    "format": ("ファイルの形式", "the file's format"),
    "event": ("大会の情報", "the event section"),
    "staff": ("スタッフ", "the staff"),
    "teams": ("チーム", "the teams"),
    "players": ("プレイヤー", "the players"),
    "rounds": ("ラウンド", "the rounds"),
    "team_matches": ("チーム戦の対戦", "the team matches"),
    "matches": ("対戦", "the matches"),
    "reports": ("結果報告", "the result reports"),
    "prize_ranks": ("賞品の順位", "the prize table"),
}

FIELDS = {
    "name": ("名前", "name"),
    "name_kana": ("よみがな", "reading"),
    "card_game_id": ("カードゲームID", "Card Game ID"),
    "username": ("ユーザー名", "user name"),
    "format": ("形式", "format"),
    "role": ("役割", "role"),
    "ruleset": ("ルールセット", "ruleset"),
    "contact": ("連絡先", "contact"),
    "announcement": ("お知らせ", "the announcement"),
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
    part = problem.params.get("part")
    if part in PARTS:
        problem = Problem(problem.code, **{**problem.params, "part": PARTS[part][0 if lang == "ja" else 1]})
    if problem.code == "csv-rows":
        problem = Problem(problem.code, count=len(problem.params.get("problems", ())))
    field = problem.params.get("field")
    if field in FIELDS:
        params = {**problem.params, "field": FIELDS[field][0 if lang == "ja" else 1]}
        problem = Problem(problem.code, **params)
    line = text(problem, lang)
    duel = problem.params.get("duel")
    if isinstance(duel, int) and duel > 0:
        line = (f"{duel}デュエル目: " if lang == "ja" else f"Duel {duel}: ") + line
    return line
