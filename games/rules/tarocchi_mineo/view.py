"""What one seat may know: the redacted view, and the public status of the Fuggitivo.

The view holds the whole public state plus the viewer's secrets (own hand, the dealer's peek, the
declarer's discard, the partner when the viewer holds the called card), and nothing else, so
`sample.sample_state` can rebuild a consistent full state from it. Sequences are returned as the
state's own tuples (JSON arrays once serialised) to keep this hot function cheap.
"""

from __future__ import annotations

from typing import Any

from games.engine.shared import SharedDict

from .state import NOBODY, OVER, State


def public_sides_known(state: State) -> bool:
    """Whether everybody knows both sides (always, except a call whose called card is still hidden)."""
    return state.deal.contract != "call" or state.deal.partner_public or state.phase == OVER


def fuggitivo_status(state: State) -> dict[str, Any] | None:
    """The played Fuggitivo as the table sees it: owner, trick, and pending/assigned (§8.2).

    It is "assigned" once a trick has been won by a player publicly known to be on its owner's side;
    while a partnership is secret only the owner itself counts (the table cannot tell its partner).
    The final owner is decided by `scoring.fuggitivo_side`, which gives the same answer at the end.
    """
    deal = state.deal
    if deal.fug is None:
        return None
    owner, number = deal.fug
    tricks = state.tricks
    if public_sides_known(state):
        declarer_side = {deal.declarer}
        if deal.contract == "call":
            declarer_side.add(deal.partner)
        mates = declarer_side if owner in declarer_side else {0, 1, 2, 3} - declarer_side
    else:
        mates = {owner}
    assigned = any(winner in mates for _, _, winner in tricks)
    return {
        "owner": owner,
        "trick": number,
        "trick_winner": tricks[number][2] if number < len(tricks) else None,
        "status": "assigned" if assigned else "pending",
    }


def view_frame(state: State) -> dict[str, Any]:
    """Every key of a view, in order, with the values that do not depend on the viewer nor change at every
    card (the match, the deal, the Fuggitivo's status, read-only), the others None (see `State.frame`)."""
    match, deal = state.match, state.deal
    declarer = deal.declarer
    fuggitivo = None if deal.fug is None else SharedDict(fuggitivo_status(state))
    return {
        "deals": match.deals,
        "deal": match.deal_no,
        "dealer": None if match.dealer == NOBODY else match.dealer,
        "scores": match.scores,
        "history": match.history,
        "stock_count": len(deal.stock),
        "stata_bids": deal.stata_bids,
        "bids": deal.bids,
        "call": deal.call,
        "declarer": None if declarer == NOBODY else declarer,
        "contract": deal.contract,
        "forced": deal.forced,
        "called": deal.called,
        "partner_public": deal.partner_public,
        "monte": deal.monte,
        "discard_count": len(deal.discard),
        "commits": deal.commits,
        "phase": None, "turn": None, "hand": None, "hand_counts": None, "peek": None, "partner": None,
        "discard": None, "leader": None, "trick": None, "tricks": None,
        "fuggitivo": fuggitivo,
    }


def view(state: State, viewer: int | None) -> dict[str, Any]:
    """Everything `viewer` may know (None = a spectator): a copy of the state's view frame (`State.frame`)
    with the viewer's values and those that change at every card. Its values are immutable (tuples, numbers,
    strings, read-only dicts), except the per-deal summaries of `history`, which must not be mutated."""
    match, deal, phase, turn, hands, leader, trick, tricks, frame = state  # (views are hot: fields read once)
    over = phase == OVER
    partner = deal.partner
    if partner == NOBODY or not (deal.partner_public or over or viewer == partner):
        partner = None
    out = (frame or view_frame(state)).copy()
    out["phase"] = phase
    out["turn"] = None if turn == NOBODY else turn
    out["hand"] = None if viewer is None else hands[viewer]
    out["hand_counts"] = tuple(map(len, hands))
    out["peek"] = deal.peek if viewer is not None and viewer == match.dealer else None
    out["partner"] = partner
    out["discard"] = deal.discard if over or (viewer is not None and viewer == deal.declarer) else None
    out["leader"] = None if leader == NOBODY else leader
    out["trick"] = trick
    out["tricks"] = tricks
    return out
