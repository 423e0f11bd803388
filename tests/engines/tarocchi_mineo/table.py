"""Test helpers: arrange a deck so each seat gets chosen cards, and drive a game through the runner."""

from __future__ import annotations

from games.engine.chance import Chance
from games.engine.runner import apply_action, begin
from games.rules.tarocchi_mineo import ENGINE
from games.rules.tarocchi_mineo.cards import DECK

SEED = "ab" * 32


def arrange(dealer: int, hands: dict[int, list[str]] | None = None, monte: list[str] | None = None) -> list[str]:
    """A shuffled-deck order (index 0 on top) dealing `hands` to the seats and `monte` as the last 3 cards.

    Unspecified cards are filled in canonical order, seat 0 to 3, then the monte.
    """
    hands = {seat: list(cards) for seat, cards in (hands or {}).items()}
    monte = list(monte or [])
    used = [card for cards in hands.values() for card in cards] + monte
    assert len(used) == len(set(used)), "a card is placed twice"
    rest = [card for card in DECK if card not in used]
    for seat in range(4):
        cards = hands.setdefault(seat, [])
        while len(cards) < 15:
            cards.append(rest.pop(0))
    while len(monte) < 3:
        monte.append(rest.pop(0))
    assert not rest
    deck: list[str | None] = [None] * 63
    for seat, cards in hands.items():
        k = (seat - dealer - 1) % 4
        for r in range(3):
            deck[20 * r + 5 * k : 20 * r + 5 * k + 5] = cards[5 * r : 5 * r + 5]
    deck[60:63] = monte
    return deck  # type: ignore[return-value]


class Table:
    """A match driven action by action, keeping the whole log."""

    def __init__(self, decks: list[list[str]] | None = None, dealer: int = 0, deals: int = 4, seed: str = SEED,
                 rules_version: int | None = None):
        """`rules_version`: the engine's current rules when None."""
        self.engine = ENGINE if rules_version is None else ENGINE.at_version(rules_version)
        self.chance = Chance(seed, decks or [])
        options = self.engine.normalize_options({"deals": deals, "first_dealer": dealer}, 4)
        self.position, self.log = begin(self.engine, 4, options, self.chance)
        self.log = list(self.log)

    @property
    def state(self):
        return self.position.state

    @property
    def turn(self) -> int:
        return self.state.turn

    def legal(self, seat: int | None = None) -> list[dict]:
        return self.engine.legal_actions(self.state, self.turn if seat is None else seat)

    def act(self, seat: int, action: dict) -> list:
        self.position, events = apply_action(self.engine, self.position, seat, action, self.chance)
        self.log.extend(events)
        return events

    def say(self, *words: str) -> None:
        """The seats to act say these words in turn (pass, call, solo, no_rivanto...)."""
        for word in words:
            self.act(self.turn, {"type": word})

    def play(self, *cards: str) -> list:
        events = []
        for card in cards:
            events += self.act(self.turn, {"type": "play", "card": card})
        return events

    def view(self, viewer: int | None) -> dict:
        return self.engine.view(self.state, viewer)

    def finish_deal(self, choose=lambda actions: actions[0]) -> dict:
        """Play the running deal to its end with `choose`; returns its summary."""
        deal_no = self.state.match.deal_no
        while self.state.match.deal_no == deal_no:
            self.act(self.turn, choose(self.legal()))
        return self.state.match.history[deal_no]

    def events_of(self, kind: str) -> list:
        return [event for event in self.log if event.type == kind]
