"""Tournaments (entrants, rounds, tables) and ratings.

These models belong to the `games` app (`app_label = "games"`): their tables (`games_tournament`, ...) and
migrations (`games/migrations`) predate the `tournaments` app and stay where they are; only the code moved.

A table is one game of a round (or a bye, without a game); its entrants are kept in seat order. Standings
are never stored: they are computed from the tables' games, so they cannot drift from the results.
"""

from __future__ import annotations

import uuid

from django.db import models


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin"
        SWISS = "swiss"
        KNOCKOUT = "knockout"
        DUPLICATE = "duplicate"

    class Status(models.TextChoices):
        REGISTERING = "registering"
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=32)
    format = models.CharField(max_length=16, choices=Format.choices)
    options = models.JSONField(default=dict, blank=True)
    table_size = models.PositiveSmallIntegerField()
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)  # null until start: chosen by the format
    turn_seconds = models.PositiveIntegerField(null=True, blank=True)
    # Secret until the tournament ends: every game's seed is derived from it.
    seed = models.CharField(max_length=128)
    # True when the organiser chose the seed: then only bots may enter (a person's deal would be known).
    seed_chosen = models.BooleanField(default=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTERING, db_index=True)
    organiser = models.ForeignKey("games.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    current_round = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "games"
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.format} {self.kind})"


class Entrant(models.Model):
    """A registered player or a bot; `number` is the registration order, which is also the seeding."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey("games.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    bot = models.CharField(max_length=32, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="entrant_number_unique"),
            models.UniqueConstraint(fields=["tournament", "player"], condition=models.Q(player__isnull=False),
                                    name="entrant_player_unique"),
        ]

    @property
    def name(self) -> str:
        return self.player.name if self.player_id else f"{self.bot}#{self.number}"

    def seat_spec(self) -> dict:
        return {"player": self.player_id} if self.player_id else {"bot": self.bot}


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    advance = models.PositiveSmallIntegerField(default=1)  # knockout: how many go through from each table

    class Meta:
        app_label = "games"
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")]


class TournamentTable(models.Model):
    """One game of a round, or a bye (no game, one entrant)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    entrants = models.JSONField()  # entrant ids in seat order
    game = models.OneToOneField("games.Game", null=True, blank=True, on_delete=models.PROTECT,
                                related_name="tournament_table")
    advanced = models.JSONField(default=list, blank=True)  # knockout: entrant ids who went through

    class Meta:
        app_label = "games"
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_number_unique")]


class Rating(models.Model):
    """A player's current skill at one kind of game (openskill Plackett-Luce)."""

    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)  # mu - 3 sigma: what leaderboards sort by
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "games"
        constraints = [models.UniqueConstraint(fields=["player", "kind"], name="rating_player_kind_unique")]


class RatingChange(models.Model):
    """What one rated game did to one player's rating. One per (game, player): a game is rated once."""

    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="rating_changes")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    kind = models.CharField(max_length=32)
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="rating_change_once")]
