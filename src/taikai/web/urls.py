from django.urls import path

from taikai.web import cards, clock, views

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.logout_view, name="logout"),
    path("language/", views.set_language, name="set_language"),
    path("cards/import/", cards.import_page, name="cards_import"),
    path("e/<int:event_id>/clock.json", clock.clock_json, name="clock_json"),
    path("healthz", views.healthz, name="healthz"),
]
