from django.urls import path

from taikai.decks import views

urlpatterns = [
    path("p/<str:token>/deck/", views.player_deck, name="deck_player"),
    path("p/<str:token>/deck/export/<str:fmt>/", views.player_deck_export, name="deck_player_export"),
    path("events/<int:event_id>/decks/", views.deck_overview, name="decks"),
    path("events/<int:event_id>/decks/export.zip", views.deck_export_zip, name="decks_export"),
    path("events/<int:event_id>/decks/lock/", views.deck_lock, name="decks_lock"),
    path("events/<int:event_id>/decks/banlist/", views.deck_banlist, name="decks_banlist"),
    path("events/<int:event_id>/decks/<int:player_id>/", views.deck_detail, name="deck_detail"),
    path("events/<int:event_id>/decks/<int:player_id>/sheet/", views.deck_sheet, name="deck_sheet"),
    path("events/<int:event_id>/decks/<int:player_id>/check/", views.deck_check, name="deck_check"),
]
