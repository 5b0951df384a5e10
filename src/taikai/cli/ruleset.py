"""taikai ruleset list | show NAME [--json] | check FILE"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from taikai import messages
from taikai.cli.parsing import command_group
from taikai.core import ruleset as rs


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    rsub = command_group(sub, "ruleset", "list, show and check rulesets / ルールセット")
    rsub.add_parser("list", help="built-in rulesets").set_defaults(func=cmd_list)
    show = rsub.add_parser("show", help="every parameter of a ruleset")
    show.add_argument("name", help="a built-in name or a .toml file")
    show.add_argument("--json", action="store_true")
    show.set_defaults(func=cmd_show)
    check = rsub.add_parser("check", help="validate an organizer's TOML file and name each bad key")
    check.add_argument("file")
    check.set_defaults(func=cmd_check)


def load(name_or_path: str) -> rs.Ruleset:
    path = Path(name_or_path)
    if path.suffix == ".toml" and path.exists():
        return rs.parse_ruleset(path.read_text("utf-8"))
    return rs.builtin(name_or_path)


def _fail(exc: rs.RulesetError, lang: str, where: str) -> int:
    for problem in exc.problems:
        sys.stderr.write(f"{where}: {messages.text(problem, lang)}\n")
    return 2


def cmd_list(args: argparse.Namespace) -> int:
    lang = messages.cli_language(args.lang)
    for name in rs.builtin_names():
        r = rs.builtin(name)
        print(f"{name}\tv{r.version}\t{r.title_ja if lang == 'ja' else r.title_en}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    lang = messages.cli_language(args.lang)
    try:
        r = load(args.name)
    except rs.RulesetError as exc:
        return _fail(exc, lang, args.name)
    doc = r.to_dict()
    doc["ruleset"]["fingerprint"] = r.fingerprint
    if args.json:
        print(json.dumps(doc, ensure_ascii=False, indent=2))
        return 0
    for section, table in doc.items():
        _print_table(section, table)
    return 0


def _print_table(prefix: str, table: object) -> None:
    if isinstance(table, dict):
        for key, value in table.items():
            _print_table(f"{prefix}.{key}", value)
    elif isinstance(table, list) and table and isinstance(table[0], dict):
        for i, row in enumerate(table):
            print(f"{prefix}[{i}] = " + ", ".join(f"{k}={v}" for k, v in row.items()))
    else:
        print(f"{prefix} = {json.dumps(table, ensure_ascii=False)}")


def cmd_check(args: argparse.Namespace) -> int:
    lang = messages.cli_language(args.lang)
    path = Path(args.file)
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        sys.stderr.write(f"{path}: {exc}\n")
        return 2
    try:
        r = rs.parse_ruleset(text)
    except rs.RulesetError as exc:
        return _fail(exc, lang, str(path))
    ok = "OK" if lang == "en" else "問題ありません"
    print(f"{path}: {ok} ({r.name} v{r.version}, {r.fingerprint})")
    return 0
