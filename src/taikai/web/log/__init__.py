"""The event's log as pages (issue 22): the staff page and the player's page, over ``taikai.eventlog``."""
