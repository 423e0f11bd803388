"""The event store: games, their seats, the append-only event log, snapshots and idempotency records.

The log is the truth. `Game.version/status/to_act/result` are a head row kept in step with the log in
the same transaction (for listing and optimistic checks); deleting every snapshot changes no answer.
In PostgreSQL, triggers (migration 0005_append_only_guards) keep the log append-only for every role and
refuse to rewrite what a game was created with (seed, decks, kind, rules version, options...), to lower its
version or to reopen it (migrations 0005 and 0007);
`docker/postgres/roles.sql` gives the application a role without UPDATE/DELETE on the log.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class Player(models.Model):
    """A person or program that plays through the API; authenticates with its user's token."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player")
    name = models.CharField(max_length=40, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class ClockPolicy(models.TextChoices):
    RANDOM = "random"
    HEURISTIC = "heuristic"
    FORFEIT = "forfeit"


class Game(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"  # invitations out: nothing dealt until every seated person accepts
        ACTIVE = "active"
        FINISHED = "finished"
        ABORTED = "aborted"

    class AbortReason(models.TextChoices):
        DECLINED = "declined"  # a seated person declined the invitation
        EXPIRED = "expired"  # not every seated person accepted in time

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=32, db_index=True)
    # The rules version of its kind the game is played by, fixed at creation (docs/rules-versions.md): a game
    # created before a kind's rules changed keeps playing, replaying and verifying by the rules it began with.
    rules_version = models.PositiveSmallIntegerField(default=1)
    options = models.JSONField(default=dict)
    seat_count = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE, db_index=True)
    version = models.PositiveIntegerField(default=0)
    to_act = models.JSONField(default=list)
    result = models.JSONField(null=True, blank=True)
    # Secret until the game ends: the seed and any dealt decks. Never in a serializer of a running game.
    seed = models.CharField(max_length=128)
    seed_sha256 = models.CharField(max_length=64)
    decks = models.JSONField(default=list, blank=True)
    created_by = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Turn clock (optional): a player seat to act has `turn_seconds` from the head that gave it the move;
    # then `clock_policy` plays for it ("random", "heuristic") or it forfeits the game ("forfeit").
    turn_seconds = models.PositiveIntegerField(null=True, blank=True)
    clock_policy = models.CharField(max_length=16, choices=ClockPolicy.choices, blank=True, default="")
    # Rated games (every seat a distinct player) update the players' ratings once they finish.
    rated = models.BooleanField(default=False)
    # A sealed game's log stays private after it ends, as if it were running, until it is unsealed: the
    # tables of a duplicate round share their deals, so one finished table would show the others' hands.
    sealed = models.BooleanField(default=False)
    # A pending game (some seated person has not accepted yet) is aborted if not accepted by then.
    expires_at = models.DateTimeField(null=True, blank=True)
    abort_reason = models.CharField(max_length=16, choices=AbortReason.choices, blank=True, default="")
    # True when the creator chose the seed or the decks: allowed only with no other person seated, never rated.
    seed_chosen = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} {self.id}"

    @property
    def is_over(self) -> bool:
        """Finished or aborted: nothing will be appended any more."""
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="seats")
    bot = models.CharField(max_length=32, blank=True, default="")
    bot_options = models.JSONField(default=dict, blank=True)
    # When the turn clock runs out for this seat (set while it is to act in a clocked game).
    deadline = models.DateTimeField(null=True, blank=True)
    # Consent: when the seated player agreed to play (set at creation for the creator's own seats, bots and
    # tournament tables; by `POST /games/{id}/accept/` for an invited player), or declined.
    accepted_at = models.DateTimeField(null=True, blank=True)
    declined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["index"]
        constraints = [models.UniqueConstraint(fields=["game", "index"], name="seat_game_index_unique")]


class Event(models.Model):
    """One fact of one game. Rows are never updated or deleted: besides `save`/`delete` here, PostgreSQL
    triggers refuse it to every role, and TRUNCATE to all but the owner (migration 0005_append_only_guards)."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=64)
    actor = models.SmallIntegerField(null=True, blank=True)
    data = models.JSONField()
    public = models.JSONField(null=True, blank=True)
    visible_to = models.JSONField(null=True, blank=True)
    schema_version = models.PositiveSmallIntegerField(default=1)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="event_game_seq_unique")]

    def save(self, *args, **kwargs):
        if self.pk is not None and not kwargs.get("force_insert"):
            raise ValueError("events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("events are append-only")


class Snapshot(models.Model):
    """A folded position at `version`, valid only for the engine's `state_version`. A pure speed-up."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    version = models.PositiveIntegerField()
    state_version = models.PositiveIntegerField()
    payload = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "version", "state_version"], name="snapshot_unique"),
        ]


class IdempotencyRecord(models.Model):
    """The first answer to a request sent with an Idempotency-Key, replayed for any retry."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE)
    key = models.CharField(max_length=128)
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "key"], name="idempotency_unique")]


class Notification(models.Model):
    """A message to one player (your turn, a game started or finished, a tournament pairing), numbered per
    player without gaps so that a stream client resumes with Last-Event-ID. Rows are never changed (the same
    PostgreSQL triggers as for `Event`)."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="notifications", db_index=False)
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=40)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player", "seq"]
        constraints = [models.UniqueConstraint(fields=["player", "seq"], name="notification_player_seq_unique")]


class Job(models.Model):
    """A task that a commit implies (a bot turn, a clock check, a rating, a tournament advance), written in the
    same transaction as the events that imply it: the transactional outbox (`games.outbox`). A commit's jobs
    are handed to the broker after it; the periodic sweep hands again any not done by `resend_at`, so a broker
    outage or a killed worker delays a job but never loses it. `key` names the work (`bot:<game>:<version>`),
    so the same work is recorded once and a task that runs twice does it once."""

    key = models.CharField(max_length=120, unique=True)
    task = models.CharField(max_length=120)
    args = models.JSONField(default=list)
    queue = models.CharField(max_length=60, blank=True)  # the Celery queue; blank: the default one
    due_at = models.DateTimeField()  # not to run before (the broker's eta)
    resend_at = models.DateTimeField()  # handed again by the sweep if not done by then
    done_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=1)  # times handed to the broker
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["resend_at"], condition=models.Q(done_at__isnull=True), name="job_pending"),
            models.Index(fields=["done_at"], condition=models.Q(done_at__isnull=False), name="job_done"),
        ]

    def __str__(self) -> str:
        return self.key

