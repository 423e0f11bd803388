"""A finished game's `result` read as places: who finished where, ties shared.

Engines report `winners` and per-seat `scores`, but not which way scores count (Muscio counts down to
zero, Machiavelli and Spite and Malice count up). The winners tell: if they hold the highest scores,
higher is better; if the lowest, lower is. Winners share first place; the others are ranked by score in
that direction, or share the next place when the direction cannot be told.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Places:
    ranks: tuple[int, ...]  # per seat, 1 = best; equal ranks are ties (competition ranking: 1, 1, 3)
    scores: tuple[float, ...] | None  # per seat, when every seat has a numeric score
    direction: int  # +1 higher scores are better, -1 lower are better, 0 unknown


def places(result: Mapping[str, Any] | None, seats: int) -> Places:
    """Places of a game's `result`; no result (an aborted game) is a tie between everybody."""
    if not result:
        return Places((1,) * seats, None, 0)
    winners = {w for w in result.get("winners") or () if isinstance(w, int) and 0 <= w < seats}
    raw = result.get("scores") or {}
    scores = _numeric_scores(raw, seats)
    direction = _direction(winners, scores)
    if not winners or len(winners) == seats:
        return Places((1,) * seats, scores, direction)
    if direction == 0 or scores is None:
        return Places(tuple(1 if s in winners else len(winners) + 1 for s in range(seats)), scores, direction)
    keys = [(0 if s in winners else 1, -direction * scores[s]) for s in range(seats)]
    return Places(competition_ranks(keys), scores, direction)


def competition_ranks(keys: Sequence[Any]) -> tuple[int, ...]:
    """1-based ranks of `keys` (smaller is better), equal keys sharing the better rank: 1, 1, 3."""
    return tuple(1 + sum(1 for other in keys if other < key) for key in keys)


def _numeric_scores(raw: Any, seats: int) -> tuple[float, ...] | None:
    if isinstance(raw, Mapping):
        values = [raw.get(str(s), raw.get(s)) for s in range(seats)]
    elif isinstance(raw, Sequence) and not isinstance(raw, str) and len(raw) == seats:
        values = list(raw)
    else:
        return None
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return tuple(float(v) for v in values)
    return None


def _direction(winners: set[int], scores: tuple[float, ...] | None) -> int:
    if scores is None or not winners or len(winners) == len(scores):
        return 0
    won = [scores[s] for s in winners]
    lost = [scores[s] for s in range(len(scores)) if s not in winners]
    if min(won) > max(lost):
        return 1
    if max(won) < min(lost):
        return -1
    return 0
