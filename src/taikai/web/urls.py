from django.urls import path

from taikai.web import clock, views

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.logout_view, name="logout"),
    path("language/", views.set_language, name="set_language"),
    path("e/<int:event_id>/clock.json", clock.clock_json, name="clock_json"),
    path("healthz", views.healthz, name="healthz"),
]
