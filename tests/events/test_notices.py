"""A player's notices (issue 22: whoever a decision affects sees it): shown until the player closes them, closed
by their own POST only, logged; opening the page never closes one (reads never write)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from taikai.audit.models import AuditEntry
from taikai.events.models import Notice
from taikai.events.services import notices
from tests.events.test_player_page import _paired

pytestmark = pytest.mark.django_db


def _client() -> Client:
    client = Client()
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: "ja"})
    return client


def test_a_notice_stays_until_its_player_closes_it(organizer: User) -> None:
    match, token_a, token_b = _paired(organizer)
    told = notices.tell_both(match, "result-corrected", reason="伝票の読み間違い")
    mine = next(n for n in told if n.player_id == match.player_a_id)
    client = _client()
    for _ in range(2):  # opening the page twice closes nothing
        assert "結果が変わりました（理由: 伝票の読み間違い）" in client.get(f"/p/{token_a}/").content.decode()
    assert Notice.objects.filter(pk=mine.pk, closed_at__isnull=True).exists()
    # the opponent cannot close it from their own link
    refused = client.post(f"/p/{token_b}/notices/{mine.pk}/close/", follow=True).content.decode()
    assert "このお知らせは見つかりません。" in refused and Notice.objects.get(pk=mine.pk).closed_at is None
    client.post(f"/p/{token_a}/notices/{mine.pk}/close/")
    assert Notice.objects.get(pk=mine.pk).closed_at is not None
    assert "伝票の読み間違い" not in client.get(f"/p/{token_a}/").content.decode()
    assert AuditEntry.objects.filter(action="taikai.notice.closed", object_id=str(mine.pk)).count() == 1
    # the opponent's own notice is still there
    assert "伝票の読み間違い" in client.get(f"/p/{token_b}/").content.decode()
