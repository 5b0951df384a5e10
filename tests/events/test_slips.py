"""The players' slips and links (issue 22, finding 8): printing the slips again never kills a link handed out;
only an explicit re-issue, on the version the desk saw, replaces one, and the log says who did what."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation
from pytest_django import Settings

from taikai.audit.models import AuditEntry
from taikai.events import actions
from taikai.events.actors import Staff
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Player
from taikai.events.services import csv_import, links, participation, registration
from taikai.events.texts import problem_text
from tests.factories import make_event

pytestmark = pytest.mark.django_db


def _links(run: Any) -> dict[int, str]:
    return {player.pk: token for player, token in run.slips}


def test_printing_all_slips_twice_keeps_every_link(organizer: User) -> None:
    event = make_event(organizer, 4)
    first = links.print_all_slips(event, by=Staff(organizer))
    second = links.print_all_slips(event, by=Staff(organizer))
    assert _links(first) == _links(second) and len(_links(first)) == 4
    assert (len(second.issued), second.kept) == (0, 4)
    for pk, token in _links(first).items():  # the first slips still open their player's page
        found = links.player_for_token(token)
        assert found is not None and found.pk == pk


def test_the_check_in_slip_is_the_slip_printed_later(organizer: User) -> None:
    event = make_event(organizer, 0)
    player = registration.register_player(event, by=Staff(organizer), name="山田", card_game_id="1000000001")
    player, token = registration.check_in(player, by=Staff(organizer))
    run = links.print_all_slips(event, by=Staff(organizer))
    assert _links(run) == {player.pk: token} and run.kept == 1


def test_printing_all_slips_issues_links_only_to_players_without_one(organizer: User) -> None:
    event = make_event(organizer, 3)
    kept = {p.pk: p.access_token_hash for p in event.players.all()}
    late = registration.register_player(event, by=Staff(organizer), name="遅刻", card_game_id="1999999999")
    Player.objects.filter(pk=late.pk).update(checked_in_at=event.created_at)  # checked in, never given a link
    run = links.print_all_slips(event, by=Staff(organizer))
    assert [p.pk for p in run.issued] == [late.pk] and run.kept == 3
    assert {p.pk: p.access_token_hash for p in event.players.exclude(pk=late.pk)} == kept
    assert links.player_for_token(_links(run)[late.pk]).pk == late.pk
    entry = AuditEntry.objects.filter(action=actions.SLIPS_PRINTED, event_id=event.pk).get()
    assert (entry.data["issued"], entry.data["kept"]) == (1, 3)


def test_reprinting_one_slip_keeps_its_link(organizer: User) -> None:
    event = make_event(organizer, 2)
    player = event.players.first()
    assert player is not None
    token = links.reprint_slip(player, by=Staff(organizer))
    again = links.reprint_slip(player, by=Staff(organizer))
    assert token == again and links.player_for_token(token).pk == player.pk
    assert AuditEntry.objects.filter(action=actions.PLAYER_SLIP_PRINTED, object_id=str(player.pk)).count() == 2


def test_a_re_issued_link_kills_the_old_one_and_is_the_one_printed_from_then_on(organizer: User) -> None:
    event = make_event(organizer, 2)
    player = Player.objects.filter(event=event).first()
    assert player is not None
    old = links.reprint_slip(player, by=Staff(organizer))
    new = links.issue_access(player, by=Staff(organizer), version=player.version)
    assert new != old and links.player_for_token(old) is None
    assert links.reprint_slip(player, by=Staff(organizer)) == new
    assert _links(links.print_all_slips(event, by=Staff(organizer)))[player.pk] == new
    assert Player.objects.get(pk=player.pk).version == player.version + 1


def test_a_re_issue_decided_on_an_old_version_is_refused(organizer: User) -> None:
    # Two people at the desk re-issue the same player's link: the second would kill the slip the first printed.
    event = make_event(organizer, 2)
    player = Player.objects.filter(event=event).first()
    assert player is not None
    seen = player.version
    first = links.issue_access(player, by=Staff(organizer), version=seen)
    with pytest.raises(Conflict) as exc:
        links.issue_access(player, by=Staff(organizer), version=seen)
    assert exc.value.problem.code == "player-link-changed"
    assert links.player_for_token(first) is not None


def test_marking_a_player_ineligible_is_a_new_version_a_desk_page_opened_before_cannot_decide_on(
    organizer: User,
) -> None:  # REG-2
    # Every change to a player raises its version, the right to take part too: a link re-issued from a page
    # opened before the organizer marked them is refused with the reason, in both languages.
    event = make_event(organizer, 2)
    player = Player.objects.filter(event=event).first()
    assert player is not None
    seen = player.version
    participation.mark_ineligible(player, by=Staff(organizer), reason="IDの登録情報に誤り")
    assert Player.objects.get(pk=player.pk).version == seen + 1
    with pytest.raises(Conflict) as exc:
        links.issue_access(player, by=Staff(organizer), version=seen)
    assert exc.value.problem.code == "player-link-changed"
    for lang, words in (("ja", "参加の状態"), ("en", "their status")):
        with translation.override(lang):
            assert words in problem_text(exc.value.problem)


def test_a_revoked_link_is_not_printed_again_nor_silently_replaced(organizer: User) -> None:
    event = make_event(organizer, 3)
    player = Player.objects.filter(event=event).first()
    assert player is not None
    old = links.reprint_slip(player, by=Staff(organizer))
    links.revoke_access(player, by=Staff(organizer))
    with pytest.raises(ServiceError) as exc:
        links.reprint_slip(player, by=Staff(organizer))
    assert exc.value.problem.code == "slip-no-link"
    run = links.print_all_slips(event, by=Staff(organizer))
    assert [p.pk for p in run.revoked] == [player.pk] and player.pk not in _links(run)
    assert Player.objects.get(pk=player.pk).access_token_hash == ""  # the revocation stands
    assert links.player_for_token(old) is None


def test_a_link_that_cannot_be_printed_again_is_left_alone_and_named(organizer: User) -> None:
    # A link issued before slips could be reprinted (or on a server with another secret key) still opens the
    # player's page; printing all slips leaves it alone instead of replacing it.
    event = make_event(organizer, 2)
    player = Player.objects.filter(event=event).first()
    assert player is not None
    Player.objects.filter(pk=player.pk).update(access_token_seed="")
    hash_before = Player.objects.get(pk=player.pk).access_token_hash
    run = links.print_all_slips(event, by=Staff(organizer))
    assert [p.pk for p in run.unprintable] == [player.pk] and run.kept == 1
    assert Player.objects.get(pk=player.pk).access_token_hash == hash_before
    with pytest.raises(ServiceError) as exc:
        links.reprint_slip(player, by=Staff(organizer))
    assert exc.value.problem.code == "slip-not-reprintable"


def test_the_database_alone_does_not_give_a_link_away(organizer: User, settings: Settings) -> None:
    # SECURITY.md: the token is never stored; what is stored (its hash, the seed it is derived from) opens nothing
    # without the server's secret key.
    event = make_event(organizer, 1)
    player = Player.objects.get(event=event)
    token = links.reprint_slip(player, by=Staff(organizer))
    stored = Player.objects.filter(pk=player.pk).values()[0]
    assert token not in {str(v) for v in stored.values()}
    assert links.player_for_token(player.access_token_seed) is None
    settings.SECRET_KEY = "another-server-" + "x" * 40
    with pytest.raises(ServiceError) as exc:
        links.reprint_slip(player, by=Staff(organizer))
    assert exc.value.problem.code == "slip-not-reprintable"


def test_only_staff_print_slips_and_only_organizers_re_issue(organizer: User, django_user_model: type[User]) -> None:
    event = make_event(organizer, 1)
    player = Player.objects.get(event=event)
    stranger = django_user_model.objects.create_user("stranger", password="x-long-password-1")
    with pytest.raises(ServiceError):
        links.reprint_slip(player, by=Staff(stranger))
    with pytest.raises(ServiceError):
        links.print_all_slips(event, by=Staff(stranger))
    assert not AuditEntry.objects.filter(action__in=[actions.SLIPS_PRINTED, actions.PLAYER_SLIP_PRINTED]).exists()


def test_an_export_never_holds_the_seed_a_slip_is_printed_from(organizer: User) -> None:
    # SECURITY.md, exports: even with the links' hashes (secrets=True) the file cannot print a slip.
    from taikai.events.services import transfer

    event = make_event(organizer, 1)
    player = Player.objects.get(event=event)
    for secrets in (False, True):
        exported = transfer.export_event(event, by=Staff(organizer), secrets=secrets)
        assert player.access_token_seed and player.access_token_seed not in repr(exported)
        assert all("access_token_seed" not in row for row in exported["players"])


def test_two_desks_confirming_one_re_issue_issue_it_once(organizer: User, client: Client) -> None:
    # The second confirmation was asked on the version before the first re-issue: it would kill the new slip.
    event = make_event(organizer, 2)
    player = Player.objects.filter(event=event).first()
    assert player is not None
    client.force_login(organizer)
    url = f"/events/{event.pk}/players/{player.pk}/reissue/"
    asked = client.post(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "今のリンクと QR コードは使えなくなります" in asked and f'name="version" value="{player.version}"' in asked
    first = client.post(url, {"confirm": "yes", "version": player.version}).content.decode()
    issued = Player.objects.get(pk=player.pk).access_token_hash
    assert "前のリンクではもうページを開けません" in first
    second = client.post(url, {"confirm": "yes", "version": player.version}, HTTP_ACCEPT_LANGUAGE="ja", follow=True)
    assert "ほかの人が変えました" in second.content.decode()
    assert Player.objects.get(pk=player.pk).access_token_hash == issued


def test_csv_imported_players_have_their_link_and_their_slips_print_before_check_in(organizer: User) -> None:
    # issue 24, item 20: the KTS way, every slip printed before the doors open
    event = make_event(organizer, 0)
    data = "名前,カードゲームID\n山田 太郎,1000000001\n阿部 花子,1000000002\n".encode()
    imported = csv_import.import_players_csv(event, by=Staff(organizer), data=data)
    assert all(p.access_token_hash for p in Player.objects.filter(event=event))
    assert links.print_all_slips(event, by=Staff(organizer)).slips == []  # nobody checked in yet
    run = links.print_all_slips(event, by=Staff(organizer), registered=True)
    assert {p.pk for p, _token in run.slips} == {p.pk for p in imported} and run.issued == []
    for player, token in run.slips:  # the slip opens the player's page, and check-in keeps that link
        assert links.player_for_token(token).pk == player.pk
        assert registration.check_in(player, by=Staff(organizer))[1] == ""
        assert links.player_for_token(token).pk == player.pk
    entry = AuditEntry.objects.filter(action=actions.PLAYERS_IMPORTED, event_id=event.pk).get()
    assert entry.data["links_issued"] == 2


@pytest.mark.parametrize(("address", "keep_open"), [("http://192.168.1.10:8000", True), ("https://taikai.jp", False)])
def test_over_plain_http_the_slip_says_to_keep_the_page_open(
    organizer: User, client: Client, settings: Settings, address: str, keep_open: bool
) -> None:
    # issue 24, item 23: without HTTPS a phone keeps no offline copy, only the page it has open
    settings.TAIKAI_PUBLIC_URL = address
    event = make_event(organizer, 2)
    client.force_login(organizer)
    page = client.post(f"/events/{event.pk}/players/slips/").content.decode()
    assert page.count(f'href="{address}/p/') == 2
    assert ("このページを開いたままにしてください" in page) is keep_open
