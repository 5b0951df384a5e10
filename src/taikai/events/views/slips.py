"""The desk's slips (案内票) and players' links: print them all, print one again, re-issue or revoke one link.

Printing never replaces a link (taikai.events.services.links); re-issuing and revoking ask first and say whose
link stops working. The slip page says in words what was done ("3 人に新しいリンクを発行、61 人は今のリンクのまま").
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from taikai.core.ids import parse_id
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player
from taikai.events.services import links
from taikai.events.services.links import SlipRun
from taikai.events.venue import venue_known, venue_url
from taikai.events.views.common import Ask, confirm_then, confirmation, flash_error, staff_view


@staff_view
@require_POST
def slips_print(request: HttpRequest, event: Event) -> HttpResponse:
    """Every checked-in player's slip on one page to print (``who=registered``: every registered player's, before
    the doors open), each with the link they have (none stops working)."""
    registered = request.POST.get("who") == "registered"
    try:
        run = links.print_all_slips(event, by=Staff(request.user), registered=registered)
    except ServiceError as exc:
        flash_error(request, exc)
        return redirect("players", event_id=event.pk)
    return slips_page(request, event, run.slips, summary=_run_summary(run), new={p.pk for p in run.issued})


def _run_summary(run: SlipRun) -> list[str]:
    lines = [
        _("New links issued to %(issued)d players; %(kept)d players keep the link they have.")
        % {"issued": len(run.issued), "kept": run.kept}
    ]
    if run.issued:
        lines.append(_("Hand out the slips with a new link: %(names)s.") % {"names": _names(run.issued)})
    if run.revoked:
        lines.append(
            _("Not printed, their link was revoked: %(names)s. To give them a slip, issue a new link.")
            % {"names": _names(run.revoked)}
        )
    if run.unprintable:
        lines.append(
            _(
                "Not printed, their link cannot be printed again (issued by an earlier taikai or on another "
                "server; it still works): %(names)s. If one lost their slip, issue them a new link."
            )
            % {"names": _names(run.unprintable)}
        )
    return lines


def _names(players: list[Player]) -> str:
    return _(", ").join(p.name for p in players)


@staff_view
@require_POST
def player_slip(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    """One player's slip again, with the same link: the slip they have keeps working."""
    player = get_object_or_404(Player, pk=player_id, event=event)
    try:
        token = links.reprint_slip(player, by=Staff(request.user))
    except ServiceError as exc:
        flash_error(request, exc)
        return redirect("players", event_id=event.pk)
    summary = [_("The same link as before: the slip %(name)s already has keeps working.") % {"name": player.name}]
    return slips_page(request, event, [(player, token)], summary=summary)


@staff_view
@require_POST
def player_reissue(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    """A new link for a lost phone or slip: asks first, on the player's version as the desk saw it."""
    player = get_object_or_404(Player, pk=player_id, event=event)
    ask = Ask(
        title=_("Issue a new link for %(name)s?") % {"name": player.name},
        text=(
            _(
                "The old link and QR code of %(name)s stop working: the slip they have and their page on any "
                "phone. Give them the new slip. To print their slip again without this, use “Print slip”."
            )
            if player.access_token_hash
            else _("%(name)s has no working link now (it was revoked): they get a new one.")
        )
        % {"name": player.name},
        button=_("Issue a new link"),
        cancel=reverse("players", args=[event.pk]),
        keep={"version": str(player.version)},
    )
    if (page := confirmation(request, event, ask)) is not None:
        return page
    version = request.POST.get("version", "")
    try:
        token = links.issue_access(player, by=Staff(request.user), version=parse_id(version))
    except ServiceError as exc:
        flash_error(request, exc)
        return redirect("players", event_id=event.pk)
    summary = [_("New link issued for %(name)s: the old link no longer opens their page.") % {"name": player.name}]
    return slips_page(request, event, [(player, token)], summary=summary, new={player.pk})


@staff_view
@require_POST
def player_revoke(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id, event=event)
    ask = Ask(
        title=_("Revoke the link of %(name)s?") % {"name": player.name},
        text=_("Their page stops opening until the desk issues a new link (or they recover it with their PIN)."),
        button=_("Revoke the link"),
        cancel=reverse("players", args=[event.pk]),
    )
    # a floor judge's confirmed revoke: refused in words, not a server error
    done = _("The personal link of %(name)s no longer works.") % {"name": player.name}
    return confirm_then(request, event, ask, lambda: links.revoke_access(player, by=Staff(request.user)), done)


def slips_page(
    request: HttpRequest,
    event: Event,
    slips: list[tuple[Player, str]],
    *,
    summary: list[str] | None = None,
    new: set[int] | None = None,
) -> HttpResponse:
    """Printable slips with each player's personal link and its QR code, on the venue address phones can open
    (taikai.events.venue), several to an A4 page; ``summary`` (not printed) says what was done."""
    import qrcode
    import qrcode.image.svg

    rows = []
    for player, token in slips:
        url = venue_url(request, reverse("player_home", args=[token]))
        svg = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10).to_string(encoding="unicode")
        rows.append({"player": player, "url": url, "qr_svg": svg, "new": player.pk in (new or ())})
    context = {
        "event": event,
        "slips": rows,
        "summary": summary or [],
        "loopback_only": not venue_known(request),
        # Over plain http a phone keeps no offline copy (no service worker): the slip says to keep the page open.
        "offline_copy": all(row["url"].startswith("https://") for row in rows),
    }
    return render(request, "events/slip.html", context)
