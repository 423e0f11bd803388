"""Building exact Muscio positions for the rules tests: stacked decks (through `decks`) and a small table
driver that plays actions through the runner (so the shape and turn checks apply too)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from games.engine.chance import Chance
from games.engine.protocol import Event
from games.engine.runner import Position, apply_action, fold
from games.rules.muscio import ENGINE
from games.rules.muscio.state import CANONICAL, RANKS, SUITS

SEED = "ab" * 32
A, B, C, D, E = range(5)


def cards(text: str) -> list[str]:
    return text.split()


def stacked_deck(players: int, dealer: int, hands: dict[int, str], turnup: str, blinde: str = "") -> list[str]:
    """A 40-card deck dealing `hands` (seat -> "AS 2S ..."), the blinde and the turn-up as rules §3 says.

    Hands not given are filled from the unused cards taken rank by rank (so they mix suits).
    """
    used = [card for text in hands.values() for card in cards(text)] + cards(blinde) + [turnup]
    assert len(used) == len(set(used)), "a card is stacked twice"
    pool = sorted((c for c in CANONICAL if c not in used), key=lambda c: (RANKS.index(c[0]), SUITS.index(c[1])))

    def take(text: str) -> list[str]:
        chosen = cards(text)
        while len(chosen) < 5:
            chosen.append(pool.pop(0))
        return chosen

    order = [(dealer + 1 + k) % players for k in range(players - 1)]
    deck: list[str] = []
    for seat in order:
        deck += take(hands.get(seat, ""))
    deck += take(blinde)
    deck += take(hands.get(dealer, ""))
    deck.append(turnup)
    deck += pool
    assert sorted(deck) == sorted(CANONICAL)
    return deck


@dataclass
class Table:
    """One match, driven action by action; `log` keeps every event."""

    players: int
    dealer: int
    decks: list[list[str]] = field(default_factory=list)
    scores: list[int] | None = None
    options: dict = field(default_factory=dict)

    crafted: list[Event] | None = None

    def __post_init__(self) -> None:
        self.chance = Chance(SEED, self.decks)
        if self.crafted is not None:
            self.log = list(self.crafted)
            self.position = fold(ENGINE, self.log, Position(None, 0, 0))
            self.chance.shuffles_done = self.position.shuffles
            return
        opts = ENGINE.normalize_options({"first_dealer": self.dealer, **self.options}, self.players)
        events = ENGINE.start(self.players, opts, self.chance)
        if self.scores is not None:
            # A crafted record of an earlier hand that left these scores (folded before the first deal).
            crafted = Event("hand_scored", {"scores": {str(s): v for s, v in enumerate(self.scores)}})
            events = [events[0], crafted, *events[1:]]
        self.log = list(events)
        self.position = fold(ENGINE, self.log, Position(None, 0, 0))

    @property
    def state(self):
        return self.position.state

    def act(self, seat: int, action: dict) -> list[Event]:
        self.position, events = apply_action(ENGINE, self.position, seat, json.loads(json.dumps(action)), self.chance)
        self.log.extend(events)
        return events

    def play(self, seat: int, card: str) -> list[Event]:
        return self.act(seat, {"type": "play", "card": card})

    def declare(self, *choices: tuple[int, str]) -> None:
        for seat, choice in choices:
            self.act(seat, {"type": choice})

    def legal(self, seat: int) -> list[dict]:
        return ENGINE.legal_actions(self.state, seat)

    def legal_cards(self, seat: int) -> set[str]:
        return {a["card"] for a in self.legal(seat) if a["type"] == "play" and "card" in a}

    def view(self, seat: int | None) -> dict:
        return ENGINE.view(self.state, seat)

    def to_act(self) -> set[int]:
        return set(ENGINE.to_act(self.state))

    def events(self, kind: str) -> list[Event]:
        return [e for e in self.log if e.type == kind]


def crafted_table(players: int, dealer: int, hands: dict[int, str], turnup: str, declarations: dict[int, str],
                  leader: int, forfeit_order: tuple[int, ...] = ()) -> Table:
    """A position folded from crafted events: hands of any size, declarations made, no exchange, play begun."""
    dealt = [card for text in hands.values() for card in cards(text)] + [turnup]
    rest = [card for card in CANONICAL if card not in dealt]
    events = [
        Event("match_started", {"players": players, "dealer": dealer, "drawn": False, "max_hands": 200}),
        Event("hand_started", {"hand": 1, "dealer": dealer}),
        Event("shuffle", {"n": 0, "purpose": "hand:1", "cards": dealt + rest, "source": "decks"},
              public={"n": 0}, visible_to=frozenset()),
    ]
    for seat, text in hands.items():
        events.append(Event("dealt", {"seat": seat, "cards": cards(text)}, public={"seat": seat},
                            visible_to=frozenset({seat})))
    events.append(Event("blinde_dealt", {"cards": rest[:5]}, public={"count": 5}, visible_to=frozenset()))
    events.append(Event("turn_up", {"card": turnup, "trump": turnup[1]}))
    for k in range(players):
        seat = (dealer + 1 + k) % players
        events.append(Event("declared", {"seat": seat, "declaration": declarations[seat]}))
    if declarations[dealer] == "play":
        events.append(Event("no_exchange", {"seat": dealer}))
    participants = [(dealer + 1 + k) % players for k in range(players)]
    participants = [seat for seat in participants if declarations[seat] != "pass"]
    ready = {"participants": participants, "leader": leader, "forfeit_order": list(forfeit_order)}
    events.append(Event("ready", ready))
    return Table(players, dealer, crafted=events)
