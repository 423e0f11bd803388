"""Tarocchi Siciliani (Mineo) by rules of thumb: bid from hand strength, bank points in the discard, play
for the side.

Bidding weighs the high trumps (Giove above all), the count of trumps, the Kings and the Fuggitivo. The
discard banks counting cards and voids a short suit. The scommessa is bet only holding Giove, the
Fuggitivo and the Picciotti with a long trump suit; the rivanto only holding Giove, kept for the last
trick. In play the side is known as far as the view tells (a secret partner counts as a possible enemy),
and the shared trick judgement (`tricks.pick`) wins tricks with cards likely to hold, loads a partner's
safe trick with points, throws scartine on lost tricks and lets the Fuggitivo save a counting card.
Card points and game points (jochi) are put on one scale: a joco is worth `JOCO` card points.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from functools import cached_property, partial
from typing import Any

from bots.policies.heuristic.tricks import Inference, Power, Stakes, behind, follow_or_trump_voids, p_none, pick
from games.engine.protocol import JSON, Action, Engine
from games.rules.tarocchi_mineo.cards import (
    CALLABLE,
    DECK,
    FUG,
    KINGS,
    PIGLIATA_CARDS,
    STRENGTH,
    SUIT_OF,
    SUITS,
    TRUMP,
    UNDISCARDABLE,
    VALUE,
)
from games.rules.tarocchi_mineo.rules import RULES_VERSIONS, card_power, undiscardable

PLAYERS = 4
TRICKS = 15
#: A game point (joco) in card points: a captured Aria, the last trick, a won bet.
JOCO = 15.0
#: The last trick's own bonus in card points.
LAST_TRICK = 5.0
#: Card points a player still to play is expected to add to a trick.
PER_PLAYER = 0.5
#: A trick's worth when a strong card is saved for later (card points).
LATER_TRICK = 11.0
#: A trump kept can ruff a suit the seat lacks.
RUFF = 3.0
#: Share of a capturable card's loss counted while it is still in hand (it may find a safe trick).
RISK = 0.5
#: The Fuggitivo kept: an escape for a later trick; with this many cards left it is better gone (held to the
#: end it would be the seat's last card, unable to fight for the last trick).
FUG_KEEP = 4.0
FUG_UNTIL = 4
#: Weak suit cards from long suits are a little more worth keeping than from short ones (voids ruff).
LENGTH = 0.1

#: Bidding weights: the high trumps, other trumps, Kings, Queens and the Fuggitivo.
WEIGHT = {"T20": 4.0, "T19": 3.0, "T18": 2.5, "T17": 2.0, "T16": 1.8, "T1": 1.0, "T0": 0.5, FUG: 1.5}
MIDDLE_TRUMP, LOW_TRUMP, KING, QUEEN, VOID = 1.0, 0.8, 1.5, 0.4, 0.5
CALL_AT = 5.0  # the declaring side has the monte and the discard, and the caller picks the best partner
SOLO_AT = 16.0
STATA_AT = 11.0  # on five cards only: Giove with two Arie and the Fuggitivo or so
SCOMMESSA_TRUMPS = 10
#: Discard: a suit emptied is worth this much (its leads can then be ruffed).
VOID_DISCARD = 3.0


def _suit(card: str) -> str | None:
    return None if card == FUG else SUIT_OF[card]


def _power_for(led: str | None):
    """Taking power with `led` led (the rules' `card_power`): trumps above everything, the led suit by rank,
    nothing else."""
    return lambda card: card_power(card, led)


def _lead_power(card: str) -> int | None:
    """Power of a card that leads its own suit."""
    return card_power(card, SUIT_OF[card])


def points(card: str) -> float:
    """Card points a card brings to its side's pile (counted by thirds: v − 2/3, a scartina 1/3)."""
    if card == FUG:
        return 0.0
    value = VALUE.get(card)
    return value - 2 / 3 if value else 1 / 3


# -- bidding -------------------------------------------------------------------------------------------
def _card_weight(card: str) -> float:
    if card in WEIGHT:
        return WEIGHT[card]
    if card in KINGS:
        return KING
    if SUIT_OF[card] == TRUMP:
        return MIDDLE_TRUMP if STRENGTH[card] >= 111 else LOW_TRUMP
    return QUEEN if card[0] == "Q" else 0.0


def strength(hand: list[str] | tuple[str, ...]) -> float:
    """A hand's worth for bidding: weighted high cards plus a little for every void suit."""
    voids = sum(1 for suit in SUITS if not any(SUIT_OF[card] == suit for card in hand))
    return sum(_card_weight(card) for card in hand) + VOID * voids


def _bid(view: JSON, legal: list[Action]) -> Action:
    words = {action["type"]: action for action in legal}
    hand = view["hand"]
    value = strength(hand)
    if view["phase"] == "stata":
        return words["solo" if value >= STATA_AT else "pass"]
    if "solo" in words and value >= SOLO_AT:
        return words["solo"]
    if "call" in words and value >= CALL_AT:
        return words["call"]
    return words["pass"]


def _discard(view: JSON, legal: list[Action]) -> Action:
    length = Counter(SUIT_OF[card] for card in view["hand"])

    def score(cards: list[str]) -> float:
        # A suit is emptied when all its cards in hand go (counted, not searched: the search's rollouts
        # score dozens of discards per deal).
        banked = sum(VALUE.get(card, 0) for card in cards)
        thrown = Counter(SUIT_OF[card] for card in cards)
        emptied = sum(1 for suit, count in thrown.items() if suit in SUITS and count == length[suit])
        trumps = sum(2 * _card_weight(card) for card in cards if SUIT_OF[card] == TRUMP)
        return banked + VOID_DISCARD * emptied - trumps

    return max(legal, key=lambda action: score(action["cards"]))


def _commit(view: JSON, seat: int, legal: list[Action]) -> Action:
    words = {action["type"]: action for action in legal}
    hand = view["hand"]
    if "scommessa" in words:
        trumps = sum(1 for card in hand if SUIT_OF[card] == TRUMP)
        bet = "T1" in hand and trumps >= SCOMMESSA_TRUMPS
        return words["scommessa" if bet else "no_scommessa"]
    if "rivanto" in words and "T20" in hand:
        return words["rivanto"]
    return words.get("no_rivanto") or words.get("no_scommessa") or legal[0]


# -- what the seat knows in play -----------------------------------------------------------------------
def team_of(view: JSON, seat: int) -> frozenset[int]:
    """The seats known to be on `seat`'s side (itself included); a secret partner is not among them."""
    declarer, contract, partner = view["declarer"], view["contract"], view["partner"]
    everyone = frozenset(range(PLAYERS))
    if declarer is None:
        return frozenset({seat})
    if contract == "call":
        if partner is None:
            return frozenset({seat})
        declarers = frozenset({declarer, partner})
    else:
        declarers = frozenset({declarer})
    return declarers if seat in declarers else everyone - declarers


def _led(plays) -> str | None:
    for _, card in plays:
        if card != FUG:
            return SUIT_OF[card]
    return None


def _known_holdings(view: JSON, seat: int, gone: set[str], rules_version: int) -> dict[int, set[str]]:
    """Cards the table can place in a hand: the declarer's shown monte honours (the cards the game's rules
    version never lets a discard hold: from version 2 the Fuggitivo may have been discarded), Giove of a forced
    caller or a bettor, the trumps above the called card (the caller held them all), the called card of a
    known partner."""
    known: dict[int, set[str]] = {}
    declarer = view["declarer"]
    if declarer is not None:
        mine = known.setdefault(declarer, set())
        mine.update(card for card in view["monte"] if undiscardable(card, rules_version))
        if (declarer, "scommessa") in {tuple(commit) for commit in view["commits"]}:
            mine.update(("T20", FUG))
        if view["forced"]:
            mine.add("T20")
    call = view["call"]
    if call:
        caller, called = call
        above = CALLABLE[: CALLABLE.index(called)]
        # A declaring caller may have discarded low trumps (never an Aria), a caller overridden holds all.
        known.setdefault(caller, set()).update(c for c in above if caller != declarer or c in UNDISCARDABLE)
    partner, called = view["partner"], view["called"]
    if partner is not None and called:
        known.setdefault(partner, set()).add(called)
    return {s: cards - gone for s, cards in known.items() if s != seat and cards - gone}


class _Inference(Inference):
    """`Inference` with the unseen cards counted once per suit: the same chances, several times faster.

    This module always asks with the power of the suit in question (`_power_for(led)`), under which a
    card's power depends on the card alone, so the beaters of a key are a bisection away. The search
    bot's rollouts call this heuristic thousands of times per decision.
    """

    @cached_property
    def _powers(self) -> dict[str, list[int]]:
        by_suit: dict[str, list[int]] = {}
        for card in self.unseen:
            suit = _suit(card)
            if suit is not None:
                by_suit.setdefault(suit, []).append(_power_for(suit)(card))
        return {suit: sorted(powers) for suit, powers in by_suit.items()}

    def _count(self, suit: str, key: int) -> tuple[int, int]:
        """(unseen cards of `suit`, those of them above `key`)."""
        powers = self._powers.get(suit, [])
        return len(powers), len(powers) - bisect_right(powers, key)

    def beat_chance(self, seat: int, key: int, led: str | None, power: Power) -> float:
        """As `Inference.beat_chance` (same formula, same order of operations), counted by bisection."""
        if led is None:
            return super().beat_chance(seat, key, led, power)
        voids = self.voids.get(seat, frozenset())
        known = self.known.get(seat, ())
        drawn = max(0, self.counts.get(seat, 0) - len(known))
        pool = len(self.unseen)
        same, same_beaters = self._count(led, key)
        holds_led = any(_suit(card) == led for card in known)
        void = 1.0 if led in voids else (0.0 if holds_led else p_none(pool, same, drawn))
        follows_and_beats = 0.0 if led in voids else 1.0 - p_none(pool, same_beaters, drawn)
        ruffs = 0.0
        if led != TRUMP and TRUMP not in voids:
            ruffs = 1.0 - p_none(pool - same, self._count(TRUMP, key)[1], drawn)
        chance = min(1.0, follows_and_beats + void * ruffs)
        for card in known:  # a card known to be there: certain when it follows, likely when it ruffs
            beats = power(card)
            if beats is not None and beats > key:
                chance = 1.0 if _suit(card) == led else max(chance, void)
        return chance


def inference(view: JSON, seat: int, rules_version: int = max(RULES_VERSIONS)) -> Inference:
    """Unseen cards, hand sizes, shown voids and placed cards of the deal in play."""
    rounds = [plays for _, plays, _ in view["tricks"]] + [view["trick"]]
    played = {card for plays in rounds for _, card in plays}
    gone = played | set(view["hand"]) | set(view["discard"] or ())
    known = _known_holdings(view, seat, gone, rules_version)
    placed = set().union(*known.values()) if known else set()
    unseen = tuple(card for card in DECK if card not in gone and card not in placed)
    counts = {s: n for s, n in enumerate(view["hand_counts"]) if s != seat}
    voids = follow_or_trump_voids(rounds, _led, _suit, TRUMP)
    return _Inference(unseen, counts, _suit, TRUMP, {s: frozenset(v) for s, v in voids.items()},
                     {s: tuple(cards) for s, cards in known.items()})


def _bet_on(view: JSON, word: str) -> int | None:
    return next((s for s, said in view["commits"] if said == word), None)


def _play(view: JSON, seat: int, legal: list[Action], rules_version: int) -> Action:
    hand = list(view["hand"])
    cards = [action["card"] for action in legal]
    plays = list(view["trick"])
    led = _led(plays)
    power = _power_for(led) if led else _lead_power
    team = team_of(view, seat)
    declarers = team_of(view, view["declarer"])
    scommessa = _bet_on(view, "scommessa") is not None
    facts = inference(view, seat, rules_version)
    others = [s for s in range(PLAYERS) if s not in team]
    threats = [s for s in behind(range(PLAYERS), seat, len(plays), PLAYERS) if s not in team]
    last = len(view["tricks"]) == TRICKS - 1

    def hold(card: str, key: int) -> float:
        suit = led or _suit(card)
        return facts.hold_chance(key, suit, threats, _power_for(suit))

    def capture(card: str, owner: int) -> float:
        """Game points at stake when `card` of `owner` goes to the other side: Pigliata, the scommessa."""
        if card not in PIGLIATA_CARDS:
            return 0.0
        bet = JOCO if scommessa and card == "T1" and (owner in declarers) else 0.0
        return JOCO + bet

    def enemy(owner: int) -> float:
        """Chance that `owner` is on the other side (a secret partner may be any of the unknown seats)."""
        if owner in team:
            return 0.0
        if view["contract"] != "call" or view["partner"] is not None or owner == view["declarer"]:
            return 1.0
        return 2 / 3 if seat == view["declarer"] else 1 / 2

    stake = sum(points(card) for _, card in plays)
    stake += sum(enemy(owner) * capture(card, owner) for owner, card in plays)
    stake += PER_PLAYER * (PLAYERS - 1 - len(plays))
    if last:
        stake += LAST_TRICK + JOCO + (JOCO if _bet_on(view, "rivanto") is not None else 0.0)

    def keep(card: str) -> float:
        if last:
            return 0.0
        if card == FUG:
            return FUG_KEEP if len(hand) > FUG_UNTIL else -FUG_KEEP
        if card == "T20":
            return points(card) + LAST_TRICK + JOCO + LATER_TRICK
        suit = _suit(card)
        chance = facts.hold_chance(_power_for(suit)(card), suit, others, _power_for(suit))
        value = points(card)
        worth = chance * (LATER_TRICK + value) - (1 - chance) * (value + capture(card, seat)) * RISK
        if suit == TRUMP:
            return max(worth, RUFF) if card not in PIGLIATA_CARDS else worth + RUFF
        return worth + LENGTH * sum(1 for c in hand if SUIT_OF.get(c) == suit)

    keeps = {card: keep(card) for card in cards}
    stakes = Stakes(stake, points, lambda card: capture(card, seat), keeps.__getitem__)
    choice = pick(cards, plays, team, power, hold, stakes)
    return next(action for action in legal if action["card"] == choice)


def choose_for(engine: Engine):
    """`choose` for the game's rules version (what a discard may hold differs between versions)."""
    return partial(choose, rules_version=engine.rules_version)


def choose(view: JSON, seat: int, legal_actions: list[Action], rng: random.Random,
           rules_version: int = max(RULES_VERSIONS)) -> Action:
    if len(legal_actions) == 1:
        return legal_actions[0]
    phase = view["phase"]
    handlers: dict[str, Any] = {
        "stata": lambda: _bid(view, legal_actions),
        "auction": lambda: _bid(view, legal_actions),
        "discard": lambda: _discard(view, legal_actions),
        "commit": lambda: _commit(view, seat, legal_actions),
        "play": lambda: _play(view, seat, legal_actions, rules_version),
    }
    handler = handlers.get(phase)
    return handler() if handler else legal_actions[0]
