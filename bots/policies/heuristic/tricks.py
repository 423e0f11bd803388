"""Trick-play judgement shared by the trick-taking heuristics (Muscio, Tarocchi): game-neutral.

A game module describes the trick at hand with a `power` function (taking power of a card, None when it
cannot win) and what it can infer from the view (`Inference`: unseen cards, hand sizes, known voids).
From that this module estimates who wins the trick so far and how likely a card is to hold against the
seats still to play, and picks the card with the best expected outcome for the seat's side: win cheaply,
play low when the trick is lost, don't overtake a partner who already holds it, give it points instead.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

#: Taking power of a card in the trick at hand (higher wins); None when it cannot win it.
Power = Callable[[str], "int | None"]
#: A play of a trick as (seat, card); card None for a card that cannot win and is not shown (face down).
PlaySeen = tuple[int, "str | None"]


def current_best(plays: Sequence[PlaySeen], power: Power) -> tuple[int | None, int | None]:
    """(seat, power) of the play winning the trick so far; (None, None) when no card played can win yet."""
    best_seat, best_key = None, None
    for seat, card in plays:
        key = None if card is None else power(card)
        if key is not None and (best_key is None or key > best_key):
            best_seat, best_key = seat, key
    return best_seat, best_key


def _beats(power: int | None, key: int) -> bool:
    return power is not None and power > key


def p_none(pool: int, special: int, drawn: int) -> float:
    """Chance that `drawn` cards taken at random from `pool` include none of `special` given ones."""
    if special <= 0 or drawn <= 0:
        return 1.0
    if special > pool - drawn:
        return 0.0
    chance = 1.0
    for i in range(drawn):
        chance *= (pool - special - i) / (pool - i)
    return chance


@dataclass(frozen=True)
class Inference:
    """What a seat can tell about the cards it does not see.

    `unseen`: cards that may lie in another seat's hand (or out of play, unseen). `counts`: cards in hand
    per seat. `voids`: suits a seat has shown it lacks. `known`: cards known to be in a seat's hand (they
    are not in `unseen`).
    """

    unseen: tuple[str, ...]
    counts: Mapping[int, int]
    suit_of: Callable[[str], str | None]
    trump: str | None
    voids: Mapping[int, frozenset[str]] = field(default_factory=dict)
    known: Mapping[int, tuple[str, ...]] = field(default_factory=dict)

    def beat_chance(self, seat: int, key: int, led: str | None, power: Power) -> float:
        """How likely `seat` holds a card it may play that beats `key` in a trick led with suit `led`.

        Simplification: a seat follows suit if it can (the usual duty), otherwise trumps if it can, and it
        beats whenever it is able to.
        """
        suit_of, trump = self.suit_of, self.trump
        voids = self.voids.get(seat, frozenset())
        known = self.known.get(seat, ())
        drawn = max(0, self.counts.get(seat, 0) - len(known))
        pool = len(self.unseen)
        same = [card for card in self.unseen if suit_of(card) == led]
        same_beaters = sum(1 for card in same if _beats(power(card), key))
        holds_led = any(suit_of(card) == led for card in known)
        void = 1.0 if led in voids else (0.0 if holds_led else p_none(pool, len(same), drawn))
        follows_and_beats = 0.0 if led in voids else 1.0 - p_none(pool, same_beaters, drawn)
        ruffs = 0.0
        if led != trump and trump is not None and trump not in voids:
            trump_beaters = sum(1 for card in self.unseen if suit_of(card) == trump and _beats(power(card), key))
            ruffs = 1.0 - p_none(pool - len(same), trump_beaters, drawn)
        chance = min(1.0, follows_and_beats + void * ruffs)
        for card in known:  # a card known to be there: certain when it follows, likely when it ruffs
            if _beats(power(card), key):
                chance = 1.0 if suit_of(card) == led else max(chance, void)
        return chance

    def hold_chance(self, key: int, led: str | None, threats: Iterable[int], power: Power) -> float:
        """How likely a card of power `key` stays the best against the `threats` still to play."""
        chance = 1.0
        for seat in threats:
            chance *= 1.0 - self.beat_chance(seat, key, led, power)
        return chance


def follow_or_trump_voids(tricks: Iterable[Sequence[PlaySeen]], led_of: Callable[[Sequence[PlaySeen]], str | None],
                          suit_of: Callable[[str], str | None], trump: str | None) -> dict[int, set[str]]:
    """Voids shown under the "follow suit, else trump" duty: who did not follow lacks the led suit, and who
    neither followed nor trumped lacks trumps too. Cards whose suit is None (an excuse) tell nothing."""
    voids: dict[int, set[str]] = {}
    for plays in tricks:
        led = led_of(plays)
        if led is None:
            continue
        started = False
        for seat, card in plays:
            suit = None if card is None else suit_of(card)
            if not started:
                started = suit == led
                continue
            if suit is None or suit == led:
                continue
            voids.setdefault(seat, set()).add(led)
            if led != trump and suit != trump and trump is not None:
                voids[seat].add(trump)
    return voids


@dataclass(frozen=True)
class Stakes:
    """What the cards are worth to the seat's side (all in the game's own units).

    `stake`: winning the trick with the cards already in it (and those still to come).
    `value(card)`: what the card adds to the trick, for whichever side takes it.
    `exposed(card)`: what the card costs beyond its value if the other side takes it (a captured honour).
    `keep(card)`: what the card is worth kept for later tricks (its future taking power).
    `loss_weight`: how much the other side's gain counts against us (1 when sides share the points, 0
    when everyone plays for himself and a trick lost is only a trick not won).
    """

    stake: float
    value: Callable[[str], float]
    exposed: Callable[[str], float]
    keep: Callable[[str], float]
    loss_weight: float = 1.0


def side_chance(card: str, plays: Sequence[PlaySeen], team: Collection[int], power: Power,
                hold: Callable[[str, int], float]) -> float:
    """How likely the seat's side takes the trick if the seat plays `card` now.

    `hold(card, key)` is the chance a card of power `key` is not beaten by the seats still to play.
    """
    seat, best = current_best(plays, power)
    partner_holds = 0.0
    if seat is not None and seat in team:
        best_card = next(c for s, c in plays if s == seat and c is not None and power(c) == best)
        partner_holds = hold(best_card, best)
    key = power(card)
    if key is not None and (best is None or key > best):
        return max(hold(card, key), partner_holds)
    return partner_holds


def utility(card: str, chance: float, stakes: Stakes) -> float:
    """Expected worth of playing `card` when the side takes the trick with probability `chance`."""
    value = stakes.value(card)
    won = chance * (stakes.stake + value)
    lost = (1.0 - chance) * (stakes.loss_weight * (stakes.stake + value) + stakes.exposed(card))
    return won - lost - stakes.keep(card)


def pick(legal: Sequence[str], plays: Sequence[PlaySeen], team: Collection[int], power: Power,
         hold: Callable[[str, int], float], stakes: Stakes) -> str:
    """The legal card with the best expected worth; ties go to the card worth least kept, then the weakest."""

    def score(card: str) -> tuple[float, float, int]:
        chance = side_chance(card, plays, team, power, hold)
        key = power(card)
        return utility(card, chance, stakes), -stakes.keep(card), -(key if key is not None else -1)

    return max(legal, key=score)


def behind(order: Sequence[int], me: int, played: int, total: int) -> list[int]:
    """The seats still to play after `me` in a trick of `total` plays of which `played` are down (mine not
    included); `order` lists the players of the trick in playing order around the table."""
    start = order.index(me)
    ring = [order[(start + k) % len(order)] for k in range(1, len(order))]
    return ring[: max(0, total - played - 1)]
