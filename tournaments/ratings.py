"""Skill ratings per game kind: openskill's Plackett-Luce model, which rates any number of players by
their finishing places (ties allowed). Pure: it takes (mu, sigma) pairs and places, returns new pairs.

The number shown on leaderboards is the conservative `ordinal` = mu - 3 sigma, which starts at 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def rate(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """New skills of the seats of one game, from their places (1 = best, equal = tie)."""
    if len(skills) != len(ranks) or len(skills) < 2:
        raise ValueError("rate needs one place per seat and at least two seats")
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]
