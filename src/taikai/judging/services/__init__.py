"""Judging services: every change validates, applies core rules, saves and writes an audit entry in one
transaction; permissions are checked here, never only in the views."""

from taikai.judging import texts as _texts  # noqa: F401  (registers the problem texts)
