"""The judging app's part of the placings (taikai.events.services.placings): each player's prize in words."""

from __future__ import annotations

from taikai.events.services import placings
from taikai.judging.services.prizes import prize_texts, prizes_published

placings.register_prize_reader(prize_texts)
# the placings, the player's page and GET …/placings say prizes once the organizer published them
placings.register_prize_publication(prizes_published)
