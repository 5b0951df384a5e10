"""What a ruleset forbids and changes, read from its data (issue 24, item 17): the picker's source."""

from __future__ import annotations

from taikai.core.problems import Problem
from taikai.core.ruleset import builtin, parse_ruleset
from taikai.core.ruleset_traits import changes, described, forbids, parent_of


def test_deck_2_a_ruleset_without_link_in_its_extra_deck_forbids_link_monsters() -> None:
    assert Problem("extra-kind-forbidden", kind="link") in forbids(builtin("harajuku-cs-1.2"))
    assert Problem("extra-kind-forbidden", kind="link") not in forbids(builtin("modern"))


def test_deck_6_deck_7_regions_and_release_dates_are_said() -> None:
    said = forbids(builtin("dkt-2011"))
    assert Problem("regions-only", regions=("ocg",)) in said and Problem("unreleased-forbidden") in said


def test_changes_are_every_setting_that_differs_from_the_parent() -> None:
    assert parent_of("modern") == "harajuku-cs-1.2" and parent_of("dkt-2011") is None
    keys = {
        p.params["key"]: (p.params["before"], p.params["after"])
        for p in changes(builtin("modern"), builtin("harajuku-cs-1.2"))
    }
    assert keys == {
        "deck.extra_deck_kinds": (("fusion", "synchro", "xyz"), ("fusion", "synchro", "xyz", "link")),
        "time.match_minutes": (40, 45),
    }
    assert described("dkt-2011")[1:] == (None, ())


def test_an_organizers_own_file_is_described_without_anyone_writing_it() -> None:
    mine = parse_ruleset('[ruleset]\nname = "mine"\nextends = "modern"\nversion = 1\n[match]\nloop_limit = 3\n')
    assert [p.params["key"] for p in changes(mine, builtin("modern"))] == ["match.loop_limit"]
