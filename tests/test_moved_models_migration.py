"""Models moved out of the API app (issue 28): DeckArchetype to decks, PrizePublication to judging, ApiToken to
tokens, Webhook to webhooks. The migrations move only Django's idea of the owner; the tables and every row stay,
forwards and backwards, on either database, and the moved models' content types (and so the permissions given on
them) go with them."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from taikai.decks.models import DeckArchetype
from taikai.judging.models import PrizePublication
from taikai.tokens.models import ApiToken
from taikai.webhooks.models import Webhook
from tests.factories import make_event

BEFORE = [
    ("taikai_api", "0004_webhook_disabling"),
    ("decks", "0004_deck_format_omega_code"),
    ("judging", "0004_judgecall_ruling_and_extended_seconds"),
]
AFTER = [("taikai_api", "0005_archetypes_and_prize_publication_moved")]
# tokens and webhooks: before their apps existed, and after the API let go of them
BEFORE_TOKENS = [("taikai_api", "0005_archetypes_and_prize_publication_moved"), ("tokens", None), ("webhooks", None)]
AFTER_TOKENS = [("taikai_api", "0006_tokens_and_webhooks_moved")]


def _migrate(targets: list[tuple[str, str | None]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


def _latest() -> None:
    """Every app at its latest migration again (going back also took back later ones, e.g. judging 0005)."""
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_rows_written_under_the_api_app_are_read_by_their_new_apps(organizer: User) -> None:
    event = make_event(organizer, 2)
    first, second = event.players.order_by("id")
    old = _migrate(BEFORE)
    old.get_model("taikai_api", "DeckArchetype").objects.create(player_id=first.pk, name="ティアラメンツ")
    old.get_model("taikai_api", "PrizePublication").objects.create(event_id=event.pk, published_by_id=organizer.pk)
    try:
        new = _migrate(AFTER)
        assert [(a.player_id, a.name) for a in new.get_model("decks", "DeckArchetype").objects.all()] == [
            (first.pk, "ティアラメンツ")
        ]
        assert new.get_model("judging", "PrizePublication").objects.get().event_id == event.pk
        with pytest.raises(LookupError):
            new.get_model("taikai_api", "DeckArchetype")
        DeckArchetype.objects.create(player=second, name="Snake-Eye")  # written through the moved model
        back = _migrate(BEFORE)  # and back again: still the same table
        assert back.get_model("taikai_api", "DeckArchetype").objects.count() == 2
    finally:
        _latest()
    assert DeckArchetype.objects.get(player=first).name == "ティアラメンツ"
    assert PrizePublication.objects.get(event=event).published_by_id == organizer.pk
    assert DeckArchetype._meta.db_table == "taikai_api_deckarchetype"


def _content_type(app_label: str, model: str) -> ContentType | None:
    # Django's own models: their tables do not change in these migrations
    return ContentType.objects.filter(app_label=app_label, model=model).first()


@pytest.mark.django_db(transaction=True)
def test_tokens_and_webhooks_written_under_the_api_app_are_read_by_their_new_apps(organizer: User) -> None:
    event = make_event(organizer, 2)
    old = _migrate(BEFORE_TOKENS)
    try:
        with pytest.raises(LookupError):
            old.get_model("tokens", "ApiToken")
        old.get_model("taikai_api", "ApiToken").objects.create(
            user_id=organizer.pk,
            created_by_id=organizer.pk,
            event_id=event.pk,
            role="judge",
            prefix="tk_old0001",
            token_hash="a" * 64,
        )
        old.get_model("taikai_api", "Webhook").objects.create(
            event_id=event.pk, url="https://example.org/hook", secret="s", created_by_id=organizer.pk, delivered=3
        )
        # a site that gave a permission on the API app's token model keeps it
        token_type = _content_type("taikai_api", "apitoken") or ContentType.objects.create(
            app_label="taikai_api", model="apitoken"
        )
        permission = Permission.objects.create(content_type=token_type, codename="see_tokens", name="Can see tokens")
        new = _migrate(AFTER_TOKENS)
        assert [(t.prefix, t.role, t.event_id) for t in new.get_model("tokens", "ApiToken").objects.all()] == [
            ("tk_old0001", "judge", event.pk)
        ]
        assert new.get_model("webhooks", "Webhook").objects.get().delivered == 3
        with pytest.raises(LookupError):
            new.get_model("taikai_api", "ApiToken")
        assert getattr(_content_type("tokens", "apitoken"), "pk", None) == token_type.pk
        assert _content_type("taikai_api", "apitoken") is None
        assert Permission.objects.get(pk=permission.pk).content_type_id == token_type.pk
        back = _migrate(BEFORE_TOKENS)  # and back again: the same tables, the content type back with the API
        assert back.get_model("taikai_api", "ApiToken").objects.get().prefix == "tk_old0001"
        assert back.get_model("taikai_api", "Webhook").objects.count() == 1
        assert getattr(_content_type("taikai_api", "apitoken"), "pk", None) == token_type.pk
        _migrate(AFTER_TOKENS)  # forward once more
    finally:
        _latest()
    token = ApiToken.objects.get(prefix="tk_old0001")  # read through the moved models at the latest state
    assert token.event_id == event.pk and token.user_id == organizer.pk
    assert Webhook.objects.get(event=event).url == "https://example.org/hook"
    assert (ApiToken._meta.db_table, Webhook._meta.db_table) == ("taikai_api_apitoken", "taikai_api_webhook")
    executor = MigrationExecutor(connection)
    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []  # every app at its latest
