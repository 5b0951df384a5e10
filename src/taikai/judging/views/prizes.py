"""Prize ranks (organizer), final prize standings with downgrades, promotions and playoffs (PEN-2, PEN-3)."""

from __future__ import annotations

import re
import unicodedata

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event
from taikai.events.views.common import flash_error, staff_view
from taikai.judging.services import prizes as services


def _ranks_from_post(post: dict[str, str] | object) -> list[tuple[str, int, int, bool]]:
    """One prize per line: ``label first last`` and an optional ``=`` to mark the places as equal. Spaces or
    commas separate the parts (``優勝,1,1`` as a spreadsheet writes it; full-width digits and 、， read too)."""
    text = unicodedata.normalize("NFKC", str(getattr(post, "get")("ranks", "")))  # noqa: B009
    ranks = []
    for line in text.splitlines():
        parts = [p for p in re.split(r"[\s,、，]+", line.strip()) if p]
        if not parts:
            continue
        shared = parts[-1] == "="
        if shared:
            parts = parts[:-1]
        if len(parts) < 3:
            raise ValueError(line)
        ranks.append((" ".join(parts[:-2]), int(parts[-2]), int(parts[-1]), shared))
    return ranks


@staff_view
def prize_page(request: HttpRequest, event: Event) -> HttpResponse:
    error = ""
    if request.method == "POST":
        try:
            if "pair" in request.POST:
                services.pair_playoffs(event, by=Staff(request.user))
            else:
                services.set_prize_ranks(event, by=Staff(request.user), ranks=_ranks_from_post(request.POST))
        except ServiceError as exc:
            flash_error(request, exc)
        except ValueError as exc:
            error = _("Each line needs a prize name, the first place and the last place: %(line)s") % {"line": exc}
        if not error:
            return redirect("prizes", event.pk)
    standings = services.prize_standings(event)
    ranks_text = "\n".join(f"{r.label} {r.first} {r.last}{' =' if r.shared else ''}" for r in standings.ranks) or _(
        "1st 1 1\n2nd 2 2\n3rd-4th 3 4 =\n5th-8th 5 8 ="
    )
    names = standings.names
    rows = []
    if standings.awards is not None:
        for award in standings.awards.ranks:
            rows.append(
                {
                    "label": award.rank.label,
                    "places": f"{award.rank.first}-{award.rank.last}"
                    if award.rank.places > 1
                    else str(award.rank.first),
                    "holders": [(names.get(e, e), e in award.downgraded) for e in award.entrants],
                    "playoff": [names.get(e, e) for e in award.playoff.candidates] if award.playoff else [],
                    "slots": award.playoff.slots if award.playoff else 0,
                    "from_above": award.from_playoff_above,
                }
            )
    playoffs = [
        {"label": p.prize_label, "pairs": [(names.get(a, a), names.get(b, b) if b else None) for a, b in p.pairs]}
        for p in event.playoffs.all()
    ]
    context = {
        "event": event,
        "rows": rows,
        "awards": standings.awards,
        "no_prize": [names.get(e, e) for e in standings.awards.no_prize] if standings.awards else [],
        "ranks_text": request.POST.get("ranks", ranks_text) if error else ranks_text,
        "error": error,
        "playoffs": playoffs,
        "teams": standings.teams,  # CS 1.2: in team events the prizes are the teams'
    }
    return render(request, "judging/prizes.html", context)
