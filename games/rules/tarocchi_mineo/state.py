"""Immutable states of a Tarocchi match, split by how often they change.

`State` holds what changes on every card (phase, turn, hands, trick); `Deal` what changes a few times per
deal (stock, declarations, contract, monte, discard, commitments); `Match` what changes once per deal
(dealer, scores, history). Splitting keeps the per-card `evolve` step cheap: only `State` is rebuilt.

All three are named tuples, changed through the keyword copiers `with_match`, `with_deal`, `with_state`
(`games.engine.values`); the per-card fold handlers build `State` positionally.

`State.frame` is derived, for speed: every key of a view with the values that do not depend on the viewer
nor change at every card (`view.view_frame`), built by the fold after every event but a card played or a
trick won (which rebuild it only when the Fuggitivo's status may change). None on a state built by hand,
whose views work it out.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from games.engine.values import copier

PLAYERS = 4
NOBODY = -1

# Phases a player acts in, and the two where nobody does.
STATA, AUCTION, DISCARD, COMMIT, PLAY = "stata", "auction", "discard", "commit", "play"
DEALING, OVER = "dealing", "over"
ACTIVE_PHASES = frozenset({STATA, AUCTION, DISCARD, COMMIT, PLAY})

Play = tuple[int, str]  # (seat, card)
Trick = tuple[int, tuple[Play, ...], int]  # (leader, plays in order, winner)


class Match(NamedTuple):
    deals: int  # length of the match
    deal_no: int  # deals finished so far (the index of the running deal)
    dealer: int  # dealer of the running (or next) deal; -1 before the first-dealer draw
    scores: tuple[int, ...]  # running totals per seat
    history: tuple[dict[str, Any], ...]  # one JSON summary per finished deal


class Deal(NamedTuple):
    stock: tuple[str, ...] = ()  # undealt cards, top first; after the deal, the monte (d[60..62])
    peek: str | None = None  # d[62], seen by the dealer only, until the monte is taken
    stata_bids: tuple[tuple[int, str], ...] = ()
    bids: tuple[tuple[int, str], ...] = ()  # the full-deal round
    call: tuple[int, str] | None = None  # (caller, called card) said in the full-deal round
    declarer: int = NOBODY
    contract: str | None = None  # "stata" | "solo" | "call" | "forced_solo"
    forced: bool = False  # the call was forced on the holder of Giove (everybody passed)
    called: str | None = None  # the called card of the contract (None in a solo)
    partner: int = NOBODY  # TRUE holder of the called card; secret until it is played
    monte: tuple[str, ...] = ()  # the monte as shown when taken
    discard: tuple[str, ...] = ()  # secret to everybody but the declarer until the deal is scored
    commits: tuple[tuple[int, str], ...] = ()  # scommessa / rivanto answers in order
    partner_public: bool = False  # the called card has been played
    fug: tuple[int, int] | None = None  # (owner, index of the trick) once the Fuggitivo is played


class State(NamedTuple):
    match: Match
    deal: Deal
    phase: str
    turn: int  # the seat to act, NOBODY when nobody may
    hands: tuple[tuple[str, ...], ...]  # kept in canonical card order
    leader: int = NOBODY  # leader of the trick in progress
    trick: tuple[Play, ...] = ()  # plays of the trick in progress (the Fuggitivo included)
    tricks: tuple[Trick, ...] = ()  # finished tricks of this deal
    frame: dict[str, Any] | None = None  # derived: the view's viewer-independent values (`view.view_frame`)

    #: Not stored in snapshots: built again by `TarocchiMineo.rederive` (the fold leaves no state without it).
    DERIVED_FIELDS = ("frame",)


EMPTY_HANDS: tuple[tuple[str, ...], ...] = ((),) * PLAYERS


with_match = copier(Match)
with_deal = copier(Deal)
with_state = copier(State)
