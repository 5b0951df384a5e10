"""Card benchmark: importing the 14,484-card .cdb pair (target < 10 s), checking a deck once the
cards are loaded (target < 10 ms, median of many), a 20 KB list of unknown names (target < 100 ms)
and a folder of 100 decks through `taikai deck check DIR`.

``python -m taikai.bench cards [--data ../shared/data] [--runs 1000] [--database-url URL]`` prints a
markdown table. The database import runs in a child process against a fresh throw-away SQLite file
(or ``--database-url``), never the organizer's database.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

IMPORT_TARGET_S = 10.0
CHECK_TARGET_MS = 10.0
HOSTILE_TARGET_MS = 100.0  # issue 15: a 20 KB list of unknown names took 113 s
FOLDER_DECKS = 100
SHEET = """メインデッキ
3 ブラック・マジシャン
3 青眼の白龍
3 デーモンの召喚
3 ハーピィ・レディ
3 ガード・オブ・フレムベル
3 エフェクト・ヴェーラー
3 幽鬼うさぎ
3 原始生命態ニビル
3 クリッター
3 黒き森のウィッチ
人造人間－サイコ・ショッカー
サイバー・ドラゴン
人喰い虫
サクリファイス
カオス・ソルジャー
オッドアイズ・ペンデュラム・ドラゴン
アストログラフ・マジシャン
サンダー・ボルト
融合
サイクロン
エクストラデッキ
青眼の究極竜
Ｅ・ＨＥＲＯ フレイム・ウィングマン
サイバー・エンド・ドラゴン
スターダスト・ドラゴン
ブラック・ローズ・ドラゴン
フルール・ド・バロネス
Ｎｏ．３９ 希望皇ホープ
天霆號アーゼウス
デコード・トーカー
アクセスコード・トーカー
サイドデッキ
2 灰流うらら
無限泡影
"""


def unknown_names_list(size: int = 20 * 1024) -> str:
    """``size`` bytes of card names nobody knows, as many lines as a list may have (200), each
    as long as it must be to reach the size: the worst list the reader accepts."""
    from taikai.cards.textsheet import MAX_CARD_LINES

    per_line = size // MAX_CARD_LINES
    lines = []
    for i in range(MAX_CARD_LINES):
        line = f"存在しない幻のカード第{i}号・"
        filler = "ドラゴンの竜騎士"
        while len(line.encode("utf-8")) + 3 < per_line:  # + the newline
            line += filler[len(line) % len(filler)]
        lines.append(line)
    return "\n".join(lines)


def _files(data: Path) -> dict[str, Path]:
    return {
        "en": data / "cards" / "cards-en-2026-08.cdb",
        "ja": data / "cards" / "cards-ja-2026-08.cdb",
        "lflist": data / "banlists" / "ocg-2026.07.lflist.conf",
        "ydk": data / "decks" / "sample_deck.ydk",
    }


def _median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def memory_rows(files: dict[str, Path], runs: int) -> list[tuple[str, str, str, str]]:
    from taikai.cards.formats import read_text_sheet, read_ydk
    from taikai.cards.index import MemoryCardIndex
    from taikai.cards.lflist import parse_lflist
    from taikai.cards.sources import read_cdbs
    from taikai.core import ruleset as rs
    from taikai.core.deck import check_deck

    cards, read_s = _timed(lambda: read_cdbs([files["en"], files["ja"]]))
    index, index_s = _timed(lambda: MemoryCardIndex.from_cdb([files["en"], files["ja"]]))
    banlist = parse_lflist(files["lflist"].read_text("utf-8"))[0].banlist()
    modern = rs.builtin("modern")
    deck = read_ydk(files["ydk"].read_text("utf-8"))

    def check_ydk() -> object:
        return check_deck(deck, index.facts(deck.all_cards()), banlist, modern)

    def check_sheet() -> object:
        sheet = read_text_sheet(SHEET, index)
        return check_deck(sheet.deck, index.facts(sheet.deck.all_cards()), banlist, modern)

    hostile = unknown_names_list()

    def check_hostile() -> object:
        sheet = read_text_sheet(hostile, index)
        return check_deck(sheet.deck, index.facts(sheet.deck.all_cards()), banlist, modern)

    assert check_ydk() == [] and check_sheet() == []
    ydk_ms, sheet_ms = _median_ms(check_ydk, runs), _median_ms(check_sheet, runs)
    _, first_hostile_s = _timed(check_hostile)  # includes building the suggestion index once
    hostile_ms = _median_ms(check_hostile, max(runs // 50, 5))
    folder_s = folder_seconds(files)
    target = f"< {CHECK_TARGET_MS:.0f} ms"
    return [
        (f"read the .cdb pair ({len(cards):,} cards)", f"{read_s:.2f} s", "—", ""),
        ("load the in-memory index from the .cdb pair", f"{index_s:.2f} s", "—", ""),
        (f"deck check, .ydk, in memory (median of {runs})", f"{ydk_ms:.3f} ms", target, _ok(ydk_ms, CHECK_TARGET_MS)),
        (
            f"deck check, Japanese text sheet, in memory (median of {runs})",
            f"{sheet_ms:.3f} ms",
            target,
            _ok(sheet_ms, CHECK_TARGET_MS),
        ),
        (
            f"deck check, {round(len(hostile.encode()) / 1024)} KB list of unknown names, in memory (median)",
            f"{hostile_ms:.1f} ms",
            f"< {HOSTILE_TARGET_MS:.0f} ms",
            _ok(hostile_ms, HOSTILE_TARGET_MS),
        ),
        ("the same, first time (builds the suggestion index)", f"{first_hostile_s * 1000:.0f} ms", "—", ""),
        (
            f"`taikai deck check DIR`, {FOLDER_DECKS} decks, .cdb pair and lflist read once",
            f"{folder_s:.2f} s",
            "—",
            "",
        ),
    ]


def folder_seconds(files: dict[str, Path]) -> float:
    """One ``taikai deck check DIR`` run over a folder of 100 decks in the three formats, as a person runs it: a
    process of its own (the bench does not import the command line, issue 28), its start-up counted."""
    from taikai.cards.formats import read_ydk, write_ydke

    ydk = files["ydk"].read_text("utf-8")
    with tempfile.TemporaryDirectory(prefix="taikai-bench-decks-") as tmp:
        folder = Path(tmp)
        for i in range(FOLDER_DECKS):
            kind = i % 3
            if kind == 0:
                (folder / f"{i:03}.ydk").write_text(ydk, "utf-8")
            elif kind == 1:
                (folder / f"{i:03}.ydke.txt").write_text(write_ydke(read_ydk(ydk)), "utf-8")
            else:
                (folder / f"{i:03}.txt").write_text(SHEET, "utf-8")
        args = ["deck", "check", str(folder), "--cards", str(files["en"]), "--cards", str(files["ja"])]
        args += ["--banlist", str(files["lflist"]), "--json"]
        command = [sys.executable, "-c", "import sys; from taikai.cli import main; sys.exit(main())", *args]
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - start
    got = json.loads(done.stdout)
    assert done.returncode == 0 and got["legal"] == FOLDER_DECKS, (done.returncode, got, done.stderr[-500:])
    return seconds


def _ok(value: float, target: float) -> str:
    return "ok" if value < target else "SLOW"


def db_child(files: dict[str, Path], runs: int) -> dict[str, float]:
    """Runs in the child process: a fresh database, two imports, a deck check through the ORM."""
    from taikai.server import setup

    setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from taikai.cards import services
    from taikai.cards.formats import read_ydk
    from taikai.cards.index import DbCardIndex
    from taikai.core import ruleset as rs
    from taikai.core.deck import check_deck

    _, first = _timed(lambda: services.import_card_files([files["en"], files["ja"]]))
    _, second = _timed(lambda: services.import_card_files([files["en"], files["ja"]]))
    services.import_lflist_file(files["lflist"])
    banlist = services.library_banlist("2026.07 OCG").as_core()  # type: ignore[union-attr]
    deck = read_ydk(files["ydk"].read_text("utf-8"))
    index, modern = DbCardIndex(), rs.builtin("modern")
    check = _median_ms(lambda: check_deck(deck, index.facts(deck.all_cards()), banlist, modern), max(runs // 10, 10))
    from taikai.cards.check import check_resolved, resolve_deck_text

    hostile = unknown_names_list()

    def check_hostile() -> object:
        resolved = resolve_deck_text(hostile, index)
        return check_resolved(resolved, ruleset=modern, banlist=banlist, event_date=None)

    check_hostile()  # loads the name table once per process, as a server does after an import
    hostile_ms = _median_ms(check_hostile, 10)
    return {"first": first, "second": second, "check_ms": check, "hostile_ms": hostile_ms}


def db_rows(files: dict[str, Path], runs: int, database_url: str | None) -> list[tuple[str, str, str, str]]:
    with tempfile.TemporaryDirectory(prefix="taikai-bench-") as tmp:
        env = {**os.environ, "TAIKAI_VAR_DIR": tmp}
        env["TAIKAI_DATABASE_URL"] = database_url or f"sqlite:///{tmp}/bench.sqlite3"
        args = [sys.executable, "-m", "taikai.bench.cards", "--child", "--data", str(files["en"].parents[1])]
        result = subprocess.run([*args, "--runs", str(runs)], env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        return [("database import", "failed: " + result.stderr.strip().splitlines()[-1:][0], "", "SLOW")]
    got = json.loads(result.stdout)
    engine = (database_url or "sqlite").split(":")[0]
    return [
        (
            f"import the .cdb pair into {engine} (first time)",
            f"{got['first']:.2f} s",
            f"< {IMPORT_TARGET_S:.0f} s",
            _ok(got["first"], IMPORT_TARGET_S),
        ),
        (
            f"import the .cdb pair into {engine} again (no changes)",
            f"{got['second']:.2f} s",
            f"< {IMPORT_TARGET_S:.0f} s",
            _ok(got["second"], IMPORT_TARGET_S),
        ),
        (
            f"deck check, .ydk, card facts from {engine} (median)",
            f"{got['check_ms']:.3f} ms",
            f"< {CHECK_TARGET_MS:.0f} ms",
            _ok(got["check_ms"], CHECK_TARGET_MS),
        ),
        (
            f"deck check, 20 KB list of unknown names, names from {engine} (median)",
            f"{got['hostile_ms']:.1f} ms",
            f"< {HOSTILE_TARGET_MS:.0f} ms",
            _ok(got["hostile_ms"], HOSTILE_TARGET_MS),
        ),
    ]


def run(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m taikai.bench cards")
    parser.add_argument("--data", default=os.environ.get("TAIKAI_SHARED_DATA", "../shared/data"))
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--database-url", help="benchmark the import against this database instead of a fresh SQLite")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    files = _files(Path(args.data))
    missing = [str(p) for p in files.values() if not p.is_file()]
    if missing:
        print(f"skipped: {missing[0]} not found (pass --data DIR)")
        return
    if args.child:
        print(json.dumps(db_child(files, args.runs)))
        return
    rows = db_rows(files, args.runs, args.database_url) + memory_rows(files, args.runs)
    print("| measure | result | target | |")
    print("|---|---:|---:|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    run(sys.argv[1:])
