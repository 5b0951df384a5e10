"""The venue's connection: on every taikai, refused unless a follow token made here signs it."""

from django.urls import path

from taikai.follow import pages

urlpatterns = [path("follow/v1/sync", pages.sync, name="follow_sync")]
