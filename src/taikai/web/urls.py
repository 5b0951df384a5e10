from django.urls import path

from taikai.web import cards, clock, player_app, views
from taikai.web.log import views as log

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.logout_view, name="logout"),
    path("language/", views.set_language, name="set_language"),
    path("cards/import/", cards.import_page, name="cards_import"),
    path("events/<int:event_id>/log/", log.event_log, name="event_log"),
    path("p/<str:token>/log/", log.player_log, name="player_log"),
    path("e/<int:event_id>/clock.json", clock.clock_json, name="clock_json"),
    path("p/sw.js", player_app.service_worker, name="player_service_worker"),
    path("p/<str:token>/manifest.webmanifest", player_app.manifest, name="player_manifest"),
    path("healthz", views.healthz, name="healthz"),
]
