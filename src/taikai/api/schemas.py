"""Wire shapes of /api/v1/ (pydantic, through django-ninja). IDs on the wire are strings."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from ninja import Field, Path, Schema

# Path parameters, bounded so any value fits the database's integer columns.
Id = Annotated[int, Path(ge=1, le=2**53)]
RoundNumber = Annotated[int, Path(ge=1, le=32767)]


class ErrorBody(Schema):
    code: str = Field(..., description="Stable problem code, e.g. `not-staff`, `round-not-finished`.")
    message: str = Field(..., description="Human text in the caller's language (Accept-Language: ja or en).")
    params: dict[str, Any] = Field(default_factory=dict)


class ErrorOut(Schema):
    error: ErrorBody


class Page(Schema):
    count: int
    limit: int
    offset: int


class EventOut(Schema):
    id: str
    name: str
    date: str
    venue: str
    format: Literal["swiss", "elimination", "swiss_cut"]
    status: Literal["registration", "running", "finished"]
    ruleset: str
    swiss_rounds: int | None
    top_cut: int | None
    players: int
    rounds: int
    archetypes_public: bool = Field(
        ...,
        description="Players' declared deck archetypes are public: the event has finished or the organizer "
        "published them. Until then `archetype` is null in the players list (except with a staff token).",
    )


class EventPage(Page):
    items: list[EventOut]


class PlayerRef(Schema):
    id: str
    name: str


class PlayerOut(Schema):
    id: str
    name: str
    name_kana: str
    checked_in: bool
    late_entry_round: int | None
    dropped_after_round: int | None
    archetype: str | None = Field(..., description="The declared deck archetype; null while it is not public.")
    team: str | None = Field(None, description="The player's team's ID (team events, CS 1.1); null: on no team.")
    seat: str = Field("", description="The player's seat in the team (e.g. A, B, C).")
    version: int = Field(0, description="The entry's version, sent back when seating the player in a team.")


class PlayerPage(Page):
    items: list[PlayerOut]


class RoundOut(Schema):
    number: int
    stage: Literal["swiss", "elimination"]
    status: Literal["paired", "started", "finished"]
    started_at: str | None
    time_limit_seconds: int
    tables: int
    open_tables: int
    seed: str = Field(description="The seed the round was drawn from (stored with it; give it again to replay).")


class RoundPage(Page):
    items: list[RoundOut]


class DuelCount(Schema):
    a: int
    b: int
    draws: int


class MatchOut(Schema):
    id: str
    round: int
    table: int
    player_a: PlayerRef
    player_b: PlayerRef | None
    is_bye: bool
    status: Literal["pending", "reported", "disputed", "confirmed"]
    result: Literal["a", "b", "draw", ""] = Field(..., description="Only once confirmed; empty before.")
    duels: DuelCount
    basis: str
    extension_seconds: int
    version: int


class MatchPage(Page):
    items: list[MatchOut]


class TiebreakerOut(Schema):
    name: str = Field(..., description="The tiebreaker's name in the ruleset (`standings.tiebreakers`), e.g. `omw`.")
    value: str = Field(..., description="The exact value as a fraction, e.g. `5/9`.")
    text: str = Field(..., description="As the standings page shows it, e.g. `55.56%`.")


class StandingOut(Schema):
    rank: int
    player: PlayerRef
    points: int
    wins: int
    losses: int
    draws: int
    omw: str = Field(..., description="Opponents' match-win percentage as an exact fraction, e.g. `5/9`.")
    omw_percent: str = Field(..., description="The same rounded for display, e.g. `55.56`.")
    oomw: str
    oomw_percent: str
    tiebreakers: list[TiebreakerOut] = Field(
        ..., description="Every tiebreaker the standings show, in the ruleset's order (OMW%, OOMW%, ...)."
    )
    code: str = Field(..., description="The KTS-style standings code.")
    dropped: bool


class StandingPage(Page):
    items: list[StandingOut]


class BracketRound(Schema):
    number: int
    matches: list[MatchOut]


class BracketOut(Schema):
    rounds: list[BracketRound]


class ClockProcedure(Schema):
    """Where a table stands in the judge's time procedure (TIME-E-*, TIME-S-*)."""

    phase: str = Field(..., description="finish_turn, extra_turn, life_points, sudden_death, extra_duel_turn, …")
    turn: int
    turns: int
    turn_player: Literal["A", "B"] | None
    extra_duel: bool


class ClockOwnTable(Schema):
    table: int
    extension: int = Field(..., description="The judge's extension at this table, in seconds (TIME-4).")
    status: Literal["not-started", "running", "paused", "time", "finished"]
    remaining: float


class ClockTable(Schema):
    table: int
    extension: int = Field(..., description="The judge's extension at this table, in seconds (TIME-4).")
    status: Literal["running", "time"]
    remaining: int
    procedure: ClockProcedure | None = Field(None, description="None until a judge starts the time procedure.")


class ClockOut(Schema):
    """The round clock, the same payload as the projector's ``clock.json`` (``taikai.judging.clock_feed``)."""

    round: int | None
    stage: str | None = None
    status: Literal["not-started", "running", "paused", "time", "finished", "none"]
    paused: bool
    server_time: float
    remaining: float | None = None
    ends_at: float | None = Field(None, description="Unix time the round ends while the clock runs.")
    limit: int | None = None
    tables_playing: list[ClockTable] = Field(default_factory=list, description="After time: the tables playing.")
    table: ClockOwnTable | None = Field(None, description="With ?table=N: that table's own clock, with its extension.")


class RegisterIn(Schema):
    name: str = Field(..., max_length=200)
    card_game_id: str = Field(..., max_length=40)
    name_kana: str = Field("", max_length=200)
    contact: str = Field("", max_length=200)


class CheckInIn(Schema):
    id_card_shown: bool = True


class CheckInOut(Schema):
    player: PlayerOut
    player_token: str = Field(..., description="The player's personal link token (shown once); X-Player-Token.")


class ArchetypeIn(Schema):
    name: str = Field(..., max_length=200)


class ResultIn(Schema):
    duels: list[dict[str, Any]] = Field(
        default_factory=list,
        description='Duel by duel, as `taikai match result`: {"winner": "A"}, {"draw": true}, '
        '{"time": {"A": 8000, "B": 3000}}, …',
    )
    time_called_between_duels: bool = False
    basis: Literal["played", "concession-consent", "concession-own-turn", "intentional-draw"] = "played"
    opening: dict[str, Literal["A", "B"]] | None = Field(
        None,
        description='MATCH-3, optional: duel 1\'s rock-paper-scissors, {"rps_winner": "A", "first": "B"} '
        "(the winner chose to go second). Never disputes a report.",
    )
    idempotency_key: str = Field("", max_length=64)
    version: int | None = Field(
        None,
        description="The match's version you saw: a table changed since (the opponent reported, a judge decided) "
        "is 409, nothing recorded. Absent: not checked.",
    )


class ConfirmIn(Schema):
    version: int = Field(..., description="The match's version the player saw: a report changed since is 409.")


class PairRoundIn(Schema):
    seed: str | None = Field(
        None,
        pattern=r"^[0-9]{1,19}$",
        description="The seed of the round's draw, below 2^62 (a string, as IDs are); stored with the round, so "
        "the same seed on the same event pairs the same tables. Absent: taikai draws one.",
    )


class ClockAction(Schema):
    version: int | None = None


class DeckIn(Schema):
    text: str = Field(
        ...,
        max_length=20_000,
        description=(
            "A text deck sheet (Japanese or English), the lines of a .ydk file, a ydke:// URL or a YGO Omega deck code."
        ),
    )
    languages: list[Literal["ja", "en", "ko", "fr", "de", "it", "es", "pt"]] = Field(
        default_factory=list, description="Languages of the physical cards (DECK-8); none means Japanese."
    )


class DeckCounts(Schema):
    main: int
    extra: int
    side: int


class DeckRegistered(Schema):
    version: int
    legal: bool
    counts: DeckCounts


class DeckOut(Schema):
    """The list just sent, checked; and the list registered after it."""

    player: str
    legal: bool
    counts: DeckCounts
    problems: list[dict[str, Any]] = Field(
        default_factory=list, description="As `taikai deck check --json`: code, card, name, section, count, limit."
    )
    mixed_languages: bool
    locked: bool
    accepted: bool = Field(
        ...,
        description="False: the list has problems and a legal list is registered, which stays (DECK-9); the list "
        "sent is kept as not accepted, shown to the player and the judges.",
    )
    registered: DeckRegistered


class PairIn(Schema):
    a: str = Field(..., description="Player A's id.")
    b: str | None = Field(None, description="Player B's id; null for a bye.")


class PairingsVersionIn(Schema):
    version: str = Field(
        ..., max_length=40, description="The `version` of the round's pairings you saw (GET .../pairings)."
    )


class PairingsIn(PairingsVersionIn):
    pairs: list[PairIn] = Field(
        ..., max_length=1000, description="Every table in order; a table with a result as it is."
    )
    allow_rematch: bool = False


class PairingTableOut(Schema):
    table: int
    player_a: dict[str, str]
    player_b: dict[str, str] | None
    is_bye: bool
    status: Literal["pending", "reported", "disputed", "confirmed"]
    has_result: bool = Field(..., description="A result is in: an edit keeps this table as it is.")


class PairingsOut(Schema):
    round: int
    version: str = Field(..., description="Send it back with an edit or a re-pair; a stale one is answered 409.")
    tables: list[PairingTableOut]
