"""Deck lists for `taikai demo`, offline: a small bundled card set when no card database is imported."""

from __future__ import annotations

import json
from pathlib import Path

from taikai.audit.services import AuditActor
from taikai.cards.lflist import ParsedList
from taikai.cards.models import Banlist, Card
from taikai.cards.services import import_banlists, import_cards
from taikai.cards.sources import CardData
from taikai.decks import lock, services
from taikai.decks.models import DeckRegistration
from taikai.events.actors import Actor
from taikai.events.models import Event
from taikai.events.permissions import is_judge

DEMO_CARDS = Path(__file__).resolve().parent / "fixtures" / "demo_cards.json"

# A 40/10/3 deck as a Japanese text sheet (the shared sample deck without its Link monsters, so it is
# legal under dkt-2011 rulesets too), and three ways to get it wrong.
LEGAL_SHEET = """メインデッキ (40)
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
1 人造人間－サイコ・ショッカー
1 サイバー・ドラゴン
1 人喰い虫
1 サクリファイス
1 カオス・ソルジャー
1 オッドアイズ・ペンデュラム・ドラゴン
1 アストログラフ・マジシャン
1 サンダー・ボルト
1 融合
1 サイクロン
エクストラデッキ (10)
1 青眼の究極竜
1 Ｅ・ＨＥＲＯ フレイム・ウィングマン
1 サイバー・エンド・ドラゴン
2 スターダスト・ドラゴン
1 ブラック・ローズ・ドラゴン
1 フルール・ド・バロネス
1 Ｎｏ．３９ 希望皇ホープ
1 天霆號アーゼウス
1 Ｎｏ．３９ 希望皇ホープ・ダブル
サイドデッキ (3)
2 灰流うらら
1 無限泡影
"""
FORBIDDEN_SHEET = LEGAL_SHEET.replace("1 サイクロン", "1 強欲な壺")
SHORT_SHEET = LEGAL_SHEET.replace("1 サイクロン\n", "")
TYPO_SHEET = LEGAL_SHEET.replace("灰流うらら", "灰流うらうら")


def load_demo_cards(*, actor: AuditActor | None = None) -> bool:
    """Import the bundled card set and its F/L excerpt, only when the card table is empty."""
    if Card.objects.exists():
        return False
    document = json.loads(DEMO_CARDS.read_text("utf-8"))
    cards = {c["passcode"]: CardData(**c) for c in document["cards"]}
    import_cards(cards, source=f"taikai demo ({DEMO_CARDS.name})", actor=actor)
    banlist = document["banlist"]
    entries = {int(k): int(v) for k, v in banlist["entries"].items()}
    if not Banlist.objects.filter(name=banlist["name"], frozen=False).exists():
        import_banlists([ParsedList(banlist["name"], entries)], source=DEMO_CARDS.name, actor=actor)
    return True


def add_demo_decks(event: Event, *, by: Actor) -> int:
    """Register lists for most players of ``event``: most legal, a few with problems or mixed
    languages, some missing, so every deck page has something to show. Returns the lists made."""
    load_demo_cards(actor=by)
    if not lock.deck_setup(event).banlist_id:
        name = event.banlist_name or _demo_list_name()
        if name and Banlist.objects.filter(name=name, frozen=False).exists() and not lock.is_locked(event):
            services.choose_banlist(event, name, by=by)
    made = 0
    for i, player in enumerate(event.players.order_by("id")):
        if i % 10 == 9:
            continue  # no list yet: the organizer's page shows who to chase
        sheet = {3: FORBIDDEN_SHEET, 7: SHORT_SHEET, 13: TYPO_SHEET}.get(i, LEGAL_SHEET)
        languages = ("ja", "en") if i % 8 == 5 else ("ja",)
        deck = services.DeckInput(text=sheet, languages=languages)
        existing = DeckRegistration.objects.filter(player=player).first()
        if lock.is_locked(event):
            if existing is None or not is_judge(by, event):
                continue
            services.judge_change_deck(existing, by=by, deck=deck, reason="demo")
        else:
            services.submit_deck(player, deck, by=by)
        made += 1
    return made


def _demo_list_name() -> str:
    return str(json.loads(DEMO_CARDS.read_text("utf-8"))["banlist"]["name"])
