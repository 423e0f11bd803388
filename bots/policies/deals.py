"""Where a deal ends and what it was worth to each seat, per game: what the search bot's rollouts score.

Matches are long (several deals in one engine game), so a rollout stops at the end of the current deal
(hand, game of a patience match) and is scored by the seat's gain in that deal against the others'
mean. Each game says which event closes a deal and reads the per-seat score change from its data (the
shapes are those documented in `docs/rules/<kind>.md`); for games whose deals can run long (the two
patiences, Machiavelli) a rollout may be cut earlier and then estimated from the public view, in the same
units as the deal's score. A kind missing here is played to the end of the whole match and scored by
its result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.cards import FRENCH_VALUE

JSON = dict[str, Any]
#: Worth of a goal top that can be played at once, in goal cards (it is not played yet: not a whole card).
GOAL_FITS = 0.4
#: Patience rollouts stop when the seat's turn and the opponent's next one are over (two turn ends).
_TURN_ENDS = frozenset({"discard", "end_turn"})


@dataclass(frozen=True)
class DealScoring:
    """How one game's deals end and score.

    `gains(data)` reads the per-seat score change from the data of a closing event; `estimate(view)`
    guesses the same from a spectator view when a rollout is cut; scores are
    oriented so that more is better, and `scale` brings a typical gap between seats to about 1.
    """

    ends: frozenset[str]
    gains: Callable[[JSON], Sequence[float]]
    estimate: Callable[[JSON], Sequence[float]] | None
    scale: float
    max_steps: int  # a rollout is cut (and estimated) after this many actions
    cut_events: frozenset[str] = frozenset()  # ...or after `cut_after` events of these types (turn ends)
    cut_after: int = 0


def _by_seat(mapping: JSON) -> list[float]:
    return [float(mapping[str(seat)]) for seat in range(len(mapping))]


def _patience_estimate(view: JSON) -> list[float]:
    """Goal cards left (a blocked game goes to the smaller goal pile for the difference: the units of the
    final points), and a little for a goal top that fits a centre pile right now."""
    open_values = {1} | {pile["value"] + 1 for pile in view["centre"]}
    return [-float(player["goal_count"]) + GOAL_FITS * (FRENCH_VALUE.get(player["goal_top"]) in open_values)
            for player in view["players"]]


def _muscio_estimate(view: JSON) -> list[float]:
    # Scores fall towards zero: a participant loses one point per trick, or gains five with none.
    won = view["tricks_won"]
    return [(won[seat] or -5) if seat in view["participants"] else 0.0 for seat in range(view["players"])]


def _machiavelli_estimate(view: JSON) -> list[float]:
    # The deal settles on the cards each seat still holds.
    return [-float(count) * view["options"]["unit"] for count in view["hand_counts"]]


def _tarocchi_gains(data: JSON) -> list[float]:
    return _by_seat(data["summary"]["scores"] if "summary" in data else data["scores"])


SCORING: dict[str, DealScoring] = {
    "spite-and-malice": DealScoring(frozenset({"game_over"}), lambda data: _by_seat(data["points"]),
                                    _patience_estimate, scale=1.0, max_steps=60, cut_events=_TURN_ENDS, cut_after=2),
    "diavoletto": DealScoring(frozenset({"game_over"}), lambda data: _by_seat(data["points"]),
                              _patience_estimate, scale=1.0, max_steps=60, cut_events=_TURN_ENDS, cut_after=2),
    "muscio": DealScoring(frozenset({"hand_scored"}), lambda data: [-d for d in _by_seat(data["deltas"])],
                          _muscio_estimate, scale=4.0, max_steps=200),
    "tarocchi-mineo": DealScoring(frozenset({"deal_scored", "deal_annulled"}), _tarocchi_gains, None,
                                  scale=20.0, max_steps=400),
    "machiavelli": DealScoring(frozenset({"deal_end"}), lambda data: _by_seat(data["scores"]),
                               _machiavelli_estimate, scale=8.0, max_steps=80),
}


def relative(gains: Sequence[float], seat: int, scale: float) -> float:
    """The seat's gain minus the others' mean gain, in units of `scale`."""
    others = [gain for other, gain in enumerate(gains) if other != seat]
    mean = sum(others) / len(others) if others else 0.0
    return (gains[seat] - mean) / scale


def muscio_voids(view: JSON) -> dict[int, set[str]]:
    """Suits each seat has shown it lacks: it did not follow the suit led (then, playing no trump, it has
    none either), or, in the first two tricks with three or more players, it played face down (no trump)."""
    trump = view["trump"]
    many = len(view["participants"]) >= 3
    voids: dict[int, set[str]] = {}
    for number, plays in enumerate([trick["plays"] for trick in view["tricks"]] + [view["trick"]]):
        if many and number < 2:
            for seat, _, down in plays:
                if down:
                    voids.setdefault(seat, set()).add(trump)
            continue
        led = plays[0][1][-1] if plays else None
        for seat, card, _ in plays[1:]:
            if card[-1] != led:
                voids.setdefault(seat, set()).update({led} if card[-1] == trump else {led, trump})
    return voids


def muscio_check(view: JSON) -> Callable[[Any, Any], bool] | None:
    """A test that a sampled world respects the voids the play has shown (the engine's sampler ignores
    them), called as `check(engine, world)`; None when nothing is known."""
    voids = muscio_voids(view)
    if not voids:
        return None

    def check(engine: Any, world: Any) -> bool:
        hands = {seat: engine.view(world, seat)["my_hand"] for seat in voids}
        return not any(card[-1] in suits for seat, suits in voids.items() for card in hands[seat])

    return check


#: kind -> (view -> check(engine, world) or None): what a sampled world must also respect.
CONSTRAINTS: dict[str, Callable[[JSON], Callable[[Any, Any], bool] | None]] = {"muscio": muscio_check}
