"""The charts' layout rules, without a browser: labels are cut to their room, kept apart, and every picture is
drawn at the width asked (tests/web/test_charts_browser.py checks the same in Chromium)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from fractions import Fraction

from taikai.charts import pictures
from taikai.charts.svg import fit, spread, text_width

SVG = "{http://www.w3.org/2000/svg}"
LONG = "ホルスの黒炎竜@イグニスター・ラビュリンス混合ビート"


def test_a_label_that_fits_is_kept_whole() -> None:
    assert fit("スネークアイ", 13, 200) == "スネークアイ"


def test_a_long_japanese_name_is_cut_with_an_ellipsis_to_its_room() -> None:
    cut = fit(LONG, 13, 160)
    assert cut.endswith("…") and LONG.startswith(cut[:-1])
    assert text_width(cut, 13) <= 160 < text_width(cut[:-1] + LONG[len(cut) - 1] + "…", 13)


def test_names_ending_on_neighbouring_ranks_move_apart_within_the_plot() -> None:
    ys = spread([50.0, 51.0, 52.0, 300.0, 301.0], 18, 48, 302)
    assert ys == sorted(ys) and all(b - a >= 18 for a, b in zip(ys, ys[1:], strict=False))
    assert ys[0] >= 48 and ys[-1] <= 302


def _view_width(svg: str) -> float:
    return float(ET.fromstring(svg).get("viewBox", "").split()[2])


def test_every_picture_is_drawn_at_the_width_asked() -> None:
    bars = [pictures.ArchetypeBar(LONG, 3, Fraction(3, 8), Fraction(1, 2), 1)]
    rows = [pictures.RoundAttendance(r, 64, 1, 0) for r in range(1, 16)]
    series = [pictures.PathSeries("山田 太郎", (4096, 12, 1))]
    for width in (pictures.NARROW, pictures.WIDE):
        labels = {"title": "メタゲーム", "players_label": "使用者数", "win_label": "勝率", "cut_label": "決勝"}
        assert _view_width(pictures.metagame(bars, **labels, width=width)) == width
        att = pictures.attendance(rows, title="参加者", labels=("a", "b", "c"), round_label="R", width=width)
        assert _view_width(att) == width
        paths = pictures.standings_paths(series, rounds=3, players=4096, title="順位", round_label="R", width=width)
        assert _view_width(paths) == width


def _rank_ticks(players: int) -> list[str | None]:
    svg = pictures.standings_paths([], rounds=12, players=players, title="順位", round_label="R")
    return [t.text for t in ET.fromstring(svg).iter(f"{SVG}text") if t.get("text-anchor") == "end"]


def test_a_big_field_gets_a_few_round_rank_ticks_not_one_every_ten() -> None:
    ticks = _rank_ticks(4096)
    assert ticks[0] == "1" and ticks[-1] == "4096" and len(ticks) <= 10


def test_a_small_field_labels_each_rank_once() -> None:
    for players in (2, 3, 5, 12):
        ticks = _rank_ticks(players)
        assert ticks[0] == "1" and ticks[-1] == str(players) and len(ticks) == len(set(ticks)), ticks


def test_the_phones_bracket_puts_one_round_under_the_other() -> None:
    match = pictures.BracketMatch("山田 太郎", "佐藤 花子", "a")
    columns = [("第4ラウンド", [match, match]), ("第5ラウンド", [match])]
    narrow = pictures.bracket(columns, title="決勝トーナメント", bye_label="不戦勝", width=pictures.NARROW)
    boxes = list(ET.fromstring(narrow).iter(f"{SVG}rect"))
    assert _view_width(narrow) == pictures.NARROW and len({r.get("x") for r in boxes}) == 1
    wide = pictures.bracket(columns, title="決勝トーナメント", bye_label="不戦勝")
    assert _view_width(wide) == pictures.WIDE  # two rounds are drawn at the other charts' scale, not blown up
