"""What a round is called on every page and printout: 第N ラウンド in the Swiss rounds, and in the bracket 決勝 /
準決勝 / 準々決勝 (before those 決勝トーナメント N回戦), from ``core.pairing.elimination.stage``."""

from __future__ import annotations

from django.utils.translation import gettext as _

from taikai.core.pairing import elimination
from taikai.events.models import Round


def round_name(rnd: Round) -> str:
    copied = getattr(rnd, "copied_name", None)  # a public follower's copy of a venue's round (taikai.follow)
    if copied is not None:
        return str(copied)
    if rnd.stage != Round.Stage.ELIMINATION:
        return _("Round %(n)s") % {"n": rnd.number}
    number = Round.objects.filter(event_id=rnd.event_id, stage=Round.Stage.ELIMINATION, number__lte=rnd.number).count()
    tables = rnd.team_matches.count() or rnd.matches.count()
    return stage_words(elimination.stage(number, tables))


def stage_words(stage: elimination.Stage) -> str:
    if stage.code == "final":
        return _("Final")
    if stage.code == "semifinal":
        return _("Semifinals")
    if stage.code == "quarterfinal":
        return _("Quarterfinals")
    return _("Top cut, round %(n)d") % {"n": stage.number}
