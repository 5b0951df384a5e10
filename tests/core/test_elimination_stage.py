"""The bracket's rounds are named by what is left to play (issue 24, item 18; CS/OFF brackets: 決勝 / 準決勝 /
準々決勝), whatever the size of the cut and with byes in the first round."""

from __future__ import annotations

import pytest

from taikai.core.pairing import elimination


def _names(players: int) -> list[tuple[str, int]]:
    """Each round's stage in a bracket of ``players`` played out with the higher seed always winning."""
    out = []
    rnd = elimination.first_round(elimination.seeded_bracket(list(range(1, players + 1))))
    number = 1
    while True:
        s = elimination.stage(number, len(rnd.tables))
        out.append((s.code, s.number))
        if len(rnd.tables) == 1:
            return out
        rnd = elimination.next_round([a for a, _ in rnd.tables])
        number += 1


@pytest.mark.parametrize(
    ("players", "names"),
    [
        (2, [("final", 1)]),
        (4, [("semifinal", 1), ("final", 2)]),
        (8, [("quarterfinal", 1), ("semifinal", 2), ("final", 3)]),
        (16, [("round", 1), ("quarterfinal", 2), ("semifinal", 3), ("final", 4)]),
        (32, [("round", 1), ("round", 2), ("quarterfinal", 3), ("semifinal", 4), ("final", 5)]),
        # byes fill the first round: six players play a quarterfinal round, two of its tables byes
        (6, [("quarterfinal", 1), ("semifinal", 2), ("final", 3)]),
        (5, [("quarterfinal", 1), ("semifinal", 2), ("final", 3)]),
        (17, [("round", 1), ("round", 2), ("quarterfinal", 3), ("semifinal", 4), ("final", 5)]),
    ],
)
def test_each_bracket_round_is_named_by_the_rounds_left(players: int, names: list[tuple[str, int]]) -> None:
    assert _names(players) == names
