"""Service errors carry a Problem (code + params); views, API and CLI translate them once."""

from __future__ import annotations

from typing import Any

from taikai.core.problems import Problem


class ServiceError(Exception):
    def __init__(self, code: str, **params: Any):
        self.problem = Problem(code, **params)
        super().__init__(str(self.problem))


class PermissionDenied(ServiceError):
    pass


class Conflict(ServiceError):
    """Someone else changed the object first (optimistic versioning); reload and try again."""
