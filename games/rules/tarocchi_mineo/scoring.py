"""Scoring of a finished deal: card points (exact thirds formula), game points (jochi), settlement.

Kept apart from `decide` so the counting rules (DECISIONS TM-3, TM-4, TM-13, TM-14, TM-17, TM-18) can be
tested on their own; `score_deal` returns the JSON summary that the `deal_scored` event carries.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .cards import BIG_THREE, FIVE_ARIE, FOUR_ARIE, FUG, KINGS, PIGLIATA_CARDS, VALUE
from .state import NOBODY, PLAYERS, Deal, Trick

DECLARER, OPPONENTS = 0, 1
SIDE_NAMES = ("declarer", "opponents")
JOCHI = ("rimatura", "vanto", "rivanto", "quattro_re", "quattro_arie", "cinque_arie", "pigliata", "scommessa")
#: (winner's share per member, loser's share per member) by deal type, for a difference of 1.
STAKES = {"call": 1, "solo": 3, "forced_solo": 3, "stata": 6}


def thirds(cards: Iterable[str]) -> int:
    """Card value in thirds of a point: each counting card 3v - 2, each scartina 1."""
    total = 0
    for card in cards:
        value = VALUE.get(card)
        total += 3 * value - 2 if value else 1
    return total


def card_points(cards: Iterable[str]) -> int:
    """Points of a pile counted in triplets: residue 2 cards = 1 point, 1 card = 0 (DECISION TM-3)."""
    return (thirds(cards) + 1) // 3


def sides_of(deal: Deal) -> list[int]:
    """Side per seat (DECLARER or OPPONENTS) with the true partnership."""
    side = [OPPONENTS] * PLAYERS
    side[deal.declarer] = DECLARER
    if deal.contract == "call" and deal.partner != NOBODY:
        side[deal.partner] = DECLARER
    return side


def fuggitivo_side(tricks: tuple[Trick, ...], side: list[int]) -> tuple[int, int] | None:
    """(owner seat, side the Fuggitivo finally belongs to), None if it was not played (§8.2)."""
    won_any = [False, False]
    found = None
    for _, plays, winner in tricks:
        won_any[side[winner]] = True
        for seat, card in plays:
            if card == FUG:
                found = (seat, winner)
    if found is None:
        return None
    owner, trick_winner = found
    own = side[owner]
    return owner, own if won_any[own] else side[trick_winner]


def owned_cards(deal: Deal, tricks: tuple[Trick, ...], side: list[int]) -> tuple[list[str], list[str]]:
    """Cards each side owns at the end: won tricks, the Fuggitivo as assigned, the discard (TM-18)."""
    owned: tuple[list[str], list[str]] = ([], [])
    for _, plays, winner in tricks:
        pile = owned[side[winner]]
        pile.extend(card for _, card in plays if card != FUG)
    owned[DECLARER].extend(deal.discard)
    fug = fuggitivo_side(tricks, side)
    if fug is not None:
        owned[fug[1]].append(FUG)
    return owned


def jochi_of(deal: Deal, tricks: tuple[Trick, ...], side: list[int], owned, totals: list[int]) -> list[dict]:
    """Game points per side, objective by objective (§9.2)."""
    detail = [dict.fromkeys(JOCHI, 0) for _ in range(2)]
    last = side[tricks[-1][2]]
    for s in (DECLARER, OPPONENTS):
        held = set(owned[s])
        if totals[s] >= 55:
            detail[s]["rimatura"] = 1
        if held >= KINGS:
            detail[s]["quattro_re"] = 1
        if held >= FOUR_ARIE:
            detail[s]["quattro_arie"] = 1
            if held >= FIVE_ARIE:
                detail[s]["cinque_arie"] = 1
    detail[last]["vanto"] = 1
    if any(word == "rivanto" for _, word in deal.commits):
        detail[last]["rivanto"] = 1
    if any(word == "scommessa" for _, word in deal.commits):
        detail[DECLARER if set(owned[DECLARER]) >= BIG_THREE else OPPONENTS]["scommessa"] = 1
    for _, plays, winner in tricks:
        taker = side[winner]
        for seat, card in plays:
            if card in PIGLIATA_CARDS and side[seat] != taker:
                detail[taker]["pigliata"] += 1
    return detail


def settlement(deal: Deal, side: list[int], jochi: list[int]) -> tuple[int, int | None, list[int]]:
    """(difference D, winning side or None, score change per seat); always sums to zero (§9.4)."""
    difference = abs(jochi[DECLARER] - jochi[OPPONENTS])
    if difference == 0:
        return 0, None, [0] * PLAYERS
    winner = DECLARER if jochi[DECLARER] > jochi[OPPONENTS] else OPPONENTS
    sign = 1 if winner == DECLARER else -1
    contract = deal.contract or "solo"
    if contract == "call":
        deltas = [sign * difference if side[s] == DECLARER else -sign * difference for s in range(PLAYERS)]
    else:
        each = STAKES[contract] // 3 * difference  # an opponent's share: D (solo) or 2D (stata)
        deltas = [-sign * each] * PLAYERS
        deltas[deal.declarer] = sign * each * 3
    return difference, winner, deltas


def score_deal(deal: Deal, tricks: tuple[Trick, ...], deal_no: int, dealer: int) -> dict[str, Any]:
    """The JSON summary of a played deal (the data of its `deal_scored` event)."""
    side = sides_of(deal)
    owned = owned_cards(deal, tricks, side)
    points = [card_points(owned[0]), card_points(owned[1])]
    last = side[tricks[-1][2]]
    totals = [points[s] + (5 if s == last else 0) for s in (0, 1)]
    detail = jochi_of(deal, tricks, side, owned, totals)
    jochi = [sum(d.values()) for d in detail]
    difference, winner, deltas = settlement(deal, side, jochi)
    fug = fuggitivo_side(tricks, side)
    partner = deal.partner if deal.contract == "call" else None
    return {
        "deal": deal_no,
        "dealer": dealer,
        "type": deal.contract,
        "declarer": deal.declarer,
        "partner": partner,
        "called": deal.called,
        "forced": deal.forced,
        "discard": list(deal.discard),
        "fuggitivo": None if fug is None else {"owner": fug[0], "side": SIDE_NAMES[fug[1]]},
        "card_points": {"declarer": points[0], "opponents": points[1]},
        "totals": {"declarer": totals[0], "opponents": totals[1]},
        "last_trick": SIDE_NAMES[last],
        "jochi": {"declarer": jochi[0], "opponents": jochi[1]},
        "jochi_detail": {"declarer": detail[0], "opponents": detail[1]},
        "difference": difference,
        "winner": None if winner is None else SIDE_NAMES[winner],
        "scores": {str(s): deltas[s] for s in range(PLAYERS)},
    }


def annulled_summary(deal_no: int, dealer: int) -> dict[str, Any]:
    """Summary of a deal thrown in because everybody passed with Giove in the monte (TM-10)."""
    return {
        "deal": deal_no, "dealer": dealer, "type": "annulled", "declarer": None, "partner": None,
        "called": None, "forced": False, "discard": [], "fuggitivo": None, "card_points": None,
        "totals": None, "last_trick": None, "jochi": None, "jochi_detail": None, "difference": 0,
        "winner": None, "scores": {str(s): 0 for s in range(PLAYERS)},
    }
