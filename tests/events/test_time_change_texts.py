"""A refused change of the round's time says the ruleset's own bound, in both languages (TIME-1)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from taikai.core.ruleset import builtin
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.services import clock as clock_services
from taikai.events.services import rounds as round_services
from taikai.events.texts import problem_text
from tests.factories import make_event

pytestmark = pytest.mark.django_db


def test_a_ruleset_with_another_bound_says_that_bound(organizer: User) -> None:  # TIME-1
    doc = builtin("harajuku-cs-1.2").to_dict()
    doc["time"]["round_change_max_minutes"] = 45
    event = make_event(organizer, 4, ruleset_document=doc)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    with pytest.raises(ServiceError) as refused:
        clock_services.adjust_round_time(rnd, by=Staff(organizer), seconds=50 * 60)
    assert refused.value.problem.params["most"] == 45
    with translation.override("ja"):
        ja = problem_text(refused.value.problem)
    with translation.override("en"):
        en = problem_text(refused.value.problem)
    assert "50分" in ja and "45分まで" in ja and "3時間" not in ja
    assert "at most 45 min" in en and "between 0 and 45 min" in en and "3 hours" not in en
