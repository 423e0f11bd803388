"""Validating an action and listing every fact it causes (machiavelli.md §6–§9).

A turn is one action: `draw`, `pass` (empty stock only) or `meld` (the whole new table). A meld that passes
the structural checks but holds an invalid group is a *failed operation*: under `penalty` the table stays
as it was and the player draws up to three cards (a pass when the stock is empty); under `reject` it is
refused. The end of a deal (closing, or a full round of passes on an empty stock) and the next deal of the
match are emitted here too, so the log always stops at a player's decision.

`decide` checks every meld in full. `decide_listed` takes the actions `legal_actions` listed: a meld listed
for an equal table and hand, handed back unchanged, carries the table it leaves (`legal.MeldAction`,
`legal.outcome`), so it is not checked again; any other action goes to `decide`. Turn draws are shared
events.
"""

from __future__ import annotations

from typing import Any

from games.engine.protocol import Action, Event, IllegalAction, Rng
from games.engine.shared import SharedDict, SharedList
from games.engine.values import new
from games.rules.machiavelli.cards import PACK
from games.rules.machiavelli.deal import deal_events
from games.rules.machiavelli.legal import MeldAction, outcome
from games.rules.machiavelli.melds import check_submission
from games.rules.machiavelli.state import State, deal_scores, number
from games.rules.machiavelli.tables import Facts, facts

PENALTY_CARDS = 3

#: The `visible_to` of a seat's private events (and `to_act`'s answers): frozensets are immutable, so
#: every event may share them.
ONLY: tuple[frozenset[int], ...] = tuple(frozenset((seat,)) for seat in range(6))
#: TURN_DRAWS[seat][card]: the event of `seat` drawing `card` for its turn, about half the events of a deal.
#: Events are immutable values and these hold read-only data, so every such draw shares one.
TURN_DRAWS: tuple[dict[str, Event], ...] = tuple(
    {card: Event("draw", SharedDict(seat=seat, cards=SharedList((card,)), reason="turn"),
                  SharedDict(seat=seat, count=1, reason="turn"), ONLY[seat], seat) for card in PACK}
    for seat in range(6)
)
_NOBODY: frozenset[int] = frozenset()


def to_act(state: State) -> frozenset[int]:
    """The seat whose turn it is, nobody between deals and once the match is over."""
    return _NOBODY if state.match.over or state.turn < 0 else ONLY[state.turn]


def decide(state: State, seat: int, action: Action, rng: Rng) -> list[Event]:
    if state.match.over:
        raise IllegalAction("game_finished", "the game is over")
    if seat != state.turn:
        raise IllegalAction("not_your_turn", f"seat {seat} may not act now")
    kind = action.get("type") if isinstance(action, dict) else None
    if kind == "draw":
        stock = state.stock
        if not stock:
            raise IllegalAction("stock_empty", "the stock is empty: pass instead")
        return [TURN_DRAWS[seat][stock[0]]]
    if kind == "meld":
        if state.opening:
            raise IllegalAction("must_draw", "the first turn of a deal is a forced draw")
        return _checked_meld_events(state, seat, action.get("table"), rng)
    if kind == "pass":
        if state.stock:
            raise IllegalAction("stock_not_empty", "you may pass only when the stock is empty; draw instead")
        return _pass_events(state, seat, "stock_empty", rng)
    raise IllegalAction("unknown_action", f"unknown action type {kind!r}; this game knows: draw, meld, pass")


def decide_listed(state: State, seat: int, action: Action, rng: Rng) -> list[Event]:
    """`decide` for an action as `legal_actions` listed it (`protocol.Engine.decide_listed`): a listed meld
    whose table and hand are those of `state` (compared by value) is played from the outcome it carries."""
    if type(action) is MeldAction and not state.match.over and seat == state.turn and not state.opening:
        known = outcome(action, state.table, state.hands[seat])
        if known is not None:
            return _melded_events(state, seat, known[0], known[1], rng)
    return decide(state, seat, action, rng)


def _draw_event(seat: int, cards: tuple[str, ...], reason: str) -> Event:
    return Event("draw", {"seat": seat, "cards": list(cards), "reason": reason},
                  {"seat": seat, "count": len(cards), "reason": reason}, ONLY[seat], seat)


def _pass_events(state: State, seat: int, reason: str, rng: Rng) -> list[Event]:
    events = [Event("pass", {"seat": seat, "reason": reason}, actor=seat)]
    if state.passes + 1 >= state.match.seats:
        cards_left = tuple(len(hand) for hand in state.hands)
        events.extend(_deal_end_events(state, None, cards_left, rng))
    return events


def _checked_meld_events(state: State, seat: int, submission: Any, rng: Rng) -> list[Event]:
    """A submitted table, checked in full (`melds.check_submission`)."""
    table, added = check_submission(state.table, state.hands[seat], submission)
    if table is None:
        if not state.match.penalty:
            raise IllegalAction("invalid_meld", "every group must be a set (3–4 cards, one rank, distinct suits) "
                                "or a run (3+ cards of one suit in sequence)")
        drawn = state.stock[:PENALTY_CARDS]
        failed = Event("meld_failed", {"seat": seat, "drawn": len(drawn)}, actor=seat)
        if drawn:
            return [failed, _draw_event(seat, drawn, "penalty")]
        return [failed, *_pass_events(state, seat, "failed_operation", rng)]
    return _melded_events(state, seat, facts(table), added, rng)


def _melded_events(state: State, seat: int, after: Facts, added: tuple[str, ...], rng: Rng) -> list[Event]:
    """The events of a valid meld that leaves the table of `after` (its lists are the event's table)."""
    data = {"seat": seat, "table": after[2], "added": [*added]}
    events = [new(Event, ("meld", data, None, None, seat))]  # positionally (`new`): a meld is half the steps
    if len(added) == len(state.hands[seat]):
        cards_left = tuple(0 if other == seat else len(h) for other, h in enumerate(state.hands))
        events.extend(_deal_end_events(state, seat, cards_left, rng))
    return events


def _deal_end_events(state: State, closer: int | None, cards_left: tuple[int, ...], rng: Rng) -> list[Event]:
    """Settle the deal and, unless the match is over, deal the next one (the deal passes to the left)."""
    match = state.match
    match_over = match.deal_no >= match.deals
    scores = deal_scores(cards_left, closer, match.unit)
    data = {
        "deal": match.deal_no,
        "closer": closer,
        "blocked": closer is None,
        "cards_left": {str(seat): count for seat, count in enumerate(cards_left)},
        "scores": {str(seat): number(score) for seat, score in enumerate(scores)},
        "match_over": match_over,
    }
    events = [Event("deal_end", data)]
    if not match_over:
        events.extend(deal_events(match.seats, match.deal_no + 1, (match.dealer + 1) % match.seats, rng))
    return events
