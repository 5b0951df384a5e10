"""One order of names everywhere (issue 24, item 21): katakana with hiragana, case folded, width folded."""

from __future__ import annotations

from taikai.core.collation import name_order


def _sorted(people: list[tuple[str, str]]) -> list[str]:
    return [name for name, _ in sorted(people, key=lambda p: name_order(*p))]


def test_a_katakana_reading_sorts_among_the_hiragana_ones() -> None:
    people = [("山田", "ヤマダ"), ("伊藤", "いとう"), ("佐藤", "サトウ"), ("鈴木", "すずき")]
    # code-point order would put every katakana reading (U+30A0..) after every hiragana one (U+3040..)
    assert _sorted(people) == ["伊藤", "佐藤", "鈴木", "山田"]


def test_half_width_katakana_is_the_same_reading() -> None:
    assert name_order("山田", "ﾔﾏﾀﾞ")[0] == name_order("山田", "やまだ")[0]


def test_a_to_z_is_case_and_width_blind() -> None:
    people = [("bob", ""), ("Alice", ""), ("Ｃａｒｏｌ", ""), ("alan", "")]
    assert _sorted(people) == ["alan", "Alice", "bob", "Ｃａｒｏｌ"]


def test_without_a_reading_the_name_is_read() -> None:
    assert _sorted([("さとう", ""), ("あべ", "")]) == ["あべ", "さとう"]


def test_the_same_reading_is_then_ordered_by_the_name() -> None:
    people = [("山田 花子", "やまだ"), ("山田 太郎", "やまだ")]
    assert _sorted(people) == sorted(["山田 花子", "山田 太郎"])
    assert name_order("b", "x") < name_order("a", "y")  # the reading decides before the name
