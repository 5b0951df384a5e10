"""Card benchmark: importing the 14,484-card .cdb pair (target < 10 s) and checking a deck once the
cards are loaded (target < 10 ms, median of many).

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

    assert check_ydk() == [] and check_sheet() == []
    ydk_ms, sheet_ms = _median_ms(check_ydk, runs), _median_ms(check_sheet, runs)
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
    ]


def _ok(value: float, target: float) -> str:
    return "ok" if value < target else "SLOW"


def db_child(files: dict[str, Path], runs: int) -> dict[str, float]:
    """Runs in the child process: a fresh database, two imports, a deck check through the ORM."""
    from taikai.cli.django_setup import setup

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
    return {"first": first, "second": second, "check_ms": check}


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
