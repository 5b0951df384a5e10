"""Display names for rungs and infractions (Japanese via the .po file). The rules themselves live in the
ruleset; these are only words."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from taikai.core import rungs

RUNG_LABELS = {
    rungs.CAUTION: _("Caution"),
    rungs.WARNING: _("Warning"),
    rungs.DUEL_LOSS: _("Duel loss"),
    rungs.MATCH_LOSS: _("Match loss"),
    rungs.MATCH_LOSS_DOWNGRADE: _("Match loss with prize downgrade"),
    rungs.DQ: _("Disqualification"),
    rungs.DQ_DOWNGRADE: _("Disqualification with prize downgrade"),
    rungs.DQ_NO_PRIZE: _("Disqualification losing prize eligibility"),
}

INFRACTION_LABELS = {
    "INF-1": _("Late for the set assembly time"),
    "INF-2": _("Rushing or abusing the opponent"),
    "INF-3": _("Thinking over 3 minutes in one turn"),
    "INF-4": _("3 minutes or more of siding or shuffling between duels"),
    "INF-5": _("Changing the deck away from the registered deck sheet"),
    "INF-6": _("Intentionally looking at cards while shuffling or cutting"),
    "INF-7": _("Intentionally misrepresenting card contents"),
    "INF-8": _("Intentionally misrepresenting life points or hand size"),
    "INF-9": _("Manipulating the cards drawn from a deck"),
    "INF-10": _("Receiving advice from, or talking to, spectators during a duel"),
    "INF-11": _("Using marked cards, sleeves or protectors"),
    "INF-12": _("Putting something other than the card inside a sleeve"),
    "INF-13": _("Marking cards or sleeves during play"),
    "INF-14": _("Deck, extra deck or side deck exceeding its size limit"),
    "INF-15": _("Playing a duel with a deck of 39 cards or fewer"),
    "INF-16": _("Exceeding a Forbidden/Limited/Semi-Limited limit"),
    "INF-17": _("Placing things not needed for the duel on the play area"),
    "INF-18": _("Intentionally hiding field or hand cards"),
    "INF-19": _("Lying to a judge"),
    "INF-20": _("Not playing faster after time was called"),
    "INF-21": _("A manners breach"),
    "INF-22": _("Reporting a match result different from the one played"),
    "INF-23": _("Markedly wasting match time, intentionally or not"),
    "INF-24": _("An intentional draw or a concession bought with money or another benefit"),
    "INF-OTHER": _("Other (the judge decides)"),
}

# PEN-5 (CS 1.3 同様の違反): the kinds the built-in catalogs group infractions by.
KIND_LABELS = {
    "lateness": _("lateness"),
    "conduct": _("conduct toward the opponent and manners"),
    "slow-play": _("slow play"),
    "deck": _("the deck and its registration"),
    "cheating": _("cheating with cards, life points or the field"),
    "outside-help": _("help from outside the match"),
    "equipment": _("cards, sleeves and the play area"),
    "dishonesty": _("dishonest results and statements"),
}

FIX_LABELS = {
    "remove-object": _("Remove the object from the sleeve before play continues."),
    "restore-deck-size": _("Fix the deck to a legal size before play continues."),
    "restore-registered-deck": _("Restore the registered deck before play continues."),
}


def rung_label(rung: str) -> str:
    return str(RUNG_LABELS.get(rung, rung))


def kind_label(kind: str) -> str:
    return str(KIND_LABELS.get(kind, kind))


def infraction_label(infraction: str) -> str:
    """The ID and the words, for the event's log (where an entry is cited by its ID)."""
    return f"{infraction} {INFRACTION_LABELS.get(infraction, '')}".strip()


def infraction_words(infraction: str) -> str:
    """The words alone, for the judges' pages (issue 24): the ID only where no words exist (a ruleset's own
    infraction); a page that needs the ID to cite shows it apart, as a small hint."""
    return str(INFRACTION_LABELS.get(infraction, infraction))


# The link to the judges' queue in the events staff navigation (events/_event_nav.html); translated here.
NAV_LABEL = _("Judges")
