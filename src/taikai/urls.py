from django.urls import include, path

urlpatterns = [
    path("", include("taikai.web.urls")),
]
