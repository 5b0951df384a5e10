"""Problem codes -> Japanese and English text, for the edges (CLI, web, API).

Core returns ``Problem(code, **params)``; each area registers its texts here with ``register`` and
the edge calls ``text(problem, lang)``. Templates use Python ``str.format`` fields named after params.
"""

from __future__ import annotations

import os

from taikai.core.problems import Problem

_TEXTS: dict[str, dict[str, str]] = {}
LANGS = ("ja", "en")


def register(code: str, ja: str, en: str) -> None:
    _TEXTS[code] = {"ja": ja, "en": en}


def text(problem: Problem, lang: str) -> str:
    entry = _TEXTS.get(problem.code)
    if entry is None:
        return str(problem)
    template = entry.get(lang) or entry["en"]
    try:
        return template.format(**problem.params)
    except (KeyError, IndexError):
        return f"{template} {problem.params}"


def cli_language(explicit: str | None = None) -> str:
    """--lang wins; otherwise LC_ALL / LC_MESSAGES / LANG starting with ja means Japanese."""
    if explicit in LANGS:
        return explicit
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return "ja" if value.lower().startswith("ja") else "en"
    return "en"


# Rulesets (taikai ruleset check).
register("toml-syntax", "TOML の書式エラー: {detail}", "TOML syntax error: {detail}")
register("unknown-ruleset", "ルールセット {name!r} はありません", "there is no ruleset named {name!r}")
register("unknown-key", "{key}: 不明なキーです（綴りを確認してください）", "{key}: unknown key (check the spelling)")
register("missing-key", "{key}: 必須のキーがありません", "{key}: required key is missing")
register(
    "bad-value", "{key}: 値 {value!r} は使えません（{expected}）", "{key}: value {value!r} is not allowed ({expected})"
)
register(
    "min-above-max", "{key}: 最小 {min} が最大 {max} を超えています", "{key}: minimum {min} is above maximum {max}"
)
register(
    "too-few-duels",
    "{key}: {duels_to_win} 勝先取には {value} デュエルでは足りません",
    "{key}: {value} duels cannot decide a first-to-{duels_to_win} match",
)
register(
    "elimination-draws",
    "{key}: トーナメント方式ではマッチの引き分けはありません (MATCH-2)",
    "{key}: single elimination has no match draws (MATCH-2)",
)
register(
    "bad-ladder",
    "{key}: 罰則の段階を軽い順に1回ずつ並べてください（使える段階: {expected}）",
    "{key}: list the rungs lightest first, each once (the rungs: {expected})",
)
register(
    "rung-not-on-ladder",
    "{key}: 罰則 {value!r} は penalties.ladder にありません",
    "{key}: the rung {value!r} is not on penalties.ladder",
)
register(
    "duplicate-infraction", "{key}: 違反 {value!r} が2回あります", "{key}: the infraction {value!r} is listed twice"
)
register(
    "too-many-seat-wins",
    "{key}: 席数 {seats} より多い勝利数は指定できません",
    "{key}: cannot need more seat wins than the {seats} seats",
)
register(
    "open-band-not-last",
    "{key}: max_players のない行は最後にしてください",
    "{key}: only the last row may omit max_players",
)
register(
    "bands-not-increasing",
    "{key}: max_players は増加していく正の整数にしてください（{value!r}）",
    "{key}: max_players must be positive and increasing ({value!r})",
)
register("extends-cycle", "extends が循環しています: {name}", "extends forms a cycle: {name}")

# Pairing and standings (taikai pair, taikai standings, and the event services).
_PAIRING = {
    "unknown-opponent": (
        "プレイヤー {player} の対戦相手 {opponent} がいません",
        "player {player}: unknown opponent {opponent}",
    ),
    "unpairable": ("禁止された組み合わせを避けて組むことができません", "no pairing avoids the forbidden pairs"),
    "duplicate-player": ("プレイヤー {player} が2回あります", "player {player} is listed twice"),
    "unknown-player": ("プレイヤー {player} はいません", "unknown player {player}"),
    "team-seats": ("チームの席の数がルールセットと合いません", "a team's seats do not match the ruleset"),
    "odd-bracket": (
        "トーナメントの人数 {players} は偶数にしてください",
        "a bracket round needs an even count ({players})",
    ),
    "bad-result": ("{a} 対 {b} の結果 {result!r} は使えません", "result {result!r} of {a} v {b} is not valid"),
}
for _code, (_ja, _en) in _PAIRING.items():
    register(_code, _ja, _en)
