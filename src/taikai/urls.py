from django.urls import include, path

urlpatterns = [
    path("", include("taikai.api.urls")),
    path("", include("taikai.judging.urls")),
    path("", include("taikai.decks.urls")),
    path("", include("taikai.events.urls")),
    path("", include("taikai.web.urls")),
]
