"""Wire shapes of team events (CS 1.1): teams, their seats, team standings. IDs on the wire are strings."""

from __future__ import annotations

from ninja import Field, Schema

from taikai.api.schemas import Page, RegisterIn, TiebreakerOut


class TeamMemberOut(Schema):
    id: str
    name: str
    seat: str = Field(..., description="The seat, one of the ruleset's team seats (e.g. A, B, C).")
    version: int


class TeamOut(Schema):
    id: str
    name: str
    dropped_after_round: int | None = Field(..., description="Set when the team was dropped (PEN-4: a team DQ).")
    members: list[TeamMemberOut] = Field(..., description="In seat order.")


class TeamPage(Page):
    items: list[TeamOut]


class TeamIn(Schema):
    name: str = Field(..., max_length=200)
    members: list[RegisterIn] | None = Field(
        None, max_length=10, description="New players, one a seat in seat order: each is registered with the team."
    )
    players: list[str] | None = Field(
        None,
        max_length=10,
        description="Or the IDs of players already registered and on no team, one a seat in seat order.",
    )


class SeatIn(Schema):
    team: str | None = Field(..., max_length=20, description="The team's ID; null takes the player off their team.")
    seat: str = Field("", max_length=4, description="A free seat of that team (e.g. A, B, C).")
    version: int | None = Field(None, description="The player's `version` you saw; a stale one is a 409.")


class TeamStandingOut(Schema):
    rank: int
    team: str = Field(..., description="The team's ID.")
    name: str
    points: int
    wins: int
    losses: int
    draws: int
    omw: str
    oomw: str
    tiebreakers: list[TiebreakerOut] = Field(..., description="Every tiebreaker shown, in the ruleset's order.")
    code: str


class TeamStandingsOut(Schema):
    items: list[TeamStandingOut]
