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

from taikai import (
    messages,
    texts,  # noqa: F401  (registers the texts)
)
from taikai.cli.ruleset import load
from taikai.core import ruleset as rs
from taikai.core.match import MatchRecordError, MatchState, evaluate
from taikai.core.match_json import RecordFormatError
from taikai.core.match_json import parse_record as parse_json_record
from taikai.core.match_record import Format, MatchRecord
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


def parse_record(text: str, format_flag: str | None) -> MatchRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordFormatError(Problem("match-json-syntax", detail=f"{exc.msg} (line {exc.lineno})")) from exc
    return parse_json_record(data, format_flag)
