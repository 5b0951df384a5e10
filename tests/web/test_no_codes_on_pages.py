"""No internal codes on pages (issue 14, last paragraph): every page, in Japanese and in English, as the
organizer, a visitor and a player, says things in words.

The fixture is tests/test_reads_do_not_write.py's tempting event (a dispute, a report awaiting confirmation,
a time procedure under way, a corrected result, a judge call, a penalty and an appeal) plus a finished Swiss +
top-cut event (placings, the bracket). What a person sees of each HTML page (tests/visible.py: no scripts,
no attribute values) is searched for:

* snake_case tokens (``sudden_death``, ``match_loss``) and ``next:`` / ``次:`` leftovers;
* the registered problem codes (``match-not-finished``) and the stored values of statuses, bases, call topics,
  rungs, sources and time-procedure phases (``concession-consent``, ``disputed``); in Japanese pages also
  the one-word ones (``played``, ``heads``) and a raw record (``winner``).

Pages owned by other engineers of issue 14 are listed in KNOWN_PENDING with what they still show; the
integrator removes an entry once that page is fixed, and the test then holds it to the same bar.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai import messages
from taikai.core import rungs
from taikai.core import time_procedure as tp
from taikai.core.match_json import BASES
from taikai.events.models import Match, Round
from taikai.judging.models import JudgeCall
from tests.events.test_final_placings_pages import cut_event
from tests.security.routes import all_routes
from tests.test_reads_do_not_write import SKIPPED, Tempting, build, urls
from tests.visible import visible_text

pytestmark = pytest.mark.django_db

# route name -> who fixes it and what the test found there (the integrator enables each after merging).
KNOWN_PENDING: dict[str, str] = {}

# Not a file name (demo_cards.json) nor part of a token or address (tk_wkl-...).
SNAKE = re.compile(r"(?<![\w./-])[a-z]+(?:_[a-z0-9]+)+(?![\w/-])(?!\.[a-z])")
LEFTOVERS = ("next:", "次:", "次：", "{'", '{"')
# What the issue saw on pages, word for word: a side's letter for a result, "me" as a name, the bare clock word.
# The spaced 「自分 の勝ち」 is what the issue saw; 「自分の勝ち」 on one's own phone is plain Japanese.
PHRASES = {
    "ja": (
        re.compile(r"結果: ?[ab]\b"),
        re.compile(r"自分\s+の勝ち"),
        re.compile(r"(?<![A-Za-z-])TIME(?![A-Za-z-])"),
    ),
    "en": (re.compile(r"Result: ?[ab]\b"), re.compile(r"\bMe won\b"), re.compile(r"(?<![A-Za-z-])TIME(?![A-Za-z-])")),
}


def _stored_values() -> set[str]:
    values = {str(v) for v in Match.Status.values + Round.Status.values}
    values |= set(BASES) | {"disputed", "changed-after-confirmation", "id-in-elimination"}
    values |= {str(v) for v in JudgeCall.Source.values + JudgeCall.Status.values}
    values |= {p.value for p in tp.Phase} | {i.value for i in tp.Input}
    values |= {rungs.CAUTION, rungs.WARNING, rungs.DUEL_LOSS, rungs.MATCH_LOSS, rungs.DQ}
    values |= {"heads", "tails", "not-started", "winner"}
    values |= {"ja", "en", "ko"}  # card languages (DECK-8) by name, never by code
    return values


CODES = set(messages._TEXTS) | _stored_values()
HYPHENATED = {c for c in CODES if "-" in c or "_" in c}  # never English words: checked in both languages
ONE_WORD = {c for c in CODES if c not in HYPHENATED}  # plain words in English; codes in Japanese text


# Issue 24 item 15: the judges' pages say a rule in words. A rule's ID (RULES.md: INF-22, TIME-4, DEV-1, LOOP-2,
# END-1, DECK-8, ...) may stay only as a small secondary hint a judge cites (<small class="rule-id">), never as
# the words themselves; nor the stored flag text "(intentional draw)" on a Japanese page.
RULE_ID = re.compile(r"(?<![\w-])(?:REG|DECK|MATCH|TIME(?:-[ES])?|END|PEN|INF|JUDGE|LOOP|DEV|LP)-\d+(?![\w-])")
JUDGE_PAGES = {"judge_queue", "judge_call", "time_procedure", "table_tools", "penalty_new", "penalty_list"}
JUDGE_PAGES |= {"violator_database", "prizes", "match_result", "decks", "deck_detail", "deck_check"}
_RULE_HINT = re.compile(r'<small class="rule-id">[^<]*</small>')


def rule_codes(page: str, language: str) -> list[str]:
    """The rule IDs and the English flag text a judge page shows outside a rule-id hint."""
    text = visible_text(_RULE_HINT.sub(" ", page))
    found = [m.group(0) for m in RULE_ID.finditer(text)]
    if language == "ja" and "(intentional draw)" in text:
        found.append("(intentional draw)")
    return sorted(set(found))


def findings(text: str, language: str) -> list[str]:
    # An API token's prefix (tk_…) is shown on purpose, so the organizer can tell tokens apart.
    found = [m.group(0) for m in SNAKE.finditer(text) if not m.group(0).startswith("tk_")]
    found += [s for s in LEFTOVERS if s in text]
    found += [m.group(0) for pattern in PHRASES[language] if (m := pattern.search(text))]
    found += [c for c in HYPHENATED if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", text)]
    if language == "ja":
        found += [c for c in ONE_WORD if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", text)]
    return sorted(set(found))


def crawl(world: Tempting, language: str) -> tuple[dict[str, list[tuple[str, list[str]]]], set[str]]:
    """route name -> [(url, codes found)] for every HTML page that showed a code; and the routes read."""
    out: dict[str, list[tuple[str, list[str]]]] = {}
    read: set[str] = set()
    for role in ("organizer", "anonymous", "player"):
        client = Client(raise_request_exception=False)
        client.cookies["taikai_language"] = language
        if role in world.users:
            client.force_login(world.users[role])
        for route in all_routes():
            if route.name in SKIPPED or route.kind == "api":
                continue
            for url, headers in urls(world, role, route):
                response = client.get(url, headers=headers)
                if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
                    continue
                read.add(route.name)
                page = response.content.decode()
                found = findings(visible_text(page), language)
                found += rule_codes(page, language) if route.name in JUDGE_PAGES else []
                if found:
                    out.setdefault(route.name, []).append((url, found))
    return out, read


@pytest.fixture
def world(organizer: User) -> Tempting:
    tempting = build(organizer)
    finished, _swiss = cut_event(organizer)
    tempting.values["event_id"].append(finished.pk)
    tempting.values["number"] = [1, 4, 5]
    return tempting


@pytest.mark.parametrize("language", ["ja", "en"])
def test_no_page_shows_an_internal_code(world: Tempting, language: str) -> None:
    found, read = crawl(world, language)
    # The pages this issue changed are among those read (as 200 HTML pages), with the fixture's tempting states.
    owned = {"judge_queue", "judge_call", "time_procedure", "match_result", "round_results", "round_detail"}
    owned |= {"bracket", "projector", "public_standings", "event_standings", "public_event", "table_tools"}
    assert owned <= read
    pending = {name: hits for name, hits in found.items() if name in KNOWN_PENDING}
    for name, hits in pending.items():  # reported for the integrator, held to the bar once enabled
        print(f"known pending {name} ({KNOWN_PENDING[name]}): {hits[:2]}")
    failing = {name: hits[:3] for name, hits in found.items() if name not in KNOWN_PENDING}
    assert failing == {}


def test_the_search_finds_what_it_looks_for() -> None:
    # The patterns themselves: each kind of leftover the issue names is caught; words are not.
    assert findings("コイン heads", "ja") == ["heads"]
    assert findings("（次: duel）", "ja") == ["次:"]
    assert "sudden_death" in findings("phase sudden_death", "en")
    assert findings("結果: concession-consent", "en") == ["concession-consent"]
    assert findings("[{'winner': 'A'}] played", "ja") == ["played", "winner", "{'"]
    assert findings("All results confirmed. Played out (or time).", "en") == []
    assert findings("山田 太郎 の勝ち 2–0", "ja") == []
    assert findings("結果: b 0-1", "ja") == ["結果: b"]
    assert findings("Me won", "en") == ["Me won"] and findings("TIME", "ja") == ["TIME"]
    assert findings("demo_cards.json", "en") == []


def test_a_rule_code_is_found_unless_it_is_a_small_hint() -> None:
    # Issue 24 item 15: words first; the ID only as a hint to cite.
    assert rule_codes("<p>ループ (LOOP-2)</p>", "ja") == ["LOOP-2"]
    assert rule_codes("<p>時間 TIME-4 · TIME-E-3 · DECK-8 · DEV-1 · END-1</p>", "en") == [
        "DECK-8",
        "DEV-1",
        "END-1",
        "TIME-4",
        "TIME-E-3",
    ]
    assert rule_codes('<p>結果と違う報告 <small class="rule-id">INF-22</small></p>', "ja") == []
    assert rule_codes("<p>山田 1–0 佐藤 (intentional draw)</p>", "ja") == ["(intentional draw)"]
    assert rule_codes("<p>tk_INF-2x ruleset-1</p>", "en") == []
