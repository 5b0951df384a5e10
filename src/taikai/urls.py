from django.urls import include, path

from taikai.follow.config import is_follower

# A public follower (issue 29) answers the public pages and API from its copies, ahead of everything else.
urlpatterns = [path("", include("taikai.follow.urls_copy"))] if is_follower() else []
urlpatterns += [
    path("", include("taikai.follow.urls")),
    path("", include("taikai.api.urls")),
    path("", include("taikai.judging.urls")),
    path("", include("taikai.decks.urls")),
    path("", include("taikai.events.urls")),
    path("", include("taikai.web.urls")),
]

# A write refused because the disk is full answers a clear page (taikai.web.diskfull), other errors Django's 500.
handler500 = "taikai.web.diskfull.server_error"
