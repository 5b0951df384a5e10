"""Wire shapes of running an event over the API: creating it, staff, penalties and appeals, prizes, judge
calls, time extensions, the time procedure and webhooks. IDs on the wire are strings."""

from __future__ import annotations

from typing import Any, Literal

from ninja import Field, Schema

from taikai.api.schemas import MatchOut, Page, PlayerRef
from taikai.core.rungs import RUNGS

Role = Literal["organizer", "head_judge", "judge"]
_RUNG_LIST = ", ".join(f"`{rung}`" for rung in RUNGS)  # from core, so the description cannot drift from the ladder


class EventIn(Schema):
    """Checked by the page's form (the same limits and messages): a bad value is a 400 with its code."""

    name: str = Field(..., max_length=1000, description="At most 200 characters.")
    date: str = Field(..., max_length=40, description="YYYY-MM-DD.", examples=["2027-03-14"])
    venue: str = Field("", max_length=1000)
    ruleset: str = Field(..., max_length=200, description="A built-in ruleset: `taikai ruleset list`.")
    format: str = Field(..., max_length=40, description="`swiss`, `elimination` or `swiss_cut`.")
    swiss_rounds: int | None = Field(None, ge=-(2**31), le=2**31, description="1-30; empty: the ruleset's table.")
    top_cut: int | None = Field(None, ge=-(2**31), le=2**31, description="0-256; empty: the ruleset's table.")
    is_team_event: bool = False
    deck_deadline: str | None = Field(None, max_length=40, description="YYYY-MM-DDTHH:MM, the venue's time.")
    banlist: str = Field("", max_length=1000, description="The Forbidden/Limited list's name.")


class StaffIn(Schema):
    username: str = Field(..., max_length=150)
    role: str = Field(..., max_length=40, description="`organizer`, `head_judge` or `judge`.")


class StaffOut(Schema):
    username: str
    role: Role


class StaffList(Schema):
    items: list[StaffOut]


class PenaltyIn(Schema):
    player: str = Field(..., max_length=20, description="The player's id.")
    infraction: str = Field(..., max_length=10, description="An infraction of the ruleset, e.g. `INF-3`.")
    rung: str | None = Field(
        None,
        max_length=30,
        description=f"A rung of the ladder, lightest first ({_RUNG_LIST}); "
        "empty: the ruleset's default, escalated for a repeat (PEN-5).",
    )
    reason: str = Field("", max_length=2000, description="Required when the rung is not the default (PEN-7).")
    description: str = Field("", max_length=4000)
    match: str | None = Field(
        None, max_length=20, description="The match it is given in; must be the player's current match."
    )
    downgrade_steps: int = Field(
        1, ge=0, le=99, description="Prize ranks a downgrade costs (PEN-2); the ruleset's cap, if any, applies."
    )
    prior_duels: list[dict[str, Any]] | None = Field(
        None, description="The duels already finished at the table, as in a result, before the penalty's duel loss."
    )


class MatchChange(Schema):
    match: str
    round: int | None
    table: int | None
    before: dict[str, Any] = Field(..., description="status, result, duels (a, b, draws) before the penalty.")
    after: dict[str, Any]


class PrizeEffect(Schema):
    downgrade_steps: int
    prize_loss: bool
    prize: str | None = Field(..., description="The prize rank the player holds now, after every sanction.")


class PenaltyEffects(Schema):
    matches: list[MatchChange] = Field(default_factory=list, description="Which match changed and how.")
    dropped: bool = Field(..., description="The player is out of the event (a DQ drops them).")
    disqualified: bool
    team_dropped: bool = False
    waiting_for_next_match: bool = Field(
        ..., description="A duel or match loss waiting for the player's next match (PEN-1)."
    )
    prize: PrizeEffect
    other: list[dict[str, Any]] = Field(default_factory=list, description="Any other recorded effect, as stored.")


class PenaltyOut(Schema):
    id: str
    player: PlayerRef
    infraction: str
    rung: str
    default_rung: str
    reason: str
    description: str
    issued_by: str
    issued_at: str
    overturned: bool
    in_database: bool
    effects: PenaltyEffects


class PenaltyPage(Page):
    items: list[PenaltyOut]


class AppealIn(Schema):
    reason: str = Field(..., max_length=4000)


class AppealOut(Schema):
    id: str
    penalty: str | None
    player: PlayerRef
    status: Literal["open", "upheld", "overturned"]
    reason: str
    decision_note: str


class DecisionIn(Schema):
    decision: str = Field(..., max_length=20, description="`uphold` or `overturn` (PEN-6: the head judge).")
    note: str = Field("", max_length=4000)


class DecisionOut(Schema):
    appeal: AppealOut
    penalty: PenaltyOut


class PrizeRankIn(Schema):
    label: str = Field(..., max_length=100)
    first: int = Field(..., ge=1, le=10_000)
    last: int = Field(..., ge=1, le=10_000)
    shared: bool = True


class PrizeRanksIn(Schema):
    ranks: list[PrizeRankIn] = Field(..., max_length=100)


class PlayoffOut(Schema):
    slots: int
    candidates: list[PlayerRef]


class PrizeRankOut(Schema):
    label: str
    first: int
    last: int
    shared: bool
    players: list[PlayerRef] = Field(..., description="Certain holders, after downgrades and promotions.")
    downgraded: list[str] = Field(..., description="Ids of those placed here by a downgrade (PEN-2).")
    playoff: PlayoffOut | None = Field(None, description="Places decided by a playoff (PEN-3).")
    from_playoff_above: int


class PrizesOut(Schema):
    published: bool
    playoff_needed: bool
    ranks: list[PrizeRankOut]
    no_prize: list[PlayerRef] = Field(..., description="Sanctioned players left without a prize.")


class ArchetypesOut(Schema):
    public: bool = Field(..., description="Anyone sees the declared deck archetypes: finished, or published.")
    published_at: str | None = Field(..., description="When the organizer published them early; null if not.")


class CallIn(Schema):
    table: int | None = Field(None, ge=1, le=100_000, description="Staff: the table. A player: their own.")
    description: str = Field("", max_length=2000)


class CallerOut(Schema):
    player: str = Field(..., description="The calling player's id.")
    name: str
    question: str = Field(..., description="What the player wrote when calling, if anything.")
    called_at: str
    withdrawn_at: str | None = Field(..., description="When the player took the call back; null while calling.")


class CallOut(Schema):
    id: str
    table: int | None
    match: str | None
    source: str
    status: Literal["open", "taken", "closed"]
    description: str
    ruling: str
    taken_by: str | None
    created_at: str
    ruling_seconds: int | None = Field(..., description="How long the ruling took (TIME-4), once recorded.")
    extended_seconds: int = Field(..., description="Time added to the table for this ruling so far (TIME-4).")
    callers: list[CallerOut] = Field(
        ...,
        description="The players who called a judge to this table, first caller first: one call per table, "
        "however many of its players tapped (JUDGE-1). Empty for a staff call or a report.",
    )


class CallList(Schema):
    items: list[CallOut]


class RulingIn(Schema):
    ruling: str = Field("", max_length=4000)
    close: bool = True
    extension_seconds: int = Field(
        0,
        ge=0,
        le=86400,
        description="Time added to the table (TIME-4): only when the ruling took the ruleset's threshold or more "
        "(CS 3.1: one minute), at most the ruling's length unless the head judge adds it, and at most the "
        "ruleset's time.extension_max_minutes.",
    )
    reason: str = Field("", max_length=2000)
    ruling_seconds: int | None = Field(
        None,
        ge=0,
        le=86400,
        description="How long the ruling took, as the judge states it (logged); absent: measured from taking the call.",
    )


class ExtensionIn(Schema):
    seconds: int = Field(
        ..., ge=-(2**31), le=2**31, description="1 to the ruleset's time.extension_max_minutes × 60 (TIME-4)."
    )
    reason: str = Field(..., max_length=2000)
    call: str | None = Field(
        None, max_length=20, description="The judge call at this table whose ruling the time makes up for."
    )
    ruling_seconds: int | None = Field(
        None,
        ge=0,
        le=86400,
        description="How long the ruling took (logged); needed without `call`, and overrides the call's measured "
        "length. Below the ruleset's threshold (CS 3.1: one minute) nothing is added.",
    )


class TimeStartIn(Schema):
    between: bool = Field(False, description="Time was called between duels; otherwise during a turn.")
    turn_player: str = Field("A", max_length=2, description="`A` or `B`: whose turn it was.")
    duels: list[dict[str, Any]] = Field(default_factory=list, description="The duels finished before time.")


class TimeStepIn(Schema):
    step: list[Any] = Field(
        ...,
        max_length=3,
        description='One input: ["win", "A"], ["draw"], ["turn_end"], ["life_points", 800, 1200], '
        '["first_player", "B"].',
    )


class TimeProcedureOut(Schema):
    match: MatchOut
    phase: str = Field(..., description="finish_turn, extra_turn, life_points, sudden_death, extra_duel_rps, …, done")
    expects: list[str]
    turn: int
    turns: int
    turn_player: str | None
    extra_duel: bool
    inputs: list[list[Any]]


class WebhookIn(Schema):
    url: str = Field(..., max_length=4000, description="http or https, at most 500 characters, no spaces")


class WebhookOut(Schema):
    id: str
    url: str
    active: bool
    delivered: int
    skipped: int
    failures: int
    last_error: str = Field(..., description="HTTP <status>, no answer, or destination not allowed")
    disabled_at: str | None = Field(None, description="When it was stopped after its deliveries kept failing")
    secret: str | None = Field(None, description="The HMAC key, shown once when the webhook is made.")


class WebhookList(Schema):
    items: list[WebhookOut]
