"""Domain problems: a code and parameters, never a sentence (STYLE habit 6).

The edge (view, API, CLI) turns a Problem into Japanese or English text; core never does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Problem:
    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def __init__(self, code: str, **params: Any) -> None:
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "params", params)

    def __str__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.code}({inner})"

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted((k, repr(v)) for k, v in self.params.items()))))

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, **self.params}


class ProblemError(Exception):
    """A domain error carrying one ``Problem``; each part of core names its own kind (``PairingError``,
    ``MatchRecordError``, ...) so a caller catches what it can handle, and the edge translates ``problem``."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem
