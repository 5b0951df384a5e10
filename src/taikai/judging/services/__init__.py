"""Judging services: every change validates, applies core rules, saves and writes an audit entry in one
transaction; permissions are checked here, never only in the views."""

from taikai.judging import messages as _messages  # noqa: F401  (registers the problem texts)
