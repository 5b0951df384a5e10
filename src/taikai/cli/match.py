"""taikai match result [--format swiss|elimination] [--ruleset NAME] [--lang ja|en] [FILE]

Reads a match record as JSON (stdin or FILE), prints the match's state as JSON. The JSON shapes are a
contract other tools script against; they are described in the command's ``--help``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from taikai import messages
from taikai.cli.ruleset import load
from taikai.core import ruleset as rs
from taikai.core.match import (
    Drawn,
    Duel,
    Format,
    LifePoints,
    MatchRecord,
    MatchRecordError,
    MatchState,
    Player,
    TimedOut,
    Won,
    evaluate,
)
from taikai.core.problems import Problem

DESCRIPTION = "Judge a match from its duels (RULES.md MATCH-*, TIME-*).\nデュエルの記録からマッチの勝敗を判定します。"
EPILOG = """\
input (JSON, stdin or FILE):
  {"format": "swiss",
   "duels": [{"winner": "A"}, {"draw": true}, {"time": {"A": 3000, "B": 3000}}],
   "time_called_between_duels": false}

  format      "swiss" or "elimination"; may be left out when --format is given.
              If both are given they must agree.
  duels       the duels in the order played, each one of:
                {"winner": "A"|"B"}    won normally (concession and penalty duel loss too);
                                       add "time_called": true if time was called during
                                       this duel and the win came in its extra turns
                {"draw": true}         the game itself ended the duel in a draw (Swiss)
                {"time": {"A": LP, "B": LP}}
                                       time was called in this duel and its extra turns
                                       (or an extra duel's turns) ended with no normal
                                       win; the LP then. Add "sudden_death": "A"|"B" when
                                       the LP were equal and sudden death was decided
                                       (single elimination)
              any of them with "extra_duel": true is the single-elimination extra duel.
  time_called_between_duels
              true when time ran out while no duel was being played, after the last
              regular duel listed (an extra duel may follow). Optional, default false.

output (JSON, one line):
  {"status": "final", "winner": "A", "draw": false,
   "duels": {"A": 1, "B": 0, "draws": 2},
   "next": null, "chooser": null, "rules": ["TIME-S-2", "TIME-S-3"]}

  status "final" or "pending"; winner "A", "B" or null; draw true only for a finished
  match draw; duels counts every duel listed, the extra duel included; next null, "duel",
  "sudden_death" or "extra_duel"; chooser (who chooses first or second in the next duel)
  "A", "B", "rps" or null; rules: the RULES.md IDs that decided it.

A record that cannot happen under the rules exits with status 2, prints nothing on stdout
and one line on stderr naming the problem and the duel (Japanese or English: --lang, LANG).

example:
  echo '{"format": "elimination", "duels": [{"winner": "A"}, {"winner": "B"}],
         "time_called_between_duels": true}' | taikai match result
  {"status": "pending", "winner": null, "draw": false, "duels": {"A": 1, "B": 1, "draws": 0},
   "next": "extra_duel", "chooser": "rps", "rules": ["TIME-E-5"]}
"""

_TOP_KEYS = frozenset({"format", "duels", "time_called_between_duels"})
_DUEL_KEYS = {
    "winner": frozenset({"winner", "time_called", "extra_duel"}),
    "draw": frozenset({"draw", "time_called", "extra_duel"}),
    "time": frozenset({"time", "sudden_death", "extra_duel"}),
}


class RecordFormatError(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("match", help="match results and the time procedure / マッチの勝敗判定")
    msub = p.add_subparsers(dest="action", metavar="ACTION")
    msub.required = True
    result = msub.add_parser(
        "result",
        help="a match record (JSON) -> the match's state (JSON)",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    result.add_argument("--format", choices=[f.value for f in Format], help="the event format, if the JSON lacks it")
    result.add_argument("--ruleset", default="dkt-2011", help="a built-in ruleset or a .toml file (default: dkt-2011)")
    result.add_argument("--lang", choices=messages.LANGS, help="language of error messages (default: from LANG)")
    result.add_argument("file", nargs="?", help="the record as JSON (default: stdin)")
    result.set_defaults(func=cmd_result)


def cmd_result(args: argparse.Namespace) -> int:
    lang = messages.cli_language(args.lang)
    try:
        ruleset = load(args.ruleset)
    except rs.RulesetError as exc:
        return _fail(exc.problems[0], lang)
    try:
        text = Path(args.file).read_text("utf-8") if args.file else sys.stdin.read()
    except (OSError, UnicodeDecodeError) as exc:
        return _fail(Problem("match-input-unreadable", detail=str(exc)), lang)
    try:
        record = parse_record(text, args.format)
        state = evaluate(record, ruleset)
    except (RecordFormatError, MatchRecordError) as exc:
        return _fail(exc.problem, lang)
    print(json.dumps(state_json(state)))
    return 0


def _fail(problem: Problem, lang: str) -> int:
    line = messages.text(problem, lang)
    duel = problem.params.get("duel")
    if isinstance(duel, int) and duel > 0:
        line = (f"{duel}デュエル目: " if lang == "ja" else f"duel {duel}: ") + line
    sys.stderr.write(line.replace("\n", " ") + "\n")
    return 2


def state_json(state: MatchState) -> dict[str, Any]:
    """The output contract: key order and values exactly as documented in --help."""
    return {
        "status": "final" if state.finished else "pending",
        "winner": state.winner.value if state.winner else None,
        "draw": state.draw,
        "duels": {"A": state.score.a, "B": state.score.b, "draws": state.score.draws},
        "next": state.next.value if state.next else None,
        "chooser": state.chooser.value if state.chooser else None,
        "rules": list(state.rules),
    }


# --- the input contract ---------------------------------------------------------------------------


def parse_record(text: str, format_flag: str | None) -> MatchRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordFormatError(Problem("match-json-syntax", detail=f"{exc.msg} (line {exc.lineno})")) from exc
    if not isinstance(data, dict):
        raise RecordFormatError(Problem("match-not-object"))
    _refuse_unknown_keys(data, _TOP_KEYS, 0)
    duels = data.get("duels")
    if not isinstance(duels, list):
        raise RecordFormatError(Problem("match-bad-type", field="duels", expected="list", duel=0))
    between = data.get("time_called_between_duels", False)
    if not isinstance(between, bool):
        raise RecordFormatError(Problem("match-bad-type", field="time_called_between_duels", expected="bool", duel=0))
    fmt = _format(data.get("format"), format_flag)
    return MatchRecord(fmt, tuple(_duel(d, i) for i, d in enumerate(duels, start=1)), between)


def _format(given: object, flag: str | None) -> Format:
    if given is None and flag is None:
        raise RecordFormatError(Problem("match-format-missing"))
    if given is not None and flag is not None and given != flag:
        raise RecordFormatError(Problem("match-format-conflict", given=given, flag=flag))
    value = given if given is not None else flag
    if value not in {f.value for f in Format}:
        raise RecordFormatError(Problem("match-unknown-format", format=value))
    return Format(value)


def _refuse_unknown_keys(data: dict[str, Any], allowed: frozenset[str], duel: int) -> None:
    for key in data:
        if key not in allowed:
            raise RecordFormatError(Problem("match-unknown-field", field=key, duel=duel))


def _duel(data: object, duel: int) -> Duel:
    if not isinstance(data, dict):
        raise RecordFormatError(Problem("match-duel-not-object", duel=duel))
    kinds = [kind for kind in _DUEL_KEYS if kind in data]
    if len(kinds) != 1:
        raise RecordFormatError(Problem("match-duel-kind", duel=duel))
    kind = kinds[0]
    _refuse_unknown_keys(data, _DUEL_KEYS[kind], duel)
    extra_duel = _flag(data, "extra_duel", duel)
    if kind == "winner":
        return Won(_player(data["winner"], duel), _flag(data, "time_called", duel), extra_duel)
    if kind == "draw":
        if data["draw"] is not True:
            raise RecordFormatError(Problem("match-bad-type", field="draw", expected="true", duel=duel))
        return Drawn(_flag(data, "time_called", duel), extra_duel)
    sudden = data.get("sudden_death")
    return TimedOut(_life_points(data["time"], duel), None if sudden is None else _player(sudden, duel), extra_duel)


def _flag(data: dict[str, Any], key: str, duel: int) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise RecordFormatError(Problem("match-bad-type", field=key, expected="bool", duel=duel))
    return value


def _player(value: object, duel: int) -> Player:
    if value not in ("A", "B"):
        raise RecordFormatError(Problem("match-unknown-player", player=value, duel=duel))
    return Player(value)


def _life_points(value: object, duel: int) -> LifePoints:
    if not isinstance(value, dict):
        raise RecordFormatError(Problem("match-bad-type", field="time", expected='{"A": LP, "B": LP}', duel=duel))
    for key in value:
        _player(key, duel)
    lp: dict[str, int] = {}
    for player in ("A", "B"):
        points = value.get(player)
        if points is None:
            raise RecordFormatError(Problem("match-lp-missing", player=player, duel=duel))
        if isinstance(points, bool) or not isinstance(points, int):
            raise RecordFormatError(Problem("match-bad-type", field=f"time.{player}", expected="integer", duel=duel))
        lp[player] = points
    return LifePoints(lp["A"], lp["B"])


# --- texts (the CLI prefixes "duel N: " / "Nデュエル目: " when a problem names a duel) ----------------

_R = messages.register
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
