"""Determinisation: a full state consistent with everything one seat knows (for search bots and tests).

The unknown cards are placed in the unknown zones (other hands, the undealt stock, the declarer's
discard) under the constraints the table can deduce: suits a player showed void in, the dealer's peek
at the bottom card, the called card (the caller lacked it and held every higher trump), the secret
partner (the called card is in a hand other than the caller's and the rivanto player's), the holder of
Giove in a forced call, the scommessa (Giove and the Fuggitivo in the declarer's hand), the monte
(shown, so in the declarer's hand or discard) and the discard rules. A randomised greedy placement is
completed by augmenting paths (capacitated bipartite matching), so a placement is always found.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .cards import CALLABLE, DECK, DISCARDABLE_TRUMPS, FUG, SUIT_OF, TRUMP, sort_cards
from .rules import discard_plain, undiscardable
from .state import AUCTION, NOBODY, PLAYERS, STATA, Deal, Match, State

STOCK, DISCARD_ZONE = "stock", "discard"


def _voids(rounds) -> list[set[str]]:
    """Suits (and "T") each seat is known to lack, from the cards it could not follow with."""
    voids: list[set[str]] = [set() for _ in range(PLAYERS)]
    for plays in rounds:
        led = None
        for seat, card in plays:
            if card == FUG:
                continue
            suit = SUIT_OF[card]
            if led is None:
                led = suit
            elif suit != led:
                voids[seat].add(led)
                if led != TRUMP and suit != TRUMP:
                    voids[seat].add(TRUMP)
    return voids


def _assign(cards: list[str], allowed: dict[str, list], capacity: dict, rng: random.Random) -> dict | None:
    """Place every card in an allowed zone within capacities, or None when impossible."""
    content: dict[Any, list[str]] = {zone: [] for zone in capacity}

    def place(card: str, visited: set) -> bool:
        zones = list(allowed[card])
        rng.shuffle(zones)
        for zone in zones:
            if zone not in visited and len(content[zone]) < capacity[zone]:
                content[zone].append(card)
                return True
        for zone in zones:
            if zone in visited:
                continue
            visited.add(zone)
            for other in list(content[zone]):
                if place(other, visited):
                    content[zone].remove(other)
                    content[zone].append(card)
                    return True
        return False

    order = list(cards)
    rng.shuffle(order)
    order.sort(key=lambda card: len(allowed[card]))
    for card in order:
        free = [z for z in allowed[card] if len(content[z]) < capacity[z]]
        if free:
            weights = [capacity[z] - len(content[z]) for z in free]
            content[rng.choices(free, weights)[0]].append(card)
        elif not place(card, set()):
            return None
    return content


def _constraints(view: dict[str, Any], unknown: list[str], zones: list, played: set[str], plays_by: list,
                 trump_discard: bool, rules_version: int) -> dict[str, list]:
    allowed = {card: set(zones) for card in unknown}
    declarer = view["declarer"]
    hand_zone = [("h", s) for s in range(PLAYERS)]

    def restrict(card: str, keep: set) -> None:
        if card in allowed:
            allowed[card] &= keep

    def forbid(card: str, zone) -> None:
        if card in allowed:
            allowed[card].discard(zone)

    for seat, suits in enumerate(_voids(plays_by)):
        for card in unknown:
            if SUIT_OF[card] in suits:
                allowed[card].discard(hand_zone[seat])
    if DISCARD_ZONE in zones:
        for card in unknown:
            ok = discard_plain(card, rules_version) or trump_discard and card in DISCARDABLE_TRUMPS
            if not ok or undiscardable(card, rules_version):
                allowed[card].discard(DISCARD_ZONE)
            if trump_discard and discard_plain(card, rules_version):
                allowed[card].discard(hand_zone[declarer])
    own = {hand_zone[declarer], DISCARD_ZONE} if declarer is not None else set()
    for card in view["monte"]:
        if view["stock_count"] == 0:  # taken by the declarer (not an annulled deal)
            restrict(card, own)
    holders_known = view["partner"] is not None
    rivanto = [seat for seat, word in view["commits"] if word == "rivanto"]
    infos = []
    if view["call"] is not None:
        infos.append(tuple(view["call"]))
    if view["forced"] and view["called"] is not None:
        infos.append((declarer, view["called"]))
    for caller, card in infos:
        mine = {hand_zone[caller]} | ({DISCARD_ZONE} if caller == declarer else set())
        for higher in CALLABLE[: CALLABLE.index(card)]:
            restrict(higher, mine)
        if card not in view["monte"]:
            for zone in mine:
                forbid(card, zone)
        if view["contract"] == "call" and not holders_known and card not in played:
            restrict(card, {hand_zone[s] for s in range(PLAYERS) if s != caller and s not in rivanto})
    if view["forced"]:
        restrict("T20", {hand_zone[declarer]})
    if (declarer, "scommessa") in [tuple(c) for c in view["commits"]]:
        restrict("T20", {hand_zone[declarer]})
        restrict(FUG, {hand_zone[declarer]})
    return {card: sorted(zones_, key=str) for card, zones_ in allowed.items()}


def sample_state(view: dict[str, Any], viewer: int | None, rng: random.Random, rules_version: int) -> State:
    """A full state consistent with `view` and the discard rule of `rules_version`."""
    dealer = NOBODY if view["dealer"] is None else view["dealer"]
    match = Match(view["deals"], view["deal"], dealer, tuple(view["scores"]), tuple(view["history"]))
    tricks = tuple((leader, tuple((s, c) for s, c in plays), winner) for leader, plays, winner in view["tricks"])
    trick = tuple((s, c) for s, c in view["trick"])
    plays_by = [plays for _, plays, _ in tricks] + [trick]
    played = [card for plays in plays_by for _, card in plays]
    counts = view["hand_counts"]
    stock_count, discard_count = view["stock_count"], view["discard_count"]
    monte = tuple(view["monte"])
    known = Counter(played)
    hands: list[tuple[str, ...] | None] = [None] * PLAYERS
    if viewer is not None:
        hands[viewer] = tuple(view["hand"])
        known.update(view["hand"])
    stock_known = monte if monte and stock_count else None  # an annulled deal shows its monte
    if stock_known:
        known.update(stock_known)
    discard = tuple(view["discard"]) if view["discard"] is not None else None
    if discard:
        known.update(discard)
    peek = view["peek"] if stock_known is None and stock_count else None
    if peek is not None:
        known[peek] += 1
    unknown = list((Counter(DECK) - known).elements())

    capacity: dict[Any, int] = {("h", s): counts[s] for s in range(PLAYERS) if hands[s] is None}
    if stock_known is None and stock_count:
        capacity[STOCK] = stock_count - (1 if peek is not None else 0)
    if discard is None and discard_count:
        capacity[DISCARD_ZONE] = discard_count
    zones = list(capacity)
    declarer = view["declarer"]
    content = None
    options = [False]
    declarer_played_plain = any(discard_plain(card, rules_version)
                                for plays in plays_by for s, card in plays if s == declarer)
    if DISCARD_ZONE in capacity and not declarer_played_plain:
        options.append(True)  # the discard may hold trumps only if the declarer kept no plain card
    for trump_discard in options:
        allowed = _constraints(view, unknown, zones, set(played), plays_by, trump_discard, rules_version)
        content = _assign(unknown, allowed, capacity, rng)
        if content is not None:
            break
    if content is None:
        raise ValueError("no state is consistent with this view")
    final_hands = tuple(hands[s] if hands[s] is not None else sort_cards(content[("h", s)]) for s in range(PLAYERS))
    if stock_known is not None:
        stock = stock_known
    elif stock_count:
        rest = list(content[STOCK])
        rng.shuffle(rest)
        stock = tuple(rest) + ((peek,) if peek is not None else ())
    else:
        stock = ()
    if discard is None:
        discard = tuple(content[DISCARD_ZONE]) if discard_count else ()
    called = view["called"]
    partner = NOBODY
    if view["contract"] == "call" and called is not None:
        if view["partner"] is not None:
            partner = view["partner"]
        else:
            partner = next((s for s in range(PLAYERS) if called in final_hands[s]), NOBODY)
    fug = None
    for number, plays in enumerate(plays_by):
        for seat, card in plays:
            if card == FUG:
                fug = (seat, number)
    phase = view["phase"]
    deal = Deal(
        stock=stock,
        peek=stock[-1] if phase in (STATA, AUCTION) else None,
        stata_bids=tuple((s, b) for s, b in view["stata_bids"]),
        bids=tuple((s, b) for s, b in view["bids"]),
        call=None if view["call"] is None else tuple(view["call"]),
        declarer=NOBODY if declarer is None else declarer,
        contract=view["contract"],
        forced=view["forced"],
        called=called,
        partner=partner,
        monte=monte,
        discard=discard,
        commits=tuple((s, w) for s, w in view["commits"]),
        partner_public=view["partner_public"],
        fug=fug,
    )
    turn = NOBODY if view["turn"] is None else view["turn"]
    leader = NOBODY if view["leader"] is None else view["leader"]
    return State(match, deal, phase, turn, final_hands, leader, trick, tricks)
