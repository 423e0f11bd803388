"""Immutable states of a Tarocchi match, split by how often they change.

`State` holds what changes on every card (phase, turn, hands, trick); `Deal` what changes a few times per
deal (stock, declarations, contract, monte, discard, commitments); `Match` what changes once per deal
(dealer, scores, history). Splitting keeps the per-card `evolve` step cheap: only `State` is rebuilt.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any

PLAYERS = 4
NOBODY = -1

# Phases a player acts in, and the two where nobody does.
STATA, AUCTION, DISCARD, COMMIT, PLAY = "stata", "auction", "discard", "commit", "play"
DEALING, OVER = "dealing", "over"
ACTIVE_PHASES = frozenset({STATA, AUCTION, DISCARD, COMMIT, PLAY})

Play = tuple[int, str]  # (seat, card)
Trick = tuple[int, tuple[Play, ...], int]  # (leader, plays in order, winner)


@dataclass(frozen=True, slots=True)
class Match:
    deals: int  # length of the match
    deal_no: int  # deals finished so far (the index of the running deal)
    dealer: int  # dealer of the running (or next) deal; -1 before the first-dealer draw
    scores: tuple[int, ...]  # running totals per seat
    history: tuple[dict[str, Any], ...]  # one JSON summary per finished deal


@dataclass(frozen=True, slots=True)
class Deal:
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


@dataclass(frozen=True, slots=True)
class State:
    match: Match
    deal: Deal
    phase: str
    turn: int  # the seat to act, NOBODY when nobody may
    hands: tuple[tuple[str, ...], ...]  # kept in canonical card order
    leader: int = NOBODY  # leader of the trick in progress
    trick: tuple[Play, ...] = ()  # plays of the trick in progress (the Fuggitivo included)
    tricks: tuple[Trick, ...] = ()  # finished tricks of this deal


EMPTY_HANDS: tuple[tuple[str, ...], ...] = ((),) * PLAYERS


def _builder(cls):
    """A positional constructor equal to `cls(*values)` but about twice as fast for frozen slots classes.

    A frozen dataclass's generated `__init__` goes through `object.__setattr__` per field; writing the
    slot descriptors directly skips that detour. The object built is identical (same fields, same eq).
    """
    names = tuple(f.name for f in fields(cls))
    namespace = {"new": object.__new__, "cls": cls}
    namespace.update({f"set_{name}": cls.__dict__[name].__set__ for name in names})
    body = "".join(f"    set_{name}(obj, {name})\n" for name in names)
    source = f"def build({', '.join(names)}):\n    obj = new(cls)\n{body}    return obj\n"
    exec(source, namespace)  # noqa: S102 - generated from the dataclass's own field names
    return namespace["build"]


def _copier(cls, build):
    names = tuple(f.name for f in fields(cls))
    getter = attrgetter(*names)
    index = {name: i for i, name in enumerate(names)}

    def copy_with(obj, **changes):
        values = list(getter(obj))
        for name, value in changes.items():
            values[index[name]] = value
        return build(*values)

    copy_with.__doc__ = f"`dataclasses.replace` for {cls.__name__}, several times faster."
    return copy_with


build_match = _builder(Match)
build_deal = _builder(Deal)
build_state = _builder(State)
with_match = _copier(Match, build_match)
with_deal = _copier(Deal, build_deal)
with_state = _copier(State, build_state)
