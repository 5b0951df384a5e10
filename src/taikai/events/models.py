"""Events, staff, players, teams, rounds, matches and result reports.

State changes only through taikai.events.services (each in one transaction with an audit entry).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from taikai.core.match_record import Format as MatchFormat
from taikai.core.ruleset import Ruleset, from_document

_RULESETS: dict[str, Ruleset] = {}


class Event(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ELIMINATION = "elimination", _("Single elimination")
        SWISS_CUT = "swiss_cut", _("Swiss, then a top cut")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=200)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    ruleset_name = models.CharField(_("ruleset"), max_length=100)
    ruleset_document = models.JSONField()  # the exact merged ruleset, fixed once the event starts
    ruleset_fingerprint = models.CharField(max_length=32)
    format = models.CharField(_("format"), max_length=20, choices=Format.choices, default=Format.SWISS)
    swiss_rounds = models.PositiveSmallIntegerField(_("Swiss rounds"), null=True, blank=True)
    top_cut = models.PositiveSmallIntegerField(_("top cut"), null=True, blank=True)
    # Left blank, the two numbers above are filled from the ruleset's attendance table when round 1 is paired
    # (issue 22): these say for how many checked-in entrants, so undoing round 1 leaves them blank again.
    # None: the organizer's own number, or not fixed yet.
    swiss_rounds_attendance = models.PositiveIntegerField(null=True, blank=True)
    top_cut_attendance = models.PositiveIntegerField(null=True, blank=True)
    deck_deadline = models.DateTimeField(_("deck list deadline"), null=True, blank=True)
    banlist_name = models.CharField(_("Forbidden/Limited list"), max_length=100, blank=True)
    banlist_entries = models.JSONField(default=dict, blank=True)  # snapshot: passcode -> limit
    is_team_event = models.BooleanField(_("team event"), default=False)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTRATION)
    registration_closed = models.BooleanField(default=False)  # by the organizer; pairing round 1 closes it too
    # Declared deck archetypes are public once the event has finished, or from this moment when the organizer
    # publishes them earlier (issue 16: a metagame breakdown announced after the Swiss rounds).
    archetypes_published_at = models.DateTimeField(null=True, blank=True)
    tiebreak_seed = models.BigIntegerField()  # the recorded draw for final ties (never the player ID)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # An imported copy (docs/event-json.md): when, and from which file's event (its name and export time).
    imported_at = models.DateTimeField(null=True, blank=True)
    imported_from = models.CharField(max_length=200, blank=True)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-date", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def ruleset(self) -> Ruleset:
        cached: Ruleset | None = getattr(self, "_ruleset", None)
        if cached is None:
            # Validating a ruleset document is not free: share the parsed one by its fingerprint.
            # The fingerprint is a hash of the stored document, so equal fingerprints mean equal rulesets.
            cached = _RULESETS.get(self.ruleset_fingerprint)
            if cached is None:
                cached = from_document(self.ruleset_document)
                _RULESETS[self.ruleset_fingerprint] = cached
            self._ruleset = cached
        return cached

    def get_absolute_url(self) -> str:
        return f"/events/{self.pk}/"

    @property
    def archetypes_public(self) -> bool:
        """Everyone may see each player's declared deck archetype (デッキタイプ): once the event has finished, or
        earlier once the organizer published them. Before that they would tell a player what deck their next
        opponent registered (issue 16); staff see them all along."""
        return self.status == Event.Status.FINISHED or self.archetypes_published_at is not None

    @property
    def registration_open(self) -> bool:
        """New players join as ordinary entrants until the organizer closes registration or round 1 is
        paired; after that a new arrival is a late entry, and after the event nobody joins."""
        return self.status == Event.Status.REGISTRATION and not self.registration_closed and not self.rounds.exists()


class StaffRole(models.Model):
    class Role(models.TextChoices):
        ORGANIZER = "organizer", _("Organizer")
        HEAD_JUDGE = "head_judge", _("Head judge")
        # CS 3: an organizer who judges the event themself is its one head judge, and still its organizer.
        ORGANIZER_HEAD_JUDGE = "organizer_head_judge", _("Organizer and head judge")
        JUDGE = "judge", _("Judge")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="staff_roles")
    role = models.CharField(max_length=20, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="one_role_per_user_per_event"),
            # PEN-6: exactly one head judge per event.
            models.UniqueConstraint(
                fields=["event"],
                condition=models.Q(role__in=["head_judge", "organizer_head_judge"]),
                name="one_head_judge_per_event",
            ),
        ]


class Team(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("team name"), max_length=200)
    dropped_after_round = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="unique_team_name")]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=100)
    name_kana = models.CharField(_("reading (kana)"), max_length=100, blank=True)
    card_game_id = models.CharField(_("Konami Card Game ID"), max_length=10)  # REG-1
    contact = models.CharField(_("contact"), max_length=200, blank=True)
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.PROTECT, related_name="members")
    seat = models.CharField(max_length=4, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)  # REG-3
    id_card_shown = models.BooleanField(default=False)  # REG-1
    ineligible_reason = models.CharField(max_length=300, blank=True)  # REG-2
    late_entry_round = models.PositiveSmallIntegerField(null=True, blank=True)  # first round played
    dropped_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    disqualified = models.BooleanField(default=False)  # PEN-1: removed by a DQ (失格), not a drop
    declined_top_cut = models.BooleanField(default=False)  # qualified, but chose not to play the top cut
    access_token_hash = models.CharField(max_length=64, blank=True, db_index=True)
    # The random value the link's token is derived from with the secret key (services/links.py), so the desk can
    # print the same link again; the token itself is never stored, and this opens nothing without the key.
    access_token_seed = models.CharField(max_length=32, blank=True)
    pin_hash = models.CharField(max_length=200, blank=True)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "card_game_id"], name="player_once_per_event"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def dropped(self) -> bool:
        return self.dropped_after_round is not None


class Round(models.Model):
    class Stage(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ELIMINATION = "elimination", _("Single elimination")

    class Status(models.TextChoices):
        PAIRED = "paired", _("Paired")
        STARTED = "started", _("In progress")
        FINISHED = "finished", _("Finished")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=20, choices=Stage.choices, default=Stage.SWISS)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PAIRED)
    seed = models.BigIntegerField()
    time_limit_seconds = models.PositiveIntegerField()
    started_at = models.DateTimeField(null=True, blank=True)
    pauses = models.JSONField(default=list)  # [[start_ts, end_ts|null], ...]
    time_called_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="unique_round_number")]

    def __str__(self) -> str:
        return f"{self.event} R{self.number}"

    @property
    def format(self) -> MatchFormat:
        """The match rules this round plays by (MATCH-2, TIME-E: single elimination has no match draws and
        extra duels), read from its stage: the one place a stage becomes a format."""
        return MatchFormat.ELIMINATION if self.stage == self.Stage.ELIMINATION else MatchFormat.SWISS

    @property
    def pairing_input(self) -> dict[str, Any]:
        """The stored pairing input (the `taikai pair` request), so any pairing can be reproduced."""
        stored = RoundPairing.objects.filter(round=self).values_list("input", flat=True).first()
        return stored or {}

    @property
    def pairing_report(self) -> list[Any]:
        """Per table: point difference, whether a rematch-free alternative existed, why paired down."""
        stored = RoundPairing.objects.filter(round=self).values_list("report", flat=True).first()
        return stored or []


class RoundPairing(models.Model):
    """A round's pairing input and report, kept apart from the round: they name every player of the event,
    and the round itself is read on every result report and page."""

    round = models.OneToOneField(Round, primary_key=True, on_delete=models.CASCADE, related_name="pairing")
    input = models.JSONField(default=dict)
    report = models.JSONField(default=list)


class TeamMatch(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="team_matches")
    table = models.PositiveIntegerField()
    team_a = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    team_b = models.ForeignKey(Team, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    result = models.CharField(max_length=8, blank=True)  # "a", "b", "draw", "bye"


class Match(models.Model):
    """One table of a round: two players (or a bye), their duel record and the computed outcome."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Playing")
        REPORTED = "reported", _("Awaiting confirmation")
        DISPUTED = "disputed", _("Disputed")
        CONFIRMED = "confirmed", _("Confirmed")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveIntegerField()
    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    team_match = models.ForeignKey(TeamMatch, null=True, blank=True, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(max_length=4, blank=True)
    is_bye = models.BooleanField(default=False)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    record = models.JSONField(null=True, blank=True)  # duels in the `taikai match result` input shape
    result = models.CharField(max_length=8, blank=True)  # "a", "b", "draw" (computed, never typed)
    duel_wins_a = models.PositiveSmallIntegerField(default=0)
    duel_wins_b = models.PositiveSmallIntegerField(default=0)
    duel_draws = models.PositiveSmallIntegerField(default=0)
    basis = models.CharField(max_length=40, blank=True)  # played, concession-consent, concession-own-turn, ...
    # A ruling that ended the match instead of the duels (taikai.core.open_match.RULINGS): a match loss, a DQ's
    # forfeit, a drop or a lost 参加資格 while the table was being played; "" when the duels decided it
    ruling = models.CharField(max_length=32, blank=True)
    extension_seconds = models.PositiveIntegerField(default=0)  # TIME-4
    manual = models.BooleanField(default=False)  # a pairing edited by staff
    # PEN-1: duels a penalty decided, [{"duel": n, "loser": "a"|"b", "penalty": id}]: every report keeps them
    penalty_duels = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["round__number", "table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table", "seat"], name="unique_table_per_round"),
        ]
        # "is any table of this round still open?" runs after every confirmed result (round_end)
        indexes = [models.Index(fields=["round", "status"], name="match_round_status")]

    def __str__(self) -> str:
        return f"R{self.round.number} T{self.table}"

    def side_of(self, player: Player) -> str | None:
        if player.pk == self.player_a_id:
            return "a"
        if player.pk == self.player_b_id:
            return "b"
        return None

    @property
    def being_played(self) -> bool:
        """The one meaning of "not finished" (issue 22): no result reported, disputed or decided yet. A
        finished match changes only through the correction path."""
        return not self.is_bye and self.status == self.Status.PENDING


class Notice(models.Model):
    """A decided change to a player's match, told to them in words on their page until they close it
    (issue 22: whoever a decision affects sees it). ``kind`` names the text (events/notices.py)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="notices")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="notices")
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=40)
    params = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["player", "closed_at"], name="notice_player_open")]


class ResultReport(models.Model):
    """One player's (or staff's) report of a match record; two matching player reports confirm it."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    by_player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    by_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)
    record = models.JSONField()
    basis = models.CharField(max_length=40, blank=True)
    idempotency_key = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="report_idempotent",
            )
        ]


def current_round(event: Event) -> Round | None:
    """The event's latest round: the one being played, or the last one played."""
    return event.rounds.order_by("-number").first()


def current_match(player: Player) -> Match | None:
    """The player's table in the latest round (None if they are not paired in it), with its round and players."""
    rnd = current_round(player.event)
    if rnd is None:
        return None
    tables = Match.objects.filter(round=rnd).select_related("round__event", "player_a", "player_b")
    return tables.filter(models.Q(player_a=player) | models.Q(player_b=player)).first()


def bye(rnd: Round, table: int, player_id: int | str, **fields: Any) -> Match:
    """A bye at ``table`` (not saved yet): a confirmed win for its one player, reported by the pairing itself."""
    return Match(
        round=rnd,
        table=table,
        player_a_id=player_id,
        is_bye=True,
        status=Match.Status.CONFIRMED,
        result="a",
        basis="bye",
        **fields,
    )


def create_round(*, pairing_input: dict[str, Any], pairing_report: list[Any] | None = None, **fields: Any) -> Round:
    """A new round with its stored pairing input and report (call inside the service's transaction)."""
    rnd = Round.objects.create(**fields)
    RoundPairing.objects.create(round=rnd, input=pairing_input, report=pairing_report or [])
    return rnd


class Announcement(models.Model):
    """A short message from the organizer to the projector and every player's page (お知らせ), shown until the
    next one replaces it; a cleared announcement is a row with no text. Rows are only added, so the console
    lists what was said and when."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="announcements")
    text = models.CharField(max_length=500, blank=True)
    sent_at = models.DateTimeField(auto_now_add=True)
    sent_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["-id"]
