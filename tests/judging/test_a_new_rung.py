"""A new penalty rung is one entry in core.rungs (its name and effect), its label and its place in a ruleset's
ladder (docs/architecture.md, "Four changes a new engineer makes"): registered here by monkeypatching those
alone, it is on the rules page's ladder and the penalty form, and issuing it applies its effect (PEN-1)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from taikai.core import rungs
from taikai.core.ruleset import builtin
from taikai.events.actors import Staff
from taikai.events.models import Event, StaffRole
from taikai.judging import words
from taikai.judging.services import penalties as svc
from tests.factories import PASSWORD, make_event, staff

pytestmark = pytest.mark.django_db

NEW = "match-loss-no-prize"


@pytest.fixture
def event(organizer: User, monkeypatch: pytest.MonkeyPatch) -> Event:
    monkeypatch.setitem(rungs.RUNGS, NEW, rungs.Rung(match_loss=True, prize_loss=True))
    monkeypatch.setitem(words.RUNG_LABELS, NEW, "Match loss losing prize eligibility")
    doc = builtin("harajuku-cs-1.2").to_dict()
    ladder = doc["penalties"]["ladder"]
    ladder.insert(ladder.index(rungs.MATCH_LOSS_DOWNGRADE) + 1, NEW)
    return make_event(organizer, 4, ruleset_document=doc)


def _judge(event: Event) -> Client:
    client = Client()
    assert client.login(username=staff(event, "floor", StaffRole.Role.JUDGE).username, password=PASSWORD)
    return client


def test_the_new_rung_is_on_the_rules_pages_ladder(event: Event) -> None:
    client = Client()
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: "en"})
    page = re.sub(r"\s+", " ", client.get(f"/judging/rules/?event={event.pk}").content.decode())
    ladder = page.split("Lightest first: ")[1].split(".</p>")[0].split(" < ")
    at = ladder.index("Match loss losing prize eligibility")
    assert ladder[at - 1] == "Match loss with prize downgrade" and ladder[at + 1] == "Disqualification"


def test_the_new_rung_is_a_choice_of_the_penalty_form(event: Event) -> None:
    player = event.players.first()
    url = f"/events/{event.pk}/judging/penalties/new/?player={player.pk}&infraction=INF-2"
    page = _judge(event).get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.search(rf'<option value="{NEW}"[^>]*>Match loss losing prize eligibility</option>', page)


def test_issuing_the_new_rung_applies_its_effect(event: Event) -> None:  # PEN-1, PEN-2
    player = event.players.first()
    judge = staff(event, "floor", StaffRole.Role.JUDGE)
    penalty = svc.issue_penalty(event, by=Staff(judge), player=player, infraction="INF-2", rung=NEW, reason="test")
    assert penalty.rung == NEW and penalty.prize_loss  # no prize
    assert penalty.waiting_for_next_match  # the match loss waits for the player's next match
    listed = _judge(event).get(f"/events/{event.pk}/judging/penalties/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Match loss losing prize eligibility" in listed
