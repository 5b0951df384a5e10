from django.urls import path

from taikai.cards import views

urlpatterns = [
    path("import/", views.import_page, name="cards_import"),
]
