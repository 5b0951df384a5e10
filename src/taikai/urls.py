from django.urls import include, path

urlpatterns = [
    path("", include("taikai.api.urls")),
    path("", include("taikai.judging.urls")),
    path("", include("taikai.decks.urls")),
    path("", include("taikai.events.urls")),
    path("", include("taikai.web.urls")),
]

# A write refused because the disk is full answers a clear page (taikai.web.diskfull), other errors Django's 500.
handler500 = "taikai.web.diskfull.server_error"
