"""A follower's public pages and API, served from the copies (``TAIKAI_ROLE=follower``; ahead of the others)."""

from django.urls import path, re_path

from taikai.follow import api_views as a
from taikai.follow import copy_pages, pages

E = "api/v1/events/<int:event_id>"

urlpatterns = [
    path(f"{E}", a.event),
    path(f"{E}/players", a.players),
    path(f"{E}/rounds", a.rounds),
    path(f"{E}/rounds/<int:number>", a.one_round),
    path(f"{E}/rounds/<int:number>/matches", a.matches),
    path(f"{E}/matches/<int:match_id>", a.one_match),
    path(f"{E}/standings", a.standings),
    path(f"{E}/placings", a.placings),
    path(f"{E}/bracket", a.bracket),
    path(f"{E}/clock", a.clock),
    re_path(r"^api/v1/events/\d+/", a.read_only),
    path("e/<int:event_id>/", pages.event_page, name="follow_event"),
    # the venue's own page templates, at the venue's paths, from the copy
    path("e/<int:event_id>/pairings/", copy_pages.pairings),
    path("e/<int:event_id>/pairings/<int:number>/", copy_pages.pairings),
    path("e/<int:event_id>/standings/", copy_pages.standings),
    path("e/<int:event_id>/bracket/", copy_pages.bracket),
    path("e/<int:event_id>/players/<int:player_id>/", copy_pages.player_path),
    path("e/<int:event_id>/clock.json", a.clock),  # the clock the venue's page scripts count down
    path("e/<int:event_id>/announcement.json", copy_pages.announcement_json),  # and the announcement they show
    # the venue's pages with no copy here (the charts; under a player's link, what needs the venue's rows) say so
    path("e/<int:event_id>/charts/", copy_pages.venue_only),
    path("p/<str:token>/", pages.player_page, name="follow_player"),
    path("p/<str:token>/act", pages.player_action, name="follow_player_action"),
    path("p/<str:token>/notices/<int:notice_id>/close/", pages.player_close_notice),  # the venue's form, relayed
    path("p/<str:token>/<path:rest>", pages.player_venue_only),
]
