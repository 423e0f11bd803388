"""Validate an action and produce every fact it causes, up to the next decision of a player.

The events are computed from the state before the action (the facts that follow an action never depend
on anything but that state and the rng), so `decide` never folds: a card that does not end a trick costs
one event, and the last card of a deal also yields the trick, the scoring and the next deal's set-up.
"""

from __future__ import annotations

from typing import Any

from games.engine.protocol import Action, Event, IllegalAction, Rng

from .deal import monte_of, phase_event, rest_of_deal_events, start_deal_events
from .rules import called_card, discard_error, may_rivanto, may_scommessa, play_error, winner_of
from .scoring import annulled_summary, score_deal
from .state import AUCTION, COMMIT, DISCARD, NOBODY, PLAY, PLAYERS, STATA, Match, State

LAST_TRICK = 14
_PHASE_ACTIONS = {
    STATA: ("pass", "solo"),
    AUCTION: ("pass", "call", "solo"),
    DISCARD: ("discard",),
    COMMIT: ("scommessa", "no_scommessa", "rivanto", "no_rivanto"),
    PLAY: ("play",),
}


def decide(rules_version: int, state: State, seat: int, action: Action, rng: Rng) -> list[Event]:
    """The events of `action` under `rules_version` (each engine object binds its own: see `TarocchiMineo`)."""
    kind = action["type"]
    phase = state.phase
    if phase not in _PHASE_ACTIONS or state.turn != seat:
        raise IllegalAction("not_your_turn", f"seat {seat} may not act now")
    if kind not in _PHASE_ACTIONS[phase]:
        expected = ", ".join(_PHASE_ACTIONS[phase])
        raise IllegalAction("wrong_phase", f"{kind!r} is not possible now (phase {phase}: {expected})")
    if phase == PLAY:
        return _play(state, seat, action["card"], rng)
    if phase == STATA:
        return _stata(state, seat, kind)
    if phase == AUCTION:
        return _auction(state, seat, kind, rng)
    if phase == DISCARD:
        return _discard(state, seat, action["cards"], rules_version)
    return _commit(state, seat, kind)


# -- play and the end of a deal -----------------------------------------------------------------------


def _play(state: State, seat: int, card: str, rng: Rng) -> list[Event]:
    error = play_error(state.hands[seat], state.trick, card)
    if error is not None:
        raise IllegalAction(*error)
    played = Event("play", {"seat": seat, "card": card}, actor=seat)
    if len(state.trick) < PLAYERS - 1:
        return [played]
    plays = state.trick + ((seat, card),)
    number = len(state.tricks)
    winner = winner_of(plays)
    won = Event("trick", {"n": number, "winner": winner, "cards": [c for _, c in plays]})
    if number < LAST_TRICK:
        return [played, won]
    match = state.match
    tricks = state.tricks + ((state.leader, plays, winner),)
    summary = score_deal(state.deal, tricks, match.deal_no, match.dealer)
    return [played, won, Event("deal_scored", summary), *_after_deal(match, summary["scores"], rng)]


def _after_deal(match: Match, deltas: dict[str, int], rng: Rng) -> list[Event]:
    """The next deal's set-up, or the end of the match after the last deal."""
    deal_no = match.deal_no + 1
    if deal_no < match.deals:
        return start_deal_events(deal_no, (match.dealer + 1) % PLAYERS, rng)
    scores = tuple(match.scores[s] + deltas[str(s)] for s in range(PLAYERS))
    return [Event("match_end", match_outcome(scores))]


def match_outcome(scores: tuple[int, ...]) -> dict[str, Any]:
    """Totals, ranking (ties share a rank) and winners (none when all four are level)."""
    ranking = [
        {"seat": s, "score": scores[s], "rank": 1 + sum(1 for t in scores if t > scores[s])}
        for s in sorted(range(PLAYERS), key=lambda s: (-scores[s], s))
    ]
    best = max(scores)
    winners = [] if min(scores) == best else [s for s in range(PLAYERS) if scores[s] == best]
    return {"scores": {str(s): scores[s] for s in range(PLAYERS)}, "ranking": ranking, "winners": winners}


# -- declarations -------------------------------------------------------------------------------------


def _bid_event(seat: int, bid: str, round_name: str, called: str | None = None) -> Event:
    data: dict[str, Any] = {"seat": seat, "bid": bid, "round": round_name}
    if called is not None:
        data["called"] = called
    return Event("bid", data, actor=seat)


def _contract_event(declarer: int, contract: str, called: str | None = None, forced: bool = False) -> Event:
    return Event("contract", {"declarer": declarer, "contract": contract, "called": called, "forced": forced})


def _monte_events(declarer: int, monte: list[str], called: str | None) -> list[Event]:
    """The declarer takes and shows the monte; a called card found in it makes a forced soloist."""
    events = [Event("monte", {"seat": declarer, "cards": monte})]
    if called is not None and called in monte:
        events.append(Event("forced_solo", {"declarer": declarer, "called": called}))
    events.append(phase_event(DISCARD, declarer))
    return events


def _stata(state: State, seat: int, kind: str) -> list[Event]:
    events = [_bid_event(seat, kind, "stata")]
    stock, dealer = state.deal.stock, state.match.dealer
    if kind == "solo":
        events.append(_contract_event(seat, "stata"))
        events += rest_of_deal_events(stock, dealer)
        events += _monte_events(seat, monte_of(stock), None)
    elif len(state.deal.stata_bids) == PLAYERS - 1:
        events += rest_of_deal_events(stock, dealer)
        events.append(phase_event(AUCTION, (dealer + 1) % PLAYERS))
    return events


def _auction(state: State, seat: int, kind: str, rng: Rng) -> list[Event]:
    deal = state.deal
    said = {bid for _, bid in deal.bids}
    if kind == "call" and said & {"call", "solo"}:
        raise IllegalAction("bid_not_allowed", "a call is possible only before any call or solo")
    if kind == "solo" and "solo" in said:
        raise IllegalAction("bid_not_allowed", "somebody already said solo")
    called = called_card(state.hands[seat]) if kind == "call" else None
    events = [_bid_event(seat, kind, "full", called)]
    if len(deal.bids) < PLAYERS - 1:
        return events
    bids = deal.bids + ((seat, kind),)
    call = deal.call if called is None else (seat, called)
    monte = monte_of(deal.stock)
    soloists = [s for s, bid in bids if bid == "solo"]
    if soloists:
        events.append(_contract_event(soloists[0], "solo"))
        return events + _monte_events(soloists[0], monte, None)
    if call is not None:
        events.append(_contract_event(call[0], "call", call[1]))
        return events + _monte_events(call[0], monte, call[1])
    holder = next((s for s in range(PLAYERS) if "T20" in state.hands[s]), NOBODY)
    if holder != NOBODY:
        events.append(_contract_event(holder, "call", None, forced=True))
        return events + _monte_events(holder, monte, None)
    match = state.match
    summary = annulled_summary(match.deal_no, match.dealer)
    events.append(Event("deal_annulled", {"monte": monte, "summary": summary}))
    return events + _after_deal(match, summary["scores"], rng)


def _discard(state: State, seat: int, cards: list[str], rules_version: int) -> list[Event]:
    hand = state.hands[seat]
    error = discard_error(hand, cards, rules_version)
    if error is not None:
        raise IllegalAction(*error)
    events = [
        Event(
            "discard",
            {"seat": seat, "cards": list(cards)},
            public={"seat": seat, "count": len(cards)},
            visible_to=frozenset({seat}),
            actor=seat,
        )
    ]
    if state.deal.forced:
        # Only now the forced caller names the card: the highest trump not among its 18 cards.
        events.append(Event("called", {"seat": seat, "card": called_card(hand)}))
    events.append(phase_event(COMMIT, seat))
    return events


def _commit(state: State, seat: int, kind: str) -> list[Event]:
    deal = state.deal
    if seat == deal.declarer:
        if kind not in ("scommessa", "no_scommessa"):
            raise IllegalAction("wrong_phase", "the declarer answers scommessa or no_scommessa")
        if kind == "scommessa" and not may_scommessa(state.hands[seat]):
            raise IllegalAction("scommessa_not_allowed", "the scommessa needs Giove (T20) and the Fuggitivo in hand")
    else:
        if kind not in ("rivanto", "no_rivanto"):
            raise IllegalAction("wrong_phase", "answer rivanto or no_rivanto")
        if kind == "rivanto" and not may_rivanto(seat, deal.declarer, deal.partner, deal.commits):
            raise IllegalAction("rivanto_not_allowed", "only an opponent of the declarer may declare the rivanto")
    events = [Event("commit", {"seat": seat, "commitment": kind}, actor=seat)]
    if kind == "rivanto" or len(deal.commits) == PLAYERS - 1:
        events.append(phase_event(PLAY, (deal.declarer + 1) % PLAYERS))
    return events
