"""The rules page says what the event's ruleset carries (issue 23): the official rules alone (dkt-2011) carry
none of the CS-only rules, the CS ruleset carries them, and the catalog and its kinds are drawn from the ruleset."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from taikai.core.ruleset import builtin
from tests.factories import make_event

pytestmark = pytest.mark.django_db


def _page(event_id: int, lang: str) -> str:
    client = Client()
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: lang})
    response = client.get(f"/judging/rules/?event={event_id}", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return re.sub(r"\s+", " ", response.content.decode())


def test_under_the_official_rules_alone_the_page_names_no_cs_only_rule(organizer: User) -> None:
    # PEN-2 PEN-5 PEN-6 TIME-4 (CS-only): no head-judge-only DQ, no database, no added time, no downgrades
    event = make_event(organizer, 0, ruleset_name="dkt-2011")
    ja = _page(event.pk, "ja")
    assert "失格以上の罰則を与えられる唯一のジャッジです" not in ja
    assert "大会のどのジャッジも失格を含むすべての罰則を与えられます" in ja
    assert "taikai は対戦時間を追加しません" in ja and "分以上</strong>かかった場合" not in ja
    assert "違反者データベースがありません" in ja
    assert "軽い順に：注意＜警告＜デュエルの敗北＜マッチの敗北＜失格＜受賞資格を失う失格。" in ja
    assert "受賞資格を一段階下げる罰則" in ja and "1回の罰則で下げられる段階" not in ja
    # INF-23 (OFF C): the one default OFF names; INF-24 is CS 4.3's and is not listed
    assert '対戦時間を著しく浪費する：<strong>注意</strong> <small class="hint">種類：遅延行為</small>' in ja
    assert "メリットの提示による合意の引き分け・投了：" not in ja
    en = _page(event.pk, "en")
    assert "any judge of the event may give any penalty" in en and "taikai adds no time" in en


def test_under_the_cs_rules_the_page_says_how_similar_violations_escalate(organizer: User) -> None:
    # PEN-5 (CS 1.3 同様の違反), INF-20, INF-23, INF-24, "other", PEN-6
    event = make_event(organizer, 0, ruleset_name="harajuku-cs-1.2")
    ja = _page(event.pk, "ja")
    assert "<strong>警告以上</strong>の罰則は違反者データベースに保存され" in ja
    assert "同じ種類の違反を同様とみなし" in ja
    assert "ヘッドジャッジは大会に一人だけで、失格以上の罰則を与えられる唯一のジャッジです" in ja
    assert '<small class="hint">対戦時間の終了後だけ</small>' in ja  # INF-20
    assert "金銭等のメリットの提示による合意の引き分け・投了：<strong>ジャッジが判断</strong>" in ja  # INF-24
    assert "その他（ジャッジが判断）：<strong>ジャッジが判断</strong></li>" in ja  # no kind shown: judged alone
    en = _page(event.pk, "en")
    assert "Penalties of <strong>Warning or heavier</strong> are kept in the violator database" in en
    assert "bought with money or another benefit: <strong>the judge decides</strong>" in en


def test_the_database_threshold_on_the_page_is_the_rulesets(organizer: User) -> None:  # PEN-5
    doc = builtin("harajuku-cs-1.2").to_dict()
    doc["penalties"]["database_from"] = "duel-loss"
    event = make_event(organizer, 0, ruleset_document=doc)
    assert "<strong>デュエルの敗北以上</strong>の罰則は違反者データベース" in _page(event.pk, "ja")


def test_the_penalty_form_says_which_kind_of_earlier_penalty_counts(organizer: User) -> None:  # PEN-5
    from taikai.events.models import Player

    event = make_event(organizer, 2, ruleset_name="harajuku-cs-1.2")
    player = Player.objects.filter(event=event).first()
    client = Client()
    client.force_login(organizer)
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: "ja"})
    url = f"/events/{event.pk}/judging/penalties/new/?player={player.pk}&infraction="
    page = client.get(url + "INF-4").content.decode()
    assert "同様の違反の過去の罰則を数えます: 遅延行為" in page  # words, not the rule id (issue 24)
    other = client.get(url + "INF-OTHER").content.decode()  # "other": the judge decides what was similar
    assert "同様の違反の過去の罰則を数えます" not in other
