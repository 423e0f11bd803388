"""The judgement of a club player at the competitive-patience table (Spite and Malice, Diavoletto).

A turn is planned, not played card by card: from the seat's view the bot searches the sequences of plays
it can make with what it sees (hand, goal top, its discard rows, card by card as tops come free) and
scores where each sequence leaves the table: a goal card played is worth most, cards moved out of the hand
and the rows come next (they are replaced by fresh cards), a spent joker costs unless it reached the goal,
and a centre pile left where the opponent's goal card can go next turn costs about as much as a goal card
of ours. Playing the goal card or emptying the hand reveals unknown cards, so a plan stops there and the
bot plans again from the new view. When the best plan is to stop, it picks the discard that keeps its rows
descending and buries nothing it needs.

The rules themselves (where a joker may go, which plays are compulsory) come from the game's `Variant`
(the engine's own `fits` and `obligation`), so each game's module only names its variant.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from games.engine.cards import FRENCH_VALUE, JOKER
from games.engine.protocol import JSON, Action
from games.rules.patience import Variant
from games.rules.patience.moves import NEW, fits
from games.rules.patience.state import HAND_SIZE, KING, Table
from games.rules.patience.view import card_set

#: Plans examined per decision at most (distinct positions); a turn rarely has more than a few hundred.
NODE_BUDGET = 3000
#: A centre pile of each value, for asking the variant about compulsory plays (only the length counts).
_PILE_OF = tuple(("",) * value for value in range(KING + 1))

# A search position: (hand sorted, discard rows, centre pile values sorted, goal top or None once played,
# hand emptied by the last play).
Node = tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[int, ...], str | None, bool]
# A play: (source, discard row or None, card, value of the centre pile it goes on; 0 opens a pile).
Play = tuple[str, int | None, str, int]


@dataclass(frozen=True)
class Style:
    """The weights of the judgement (one set serves both games; measured by self-play, see the game modules)."""

    goal: float = 10.0             # a goal card played
    win: float = 1000.0            # the last goal card played, or a blocked game won
    hand: float = 0.6              # a hand card played (a fresh card replaces it)
    row: float = 0.8               # a discard-row card played (the card under it comes free)
    emptied: float = 2.5           # the hand emptied mid-turn: five fresh cards at once
    joker: float = 2.5             # a joker spent without reaching the goal card
    completed: float = 0.3         # a centre pile completed (its cards return to the stock)
    danger: float = 12.0           # the chance that the opponent plays its goal card next turn
    turn_goes_on: float = 0.5      # the share of that danger still counted where new cards let the turn go on
    discard_over: float = 0.0      # an optional discard is made only when it scores above this


def value_of(card: str) -> int | None:
    return FRENCH_VALUE.get(card)


@dataclass
class Reading:
    """What the seat's view says, in the shape the search needs."""

    root: Node
    goal_count: int
    pile_values: dict[int, int]        # centre pile id -> its value
    hand_size: int
    row_size: int
    jokers: int                        # jokers in hand and rows
    pile_sum: int
    reach: list[float]                 # pile value -> chance the opponent brings it to its goal card
    can_draw: bool                     # an emptied hand draws fresh cards (stock or completed piles left)
    dead_stop: float | None            # the worth of ending this turn without a play, when that ends the game


class PatienceBot:
    """A `choose` for one competitive patience, from its variant and weights."""

    def __init__(self, variant: Variant, style: Style | None = None) -> None:
        self.variant = variant
        self.style = style or Style()
        self.deck = Counter(card_set(variant))
        self.joker_places = tuple(value for value in range(KING) if fits(variant, value, JOKER))

    # -- the decision -------------------------------------------------------------------------------

    def choose(self, view: JSON, seat: int, legal_actions: list[Action], rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        reading = self.read(view, seat)
        plays = [a for a in legal_actions if a["type"] == "play"]
        endings = [a for a in legal_actions if a["type"] != "play"]
        play = self.plan(reading, [_play_of(a, reading) for a in plays], may_stop=bool(endings))
        if play is not None:
            return _action_for(play, plays, reading)
        return self.ending(reading, endings)

    def plan(self, reading: Reading, first: list[Play], may_stop: bool) -> Play | None:
        """The first play of the best sequence of plays this turn; None when stopping now is best."""
        root = reading.root
        best_score = self.stop_score(reading) if may_stop else float("-inf")
        best: Play | None = None
        seen = {root[:4]}
        budget = [NODE_BUDGET]
        ordered = sorted(dict.fromkeys(first), key=_order)
        for play in ordered:
            score = self._walk(reading, self.apply(root, play), seen, budget)
            if score > best_score:
                best_score, best = score, play
        if best is None and not may_stop:
            return ordered[0]
        return best

    def _walk(self, reading: Reading, node: Node, seen: set, budget: list[int]) -> float:
        """The best score reachable from `node` by stopping there or playing on (depth first, memoised)."""
        seen.add(node[:4])
        budget[0] -= 1
        if node[3] is None and reading.root[3] is not None or node[4] and reading.can_draw:
            return self.score(reading, node)  # goal card turned up or five cards drawn: plan again then
        best = self.score(reading, node) if self.may_stop(node) else float("-inf")
        if budget[0] <= 0:
            return best
        for play in self.plays(node):
            child = self.apply(node, play)
            if child[:4] not in seen:
                best = max(best, self._walk(reading, child, seen, budget))
        return best

    # -- the search space ---------------------------------------------------------------------------

    def plays(self, node: Node) -> list[Play]:
        """Every distinct play from `node`, goal card first and jokers last."""
        hand, rows, values, goal, _ = node
        targets = {0, *values}
        sources: list[tuple[str, int | None, str]] = []
        if goal is not None:
            sources.append(("goal", None, goal))
        sources.extend(("discard", row, cards[-1]) for row, cards in enumerate(rows) if cards)
        sources.extend(("hand", None, card) for card in dict.fromkeys(hand))
        out: list[Play] = []
        jokers: list[Play] = []
        for source, row, card in sources:
            value = value_of(card)
            if value is None:
                jokers.extend((source, row, card, place) for place in self.joker_places if place in targets)
            elif value - 1 in targets:
                out.append((source, row, card, value - 1))
        return out + jokers

    @staticmethod
    def apply(node: Node, play: Play) -> Node:
        hand, rows, values, goal, _ = node
        source, row, card, onto = play
        emptied = False
        if source == "hand":
            index = hand.index(card)
            hand = hand[:index] + hand[index + 1:]
            emptied = not hand
        elif source == "discard":
            rows = rows[:row] + (rows[row][:-1],) + rows[row + 1:]
        else:
            goal = None
        piles = list(values)
        if onto:
            piles.remove(onto)
        if onto + 1 < KING:
            piles.append(onto + 1)
        return hand, rows, tuple(sorted(piles)), goal, emptied

    def may_stop(self, node: Node) -> bool:
        """May the turn end here? Not while the variant's compulsory play (an Ace, a Two) is pending."""
        hand, _, values, goal, _ = node
        low = [card for card in hand if FRENCH_VALUE.get(card, KING) <= 2]
        if goal is not None and FRENCH_VALUE[goal] <= 2:
            low.append(goal)
        if not low:
            return True
        table = Table(None, None, (hand, ()), (() if goal is None else (goal,), ()), None, (),
                           tuple((i, _PILE_OF[v]) for i, v in enumerate(values)), 0, (), None)
        return self.variant.obligation(table, 0) is None

    # -- judging a position -------------------------------------------------------------------------

    def score(self, reading: Reading, node: Node) -> float:
        """The worth of ending the plays at `node` (before the discard)."""
        hand, rows, values, goal, emptied = node
        style = self.style
        hand_played = reading.hand_size - len(hand)
        in_rows = sum(len(cards) for cards in rows)
        row_played = reading.row_size - in_rows
        goal_played = goal is None and reading.root[3] is not None
        jokers_left = hand.count(JOKER) + sum(cards.count(JOKER) for cards in rows)
        completed = (reading.pile_sum + hand_played + row_played + goal_played - sum(values)) // KING
        score = (style.hand * hand_played + style.row * row_played + style.completed * completed
                 - style.joker * (reading.jokers - jokers_left))
        danger = style.danger * self.danger(reading, values)
        if goal_played:
            score += style.goal + (style.win if reading.goal_count == 1 else 0.0)
            danger *= style.turn_goes_on
        if emptied and reading.can_draw:
            score += style.emptied
            danger *= style.turn_goes_on
        return score - danger

    def stop_score(self, reading: Reading) -> float:
        if reading.dead_stop is not None:
            return reading.dead_stop
        return self.score(reading, reading.root)

    @staticmethod
    def danger(reading: Reading, values: tuple[int, ...]) -> float:
        """The chance that the opponent can bring some centre pile up to its goal card next turn."""
        safe = 1.0
        for value in set(values):
            safe *= 1.0 - reading.reach[value]
        return 1.0 - safe

    # -- reading the view ---------------------------------------------------------------------------

    def read(self, view: JSON, seat: int) -> Reading:
        me, them = view["players"][seat], view["players"][1 - seat]
        hand = tuple(sorted(me["hand"]))
        rows = tuple(tuple(cards) for cards in me["discards"])
        pile_values = {pile["id"]: pile["value"] for pile in view["centre"]}
        values = tuple(sorted(pile_values.values()))
        root: Node = (hand, rows, values, me["goal_top"], False)
        stock = view["stock_count"]
        unseen = self.unseen(view)
        return Reading(
            root=root, goal_count=me["goal_count"], pile_values=pile_values,
            hand_size=len(hand), row_size=sum(len(cards) for cards in rows),
            jokers=hand.count(JOKER) + sum(cards.count(JOKER) for cards in rows),
            pile_sum=sum(values), reach=self.opponent_reach(unseen, them, stock),
            can_draw=bool(stock or view["completed"]), dead_stop=self.dead_stop(view, me, them))

    def opponent_reach(self, unseen: Counter, them: JSON, stock: int) -> list[float]:
        """Per pile value, the chance that the opponent can build it up to its goal card's value − 1.

        Cards it shows on its discard rows count as held (a top, and the cards under it that follow on);
        a card of its hidden hand is held with the chance that one of its cards is of that value, the
        unseen cards being equally likely anywhere; one joker may fill one gap.
        """
        reach = [0.0] * KING
        goal = them["goal_top"]
        if goal is None or FRENCH_VALUE[goal] == 1:
            return reach
        hidden = them["hand_count"] + stock  # its next turn's hand comes from these
        held, joker = _draw_chances(unseen, min(HAND_SIZE, hidden), hidden)
        shown, shown_jokers = _on_rows(them["discards"])
        for value in shown:
            held[value] = 1.0
        if shown_jokers:
            joker = 1.0
        top = FRENCH_VALUE[goal] - 1
        for start in range(1, top + 1):
            reach[start] = self.chain(held, joker, start, top)
        return reach

    def chain(self, held: list[float], joker: float, start: int, top: int) -> float:
        """The chance of holding every value from `start` + 1 to `top`, one gap being filled by a joker."""
        needed = range(start + 1, top + 1)
        all_held = 1.0
        for value in needed:
            all_held *= held[value]
        one_gap = 0.0
        for value in needed:
            if value - 1 in self.joker_places and held[value] < 1.0:
                others = 1.0
                for other in needed:
                    if other != value:
                        others *= held[other]
                one_gap += (1.0 - held[value]) * others
        return min(1.0, all_held + joker * one_gap)

    def unseen(self, view: JSON) -> Counter:
        """The cards this seat has not seen: the opponent's hand, the stock, the goal piles under the tops."""
        seen: Counter = Counter()
        for player in view["players"]:
            seen.update(player["hand"] or ())
            if player["goal_top"] is not None:
                seen[player["goal_top"]] += 1
            for cards in player["discards"]:
                seen.update(cards)
        for pile in view["centre"]:
            seen.update(pile["cards"])
        seen.update(view["completed"])
        return self.deck - seen

    def dead_stop(self, view: JSON, me: JSON, them: JSON) -> float | None:
        """The worth of ending this turn without a play when that ends the game as blocked (nothing left to
        draw and the opponent's last turn was dead too): won, lost or drawn on the goal cards left."""
        if view["moved_this_turn"] or view["stock_count"] or view["completed"]:
            return None
        lead = them["goal_count"] - me["goal_count"]
        if view["dead_turns"] >= 1:  # the opponent's turn was dead too: stopping ends the game now
            return self.style.win * (1 if lead > 0 else -1 if lead < 0 else -0.5)
        return None

    # -- ending the turn ----------------------------------------------------------------------------

    def ending(self, reading: Reading, endings: list[Action]) -> Action:
        """The discard (or end of turn) that costs least."""
        rows, values = reading.root[1], reading.root[2]
        best, best_score = endings[0], float("-inf")
        for action in endings:
            if action["type"] == "discard":
                score = self.discard_score(action["card"], rows[action["pile"]], values)
            else:
                score = self.style.discard_over
            if score > best_score:
                best, best_score = action, score
        return best

    def discard_score(self, card: str, row: tuple[str, ...], values: tuple[int, ...]) -> float:
        """How well `card` sits on top of `row`: on a card one higher or equal, high cards on empty rows;
        never over a joker or over a lower card the centre will want soon."""
        value = value_of(card)
        if value is None:
            return -6.0
        spare = 0.15 * min(_distance(value, values), 8)  # a card the centre will not want soon
        if not row:
            return 1.0 + 0.25 * value + spare
        top = value_of(row[-1])
        if top is None:
            return -8.0 + spare
        if top == value + 1:
            return 4.0 + spare
        if top == value:
            return 3.5 + spare
        if top > value:
            return 2.5 - 0.3 * (top - value - 1) + spare
        return -2.0 - 2.5 / (1 + _distance(top, values)) + spare


def _on_rows(rows: list[list[str]] | tuple[tuple[str, ...], ...]) -> tuple[set[int], int]:
    """The values a player can take from its discard rows in one turn (each top and the cards under it
    that follow on, one higher each), and how many jokers lie on the way."""
    values: set[int] = set()
    jokers = 0
    for cards in rows:
        previous = None
        for card in reversed(cards):
            value = value_of(card)
            if value is None:
                jokers += 1
                break
            if previous is not None and value != previous + 1:
                break
            values.add(value)
            previous = value
    return values, jokers


def _draw_chances(unseen: Counter, cards: int, hidden_stock_pack: int) -> tuple[list[float], float]:
    """Per value (and for a joker), the chance that `cards` cards of the stock pack hold one.

    The unseen jokers are all among the `hidden_stock_pack` cards (the goal pack has none); the unseen
    plain cards are equally likely in either pack.
    """
    joker_share = min(1.0, unseen[JOKER] / max(hidden_stock_pack, 1))
    counts = [0] * (KING + 1)
    for card, count in unseen.items():
        value = FRENCH_VALUE.get(card)
        if value is not None:
            counts[value] += count
    plain = max(sum(counts), 1)
    held = [1.0 - (1.0 - (1.0 - joker_share) * count / plain) ** cards for count in counts]
    return held, 1.0 - (1.0 - joker_share) ** cards


def _distance(value: int, values: tuple[int, ...]) -> int:
    """How many cards must reach the centre before a card of `value` can be played."""
    return min((value - 1 - v for v in (0, *values) if v < value), default=KING)


def _order(play: Play) -> tuple[int, int]:
    source, _, card, _ = play
    return (source != "goal", card == JOKER)


def _play_of(action: Action, reading: Reading) -> Play:
    centre = action["center"]
    onto = 0 if centre == NEW else reading.pile_values[centre]
    return action["source"], action.get("pile"), action["card"], onto


def _action_for(play: Play, plays: list[Action], reading: Reading) -> Action:
    for action in plays:
        if _play_of(action, reading) == play:
            return action
    raise AssertionError(f"planned play {play} is not among the legal plays")
