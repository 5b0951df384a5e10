"""The site's URLs plus the cards page, until taikai/urls.py includes ``taikai.cards.urls`` at ``cards/``."""

from django.urls import include, path

urlpatterns = [
    path("", include("taikai.web.urls")),
    path("cards/", include("taikai.cards.urls")),
]
