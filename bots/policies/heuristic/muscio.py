"""Muscio by rules of thumb: declare from trump strength, take the turn-up when it helps, win tricks cheaply.

Every player is on his own and every trick is worth a point (the first one six: a participant without a
trick pays 5), so the bot values a hand by the tricks its cards can take against the likely number of
opponents (a trump is worth at least a ruff), plays when that beats passing, or the unseen blinde when an
average hand beats its own; the dealer gives up the card that helps least for the turn-up (or keeps a gatta);
with two participants it concedes only a hopeless hand. In play (the shared `tricks.pick`) it leads and
follows with the card most likely to hold, wins with the cheapest such card, and on a lost trick throws
the card least likely to win later (a face-down card in tricks 1-2 is simply lost).
"""

from __future__ import annotations

import random
from typing import Any

from bots.policies.heuristic.tricks import Inference, Stakes, behind, follow_or_trump_voids, pick
from games.engine.protocol import JSON, Action
from games.rules.muscio.rules import EARLY_TRICKS, card_power
from games.rules.muscio.state import CANONICAL

TRICKS = 5
NO_TRICK = 5  # what a participant without a trick pays
#: Chance that a seat still to speak joins the hand (used while the declarations are not over).
JOIN_CHANCE = 0.6
#: How much of a card's future taking power counts when spending it now (the future is less sure).
FUTURE = 0.8
#: A trump kept in hand can ruff a suit the seat lacks: the least it is worth kept, as a chance of a trick.
RUFF = 0.3
#: Play when the hand's expected cost is below this (passing costs 0).
PLAY_BELOW = 0.0
#: Concede the hand with two participants only when playing is expected to cost more than this.
FORFEIT_MARGIN = 1.5
BLINDE_SAMPLES = 40


def _suit(card: str) -> str:
    return card[1]


def _power_for(led: str | None, trump: str):
    """Taking power with `led` led (the rules' `card_power`): trumps above everything, the led suit by rank,
    other cards nothing."""
    return lambda card: card_power(card, led, trump)


def _lead_power(trump: str):
    """Power of a card that leads its own suit."""
    return lambda card: card_power(card, card[1], trump)


def _trumps_only(trump: str):
    """Tricks 1-2 with three or more participants: only a face-up trump can win."""
    return lambda card: card_power(card, None, trump)


# -- valuing a hand ------------------------------------------------------------------------------------
def card_chance(card: str, inference: Inference, opponents: list[int]) -> float:
    """How likely `card`, led, takes a trick against `opponents`; a trump is also worth a ruff."""
    trump = inference.trump
    led = _suit(card)
    power = _power_for(led, trump)
    chance = inference.hold_chance(power(card), led, opponents, power)
    return max(chance, RUFF) if led == trump else chance


class Valuer:
    """Values five-card hands against `opponents` likely rivals, the unknown cards being `unseen`."""

    def __init__(self, trump: str, unseen: tuple[str, ...], opponents: float) -> None:
        self.trump = trump
        self.seats = list(range(1, max(1, round(opponents)) + 1))
        self.inference = Inference(unseen, dict.fromkeys(self.seats, TRICKS), _suit, trump)
        self.chances: dict[str, float] = {}

    def chance(self, card: str) -> float:
        if card not in self.chances:
            self.chances[card] = card_chance(card, self.inference, self.seats)
        return self.chances[card]

    def cost(self, hand: list[str], dealt_trumps: bool = False) -> float:
        """Expected change of score playing `hand` (negative is good): −tricks, or +5 without a trick;
        minus the gatta's value when the hand is one."""
        gatta = gatta_value(hand, self.trump, dealt_trumps)
        if gatta:
            return -gatta
        chances = [self.chance(card) for card in hand]
        none = 1.0
        for chance in chances:
            none *= 1.0 - chance
        return -min(float(TRICKS), sum(chances)) + NO_TRICK * none


def gatta_value(hand: list[str], trump: str, dealer_dealt_trumps: bool = False) -> int:
    """What a five-card flush scores for its holder (0 when the hand is no gatta)."""
    if len(hand) != TRICKS or len({_suit(card) for card in hand}) != 1:
        return 0
    if _suit(hand[0]) != trump:
        return 5
    return 15 if dealer_dealt_trumps else 10


def _valuer(view: JSON, seat: int, opponents: float | None = None) -> Valuer:
    known = set(view["my_hand"]) | set(view["my_out_of_play"] or ()) | {view["turn_up"]}
    unseen = tuple(card for card in CANONICAL if card not in known)
    return Valuer(view["trump"], unseen, _opponents_expected(view, seat) if opponents is None else opponents)


def _best_exchange(view: JSON, valuer: Valuer) -> tuple[str | None, float]:
    """The card to give up for the turn-up (None: keep the hand) and the cost of the hand kept."""
    hand, trump, turnup = list(view["my_hand"]), view["trump"], view["turn_up"]
    dealt_trumps = all(_suit(card) == trump for card in hand)
    best: tuple[str | None, float] = (None, valuer.cost(hand, dealt_trumps))
    for card in hand:
        option = valuer.cost([c for c in hand if c != card] + [turnup], dealt_trumps)
        if option < best[1] - 1e-9:
            best = (card, option)
    return best


def _opponents_expected(view: JSON, seat: int) -> float:
    """Participants other than `seat`: those who declared to play, plus a share of those still to speak."""
    players, dealer = view["players"], view["dealer"]
    if view["participants"]:
        return float(len(view["participants"]) - 1)
    joined = sum(1 for s, word in enumerate(view["declarations"]) if s != seat and word in ("play", "play_blinde"))
    to_speak = (dealer - seat) % players
    return joined + JOIN_CHANCE * to_speak


# -- declarations, exchange, forfeit -------------------------------------------------------------------
def _declare(view: JSON, seat: int, legal: list[Action], rng: random.Random) -> Action:
    words = {action["type"]: action for action in legal}
    valuer = _valuer(view, seat)
    dealer = seat == view["dealer"]
    own = _best_exchange(view, valuer)[1] if dealer else valuer.cost(list(view["my_hand"]))
    options = {"play": own}
    if "play_blinde" in words:
        unseen = valuer.inference.unseen
        samples = [rng.sample(unseen, TRICKS) for _ in range(BLINDE_SAMPLES)]
        options["play_blinde"] = sum(valuer.cost(sample) for sample in samples) / BLINDE_SAMPLES
    if "pass" in words:
        options["pass"] = PLAY_BELOW
    return words[min(options, key=options.__getitem__)]


def _exchange(view: JSON, seat: int, legal: list[Action]) -> Action:
    card, _ = _best_exchange(view, _valuer(view, seat))
    if card is None:
        return next(a for a in legal if a["type"] == "no_exchange")
    return next(a for a in legal if a.get("card") == card)


def _forfeit(view: JSON, seat: int, legal: list[Action]) -> Action:
    cost = _valuer(view, seat, 1).cost(list(view["my_hand"]))
    word = "forfeit" if cost > FORFEIT_MARGIN else "no_forfeit"
    return next(a for a in legal if a["type"] == word)


# -- play ----------------------------------------------------------------------------------------------
def _early_many(view: JSON) -> bool:
    """Tricks 1-2 with three or more participants: trumps compulsory, others face down."""
    return len(view["participants"]) > 2 and len(view["tricks"]) < EARLY_TRICKS


def _led(plays: list[list[Any]], early_many: bool, trump: str) -> str | None:
    if not plays:
        return None
    if early_many:
        return trump
    return _suit(plays[0][1])


def inference(view: JSON, seat: int) -> Inference:
    """The unseen cards, hand sizes and shown voids of the hand in play."""
    trump = view["trump"]
    played = [play for trick in view["tricks"] for play in trick["plays"]] + list(view["trick"])
    known_cards = set(view["my_hand"]) | set(view["my_out_of_play"]) | {view["turn_up"]}
    known_cards.update(card for _, card, _ in played if card is not None)
    unseen = tuple(card for card in CANONICAL if card not in known_cards)
    counts = {s: n for s, n in enumerate(view["hand_counts"]) if s != seat}
    voids: dict[int, set[str]] = {}
    many = len(view["participants"]) > 2
    normal = []
    for number, plays in enumerate([t["plays"] for t in view["tricks"]] + [view["trick"]]):
        if many and number < 2:
            for s, _, down in plays:
                if down:
                    voids.setdefault(s, set()).add(trump)
        else:
            normal.append([(s, card) for s, card, _ in plays])
    for s, suits in follow_or_trump_voids(normal, lambda p: _suit(p[0][1]) if p else None, _suit, trump).items():
        voids.setdefault(s, set()).update(suits)
    known: dict[int, tuple[str, ...]] = {}
    turnup, dealer = view["turn_up"], view["dealer"]
    if view["turn_up_taken"] and dealer != seat and turnup not in {card for _, card, _ in played}:
        known[dealer] = (turnup,)
    return Inference(unseen, counts, _suit, trump, {s: frozenset(v) for s, v in voids.items()}, known)


def _play(view: JSON, seat: int, legal: list[Action]) -> Action:
    trump = view["trump"]
    cards = [action["card"] for action in legal]
    plays = [(s, None if down else card) for s, card, down in view["trick"]]
    early_many = _early_many(view)
    led = _led(view["trick"], early_many, trump)
    if early_many:
        power = _trumps_only(trump)
    elif led is None:
        power = _lead_power(trump)
    else:
        power = _power_for(led, trump)
    facts = inference(view, seat)
    participants = list(view["participants"])
    threats = behind(participants, seat, len(plays), len(participants))
    others = [s for s in participants if s != seat]

    def hold(card: str, key: int) -> float:
        suit = led or (trump if early_many else _suit(card))
        return facts.hold_chance(key, suit, threats, _power_for(suit, trump))

    won = view["tricks_won"][seat]
    stake = 1.0 + (NO_TRICK if won == 0 else 0.0)
    keeps = {card: card_chance(card, facts, others) * stake * FUTURE for card in view["my_hand"]}
    stakes = Stakes(stake, lambda card: 0.0, lambda card: 0.0, keeps.__getitem__, loss_weight=0.0)
    choice = pick(cards, plays, {seat}, power, hold, stakes)
    return next(action for action in legal if action["card"] == choice)


def choose(view: JSON, seat: int, legal_actions: list[Action], rng: random.Random) -> Action:
    phase = view["phase"]
    if len(legal_actions) == 1:
        return legal_actions[0]
    if phase == "declare":
        return _declare(view, seat, legal_actions, rng)
    if phase == "exchange":
        return _exchange(view, seat, legal_actions)
    if phase == "forfeit":
        return _forfeit(view, seat, legal_actions)
    if phase == "play":
        return _play(view, seat, legal_actions)
    return legal_actions[0]
