"""Duel records to a match's state (マッチの勝敗判定), RULES.md MATCH-* and TIME-*.

A match record (``taikai.core.match_record``) lists the duels in the order played. ``evaluate`` folds over
them and says whether the match is finished, who won or whether it is a match draw, the duel score, what must
happen next and who chooses to go first or second in the next duel. A record that cannot happen under the rules raises
``MatchRecordError`` carrying a ``Problem`` that names the duel (1-based, in record order).

Every number (duels to win, the most duels, which formats allow draws, sudden death or an extra duel)
comes from the ruleset. The time procedure that produces time-called duels lives in
``taikai.core.time_procedure``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from taikai.core.match_record import Drawn, Duel, Format, MatchRecord, Player, TimedOut, Won, leader_of
from taikai.core.problems import Problem, ProblemError
from taikai.core.ruleset import FormatRules, Ruleset


class Next(StrEnum):
    DUEL = "duel"
    SUDDEN_DEATH = "sudden_death"  # サドンデス: the current duel continues until an LP change
    EXTRA_DUEL = "extra_duel"  # エキストラデュエル


class Chooser(StrEnum):
    """Who chooses to go first or second in the next duel."""

    A = "A"
    B = "B"
    RPS = "rps"  # rock-paper-scissors (じゃんけん)


@dataclass(frozen=True)
class Score:
    a: int = 0
    b: int = 0
    draws: int = 0

    def wins(self, player: Player) -> int:
        return self.a if player is Player.A else self.b

    @property
    def leader(self) -> Player | None:
        return leader_of(self.a, self.b)

    def add(self, winner: Player | None) -> Score:
        if winner is None:
            return replace(self, draws=self.draws + 1)
        if winner is Player.A:
            return replace(self, a=self.a + 1)
        return replace(self, b=self.b + 1)


@dataclass(frozen=True)
class MatchState:
    finished: bool
    winner: Player | None
    draw: bool
    score: Score
    next: Next | None
    chooser: Chooser | None
    judge_flag: bool  # the rules are silent (who chooses after a drawn duel): a judge should confirm
    rules: tuple[str, ...]
    # taikai's readings where the text is silent (READINGS), kept with the result: the judges' queue shows them
    readings: tuple[str, ...] = ()


# Where the text is silent, taikai reads it so the judge is never stuck; each reading is flagged for the judge.
DRAW_AFTER_TIME = "draw-after-time"  # single elimination: the game drew during the called turn or extra turns
DRAW_IN_EXTRA_DUEL = "draw-in-extra-duel"  # the extra duel's game drew: it is played again
TIED_AFTER_MOST_DUELS = "tied-after-most-duels"  # single elimination tied (1-1-1) after the most duels
READINGS = (DRAW_AFTER_TIME, DRAW_IN_EXTRA_DUEL, TIED_AFTER_MOST_DUELS)


class MatchRecordError(ProblemError):
    """A record that cannot happen under the rules."""


# The Swiss tables of OFF C, keyed by the duel during which time was called: a score (leader's wins,
# the other's wins, draws) listed there is cited by that row's ID; any other score by TIME-S-7.
_SWISS_TABLES: dict[int, tuple[str, frozenset[tuple[int, int, int]]]] = {
    3: ("TIME-S-3", frozenset({(2, 1, 0), (1, 0, 2), (1, 1, 1), (0, 0, 3)})),
    2: ("TIME-S-4", frozenset({(2, 0, 0), (1, 0, 1), (1, 1, 0), (0, 0, 2)})),
    1: ("TIME-S-5", frozenset({(1, 0, 0), (0, 0, 1)})),
}


@dataclass(frozen=True)
class _Progress:
    """The fold's accumulator: what the duels so far have established."""

    score: Score = Score()
    regular_duels: int = 0
    time_called_in: int | None = None  # the regular duel during which time was called
    time_called: bool = False
    last: Duel | None = None
    last_winner: Player | None = None
    finished: bool = False
    winner: Player | None = None
    draw: bool = False
    next: Next | None = None
    rules: tuple[str, ...] = ()
    beyond_most_duels: bool = False  # single elimination tied after the most duels, no extra duel: play on
    readings: tuple[str, ...] = ()


def evaluate(record: MatchRecord, ruleset: Ruleset) -> MatchState:
    """The state of a match after the duels in ``record`` (MATCH-1, MATCH-2, MATCH-4, TIME-*)."""
    rules = ruleset.format_rules(record.format.value)
    progress = _Progress()
    regular = _regular_prefix(record.duels)
    for position, duel in enumerate(record.duels[:regular], start=1):
        progress = _regular_duel(progress, duel, position, record.format, rules, ruleset)
    if record.time_called_between_duels:
        progress = _time_between_duels(progress, record.format, rules, ruleset)
    for position, duel in enumerate(record.duels[regular:], start=regular + 1):
        if duel.extra_duel:
            progress = _extra_duel(progress, duel, position, record.format, rules)
        else:
            progress = _regular_duel(progress, duel, position, record.format, rules, ruleset)
    return _state(progress)


def _regular_prefix(duels: tuple[Duel, ...]) -> int:
    for i, duel in enumerate(duels):
        if duel.extra_duel:
            return i
    return len(duels)


def _refuse_if_closed(progress: _Progress, position: int) -> None:
    if progress.finished:
        raise MatchRecordError(Problem("duel-after-match-end", duel=position))
    if progress.next is Next.SUDDEN_DEATH:
        raise MatchRecordError(Problem("sudden-death-missing", duel=position - 1))


def _duel_result(
    duel: Duel, position: int, fmt: Format, rules: FormatRules
) -> tuple[Player | None, bool, tuple[str, ...]]:
    """(winner or None, decided?, rule IDs) for one duel; refuses what the format does not allow."""
    prefix = "TIME-S" if fmt is Format.SWISS else "TIME-E"
    if isinstance(duel, Won):
        return duel.winner, True, (f"{prefix}-1",) if duel.time_called else ()
    if isinstance(duel, Drawn):
        # MATCH-2 forbids match draws outside Swiss, not drawn duels: the match goes on (_regular_duel). Under
        # time in single elimination the text knows only LP and sudden death (TIME-E-2/3); a game that itself
        # draws in the extra turns is a drawn duel, and the duel score decides (TIME-E-7: 1–1 or 0–0 goes
        # to the extra duel). taikai's reading, flagged (DRAW_AFTER_TIME).
        if duel.time_called:
            return None, True, ("TIME-S-1",) if rules.match_draws else ("TIME-E-7",)
        return None, True, ()
    for player in Player:
        if duel.lp.of(player) <= 0:
            # At 0 LP the game itself ended the duel: that is a normal win or draw, not a time result.
            raise MatchRecordError(
                Problem("lp-not-positive", duel=position, player=player.value, lp=duel.lp.of(player))
            )
    if duel.sudden_death is not None:
        if not rules.sudden_death:
            raise MatchRecordError(Problem("sudden-death-not-allowed", duel=position, format=fmt.value))
        if duel.lp.leader is not None:
            raise MatchRecordError(Problem("sudden-death-unequal-lp", duel=position, a=duel.lp.a, b=duel.lp.b))
        return duel.sudden_death, True, ("TIME-E-3",)  # TIME-E-3: the first LP change decides
    if duel.lp.leader is not None:
        return duel.lp.leader, True, (f"{prefix}-2",)  # more LP wins the duel
    if rules.sudden_death:
        return None, False, ("TIME-E-3",)  # equal LP: sudden death must still be played
    return None, True, ("TIME-S-2",)  # equal LP: the duel is a draw


def _regular_duel(
    progress: _Progress, duel: Duel, position: int, fmt: Format, rules: FormatRules, ruleset: Ruleset
) -> _Progress:
    _refuse_if_closed(progress, position)
    if progress.time_called:
        raise MatchRecordError(Problem("duel-after-time", duel=position))
    if progress.regular_duels >= ruleset.match.max_duels and not progress.beyond_most_duels:
        raise MatchRecordError(Problem("too-many-duels", duel=position, max_duels=ruleset.match.max_duels))
    winner, decided, duel_rules = _duel_result(duel, position, fmt, rules)
    time_called = isinstance(duel, TimedOut) or duel.time_called
    if isinstance(duel, Drawn) and duel.time_called and not rules.match_draws:
        progress = replace(progress, readings=progress.readings + (DRAW_AFTER_TIME,))
    progress = replace(
        progress,
        score=progress.score.add(winner) if decided else progress.score,
        regular_duels=progress.regular_duels + 1,
        time_called=time_called,
        time_called_in=progress.regular_duels + 1 if time_called else None,
        last=duel,
        last_winner=winner,
        rules=progress.rules + duel_rules,
    )
    if not decided:
        return replace(progress, next=Next.SUDDEN_DEATH)
    if time_called:
        return _after_time(progress, fmt, rules, ruleset)
    leader = progress.score.leader
    if leader is not None and progress.score.wins(leader) >= ruleset.match.duels_to_win:
        return _finish(progress, leader, "MATCH-1")
    if progress.regular_duels >= ruleset.match.max_duels:
        # Best of three is over without two wins (draws): more duel wins takes the match (MATCH-1, MATCH-2).
        if leader is not None:
            return _finish(progress, leader, "MATCH-1")
        if rules.match_draws:
            return _finish(progress, None, "MATCH-2")
        # MATCH-2: no match draw outside Swiss, and a match has at most max_duels duels (最大３デュエル). The
        # text is silent on 1–1–1; its one way to decide a tied single-elimination match by another duel is
        # the extra duel (TIME-E-5, 判定２). taikai's reading, flagged for the judge (TIED_AFTER_MOST_DUELS).
        tied = replace(progress, readings=progress.readings + (TIED_AFTER_MOST_DUELS,))
        if rules.extra_duel:
            return replace(tied, next=Next.EXTRA_DUEL, rules=progress.rules + ("MATCH-2", "TIME-E-5"))
        # a ruleset with no extra duel: the match goes on, a duel at a time, until one player leads
        return replace(tied, next=None, beyond_most_duels=True, rules=progress.rules + ("MATCH-2",))
    return replace(progress, next=None)


def _after_time(progress: _Progress, fmt: Format, rules: FormatRules, ruleset: Ruleset) -> _Progress:
    """Time was called during a duel that is now decided: the duel score decides (TIME-S-3..7, OFF 判定1-3)."""
    score = progress.score
    leader = score.leader
    if fmt is Format.SWISS:
        rule = _swiss_table_rule(score, progress.time_called_in)
        return _finish(progress, leader, rule)
    if leader is not None:
        full_win = score.wins(leader) >= ruleset.match.duels_to_win
        return _finish(progress, leader, "MATCH-1" if full_win else "TIME-E-4")
    return _tied_after_time(progress, rules)


def _swiss_table_rule(score: Score, duel: int | None) -> str:
    high, low = max(score.a, score.b), min(score.a, score.b)
    rule, rows = _SWISS_TABLES.get(duel or 0, ("TIME-S-7", frozenset()))
    return rule if (high, low, score.draws) in rows else "TIME-S-7"


def _tied_after_time(progress: _Progress, rules: FormatRules) -> _Progress:
    if rules.extra_duel:
        return replace(progress, next=Next.EXTRA_DUEL, rules=progress.rules + ("TIME-E-5",))
    return _finish(progress, None, "TIME-S-7")


def _time_between_duels(progress: _Progress, fmt: Format, rules: FormatRules, ruleset: Ruleset) -> _Progress:
    after = progress.regular_duels
    if progress.finished:
        raise MatchRecordError(Problem("time-between-duels-after-match-end", duel=after))
    if progress.next is Next.SUDDEN_DEATH:
        raise MatchRecordError(Problem("sudden-death-missing", duel=after))
    if progress.time_called_in is not None:
        raise MatchRecordError(Problem("time-called-twice", duel=progress.time_called_in))
    progress = replace(progress, time_called=True)
    leader = progress.score.leader
    if fmt is Format.SWISS:
        return _finish(progress, leader, "TIME-S-6")  # the duel score at time decides
    if leader is not None:
        return _finish(progress, leader, "TIME-E-4")  # 判定3: the player with the win takes the match
    return _tied_after_time(progress, rules)


def _extra_duel(progress: _Progress, duel: Duel, position: int, fmt: Format, rules: FormatRules) -> _Progress:
    _refuse_if_closed(progress, position)
    if not rules.extra_duel:
        raise MatchRecordError(Problem("extra-duel-not-allowed", duel=position, format=fmt.value))
    if progress.next is not Next.EXTRA_DUEL:
        raise MatchRecordError(Problem("extra-duel-not-due", duel=position))
    if not isinstance(duel, TimedOut) and duel.time_called:
        raise MatchRecordError(Problem("time-called-twice", duel=position))
    if isinstance(duel, Drawn):
        # The text is silent on an extra duel the game itself draws: it is played again (4 turns, 8000 LP,
        # first player by RPS: TIME-E-5), so the match still ends with a winner (TIME-E-6). Flagged.
        readings = progress.readings + (DRAW_IN_EXTRA_DUEL,)
        rules_ = progress.rules + ("TIME-E-5",)
        return replace(progress, last=duel, last_winner=None, readings=readings, rules=rules_)
    winner, decided, duel_rules = _duel_result(duel, position, fmt, rules)
    progress = replace(
        progress,
        last=duel,
        last_winner=winner,
        score=progress.score.add(winner) if decided else progress.score,
        rules=progress.rules + tuple(r for r in duel_rules if r != "TIME-E-2"),
    )
    if not decided:
        return replace(progress, next=Next.SUDDEN_DEATH)
    return _finish(progress, winner, "TIME-E-5")


def _finish(progress: _Progress, winner: Player | None, rule: str) -> _Progress:
    return replace(
        progress, finished=True, winner=winner, draw=winner is None, next=None, rules=progress.rules + (rule,)
    )


def _state(progress: _Progress) -> MatchState:
    next_ = progress.next if progress.finished or progress.next else Next.DUEL
    chooser, flag, rule = _chooser(progress, next_)
    flag = flag or (progress.beyond_most_duels and not progress.finished) or bool(progress.readings)
    rules = progress.rules + ((rule,) if rule else ())
    return MatchState(
        finished=progress.finished,
        winner=progress.winner,
        draw=progress.finished and progress.draw,
        score=progress.score,
        next=next_,
        chooser=chooser,
        judge_flag=flag,
        rules=tuple(dict.fromkeys(rules)),
        readings=tuple(dict.fromkeys(progress.readings)),
    )


def _chooser(progress: _Progress, next_: Next | None) -> tuple[Chooser | None, bool, str | None]:
    """Who chooses first or second for the next duel, whether a judge should confirm, and the rule."""
    if next_ is Next.EXTRA_DUEL:
        return Chooser.RPS, False, "TIME-E-5"
    if next_ is not Next.DUEL:
        return None, False, None
    if progress.last is None:
        return Chooser.RPS, False, "MATCH-3"
    if progress.last_winner is None:
        # The rules are silent after a drawn duel: decide by rock-paper-scissors again, flagged for the judge.
        return Chooser.RPS, True, "MATCH-4"
    return Chooser(progress.last_winner.opponent.value), False, "MATCH-4"


def intentional_draw_allowed(fmt: Format, ruleset: Ruleset) -> bool:
    """END-2: players may agree a draw only where match draws exist (Swiss, MATCH-2)."""
    return ruleset.format_rules(fmt.value).match_draws


def intentional_draw(record: MatchRecord, ruleset: Ruleset) -> MatchState:
    """END-2 (CS 4.3): the match draw the players agreed, after the duels they list.

    A reported result must be the game's: an agreed draw is consistent only while neither player leads in
    duel wins (no duel yet, drawn duels, one win each). A record where one player leads (or has won
    the match) is refused with ``id-contradicts-duels``: reporting a draw there would be a result different
    from the one played (INF-22), and a player who broke the agreement and won simply won (no rules
    problem, CS 4.3), which is reported as played.
    """
    state = evaluate(record, ruleset)
    leader = state.score.leader  # a finished match with a winner has one too
    if leader is not None:
        raise MatchRecordError(Problem("id-contradicts-duels", a=state.score.a, b=state.score.b, leader=leader.value))
    return replace(
        state, finished=True, winner=None, draw=True, next=None, chooser=None, judge_flag=False, rules=("END-2",)
    )
