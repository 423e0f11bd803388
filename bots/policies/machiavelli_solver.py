"""Exact Machiavelli lay-downs: the table plus the most hand cards, rearranged into valid melds.

The engine's `legal_actions` only samples melds; a bot needs the best one. The question "which multiset of
hand cards can join the table so that everything splits into sets and runs, and how" is a small integer
programme, solved exactly by HiGHS (`scipy.optimize.milp`):

* one integer variable per candidate meld (each set of 3–4 distinct suits of a rank, each run segment
  `low..high` of a suit, the Ace at 1 or 14; 373 in all, fewer once the cards that are not available
  are taken out), bounded by how many copies the two packs allow;
* one binary variable per copy of each hand card that some available meld holds (`y₁ ≥ y₂` so a
  multiset has one encoding; the other hand cards cannot be played at all);
* each card: copies in the chosen melds = copies on the table + copies played from the hand, so every
  table card is covered exactly and a hand card at most as often as it is held;
* objective: most hand cards played; among those, the fewest groups (longer melds leave more spare cards to
  rearrange later, and the table stays easy to read). The weights keep the two apart (≤ 35 groups < 100).

Public functions (pure, no Django; the search bot uses them for candidate moves):

* `best_melds(table, hand, limit=3, time_limit=…) -> list[action]`: up to `limit` `meld` actions, the
  maximum first, then the next best arrangements of *different* multisets of played cards (by cards played,
  then groups), found by re-solving with a no-good cut on the played cards; `[]` when no hand card can be
  laid. Exact answers are memoised by position (the search bot asks about the same positions again).
* `best_meld(table, hand, time_limit=…) -> action | None`: the first of those.
* `closing_meld(table, hand, time_limit=…) -> action | None`: a meld laying the whole hand, if any (the
  same programme with every hand card required; no solve at all when a hand card fits no possible meld).
* `added_cards(table, action) -> list[str]`: the hand cards an action lays.

An action is `{"type": "meld", "table": [[card, …], …]}`: the untouched table groups first, in table order
and exactly as given (the engine then skips them), then the new or changed groups in canonical order. Every
answer is checked again against the engine's own meld validator before it is returned, so a bot using it
never pays the failed-operation penalty. When HiGHS stops on its time limit the best arrangement found so
far is returned (still checked); `best_melds` is exact whenever it finishes. Measured on self-play positions
(`bench/machiavelli_bots.py`, a shared 2-core machine): p50 3–9 ms, p99 under 100 ms, hands up to 52 cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from games.rules.machiavelli.cards import CODE, NAME, code_of
from games.rules.machiavelli.melds import normalise_codes

Action = dict
#: Default cap on one HiGHS solve, in seconds (a mid-game solve takes a few milliseconds).
TIME_LIMIT = 1.0
_PLAY_WEIGHT = 100  # > the largest possible number of groups (104 / 3)
_SOLVE_ERROR = 4  # `milp` status: HiGHS stopped with an error (0 optimal, 1 time limit, 2 infeasible)
_TIME_LIMIT_HIT = 1
#: Memo of `best_melds` answers that finished (exact), by position: the search replays the same positions
#: many times (on an empty stock, two players' worlds are fully known and its rollouts repeat exactly).
_MEMO: dict[tuple, tuple[int, list[Action]]] = {}
_MEMO_LIMIT = 4_096


def _candidates() -> tuple[tuple[tuple[int, ...], ...], np.ndarray]:
    """Every possible meld as sorted codes (deduplicated: `A..K` read low or high is one multiset)."""
    found: dict[tuple[int, ...], None] = {}
    for rank in range(13):
        for suits in range(16):
            if bin(suits).count("1") >= 3:
                found[tuple(s * 13 + rank for s in range(4) if suits >> s & 1)] = None
    for suit in range(4):
        for low in range(1, 13):
            for high in range(low + 2, 15):
                found[tuple(sorted(code_of(suit, r) for r in range(low, high + 1)))] = None
    melds = tuple(found)
    matrix = np.zeros((52, len(melds)), dtype=np.int64)
    for column, codes in enumerate(melds):
        for code in codes:
            matrix[code, column] += 1
    return melds, matrix


_MELDS, _MATRIX = _candidates()


def _counts(cards: Sequence[str]) -> np.ndarray:
    out = np.zeros(52, dtype=np.int64)
    for card in cards:
        out[CODE[card]] += 1
    return out


class _Model:
    """The integer programme for one position; `solve` may be called again after `exclude`."""

    def __init__(self, table_counts: np.ndarray, hand_counts: np.ndarray) -> None:
        self.exact = True  # False once a solve stopped on its time limit
        avail = table_counts + hand_counts
        with np.errstate(divide="ignore"):
            caps = np.where(_MATRIX > 0, avail[:, None] // np.maximum(_MATRIX, 1), np.iinfo(np.int64).max)
        upper = caps.min(axis=0)
        self.columns = np.flatnonzero(upper > 0)
        rows = np.flatnonzero(avail > 0)
        coverable = _MATRIX[:, self.columns].any(axis=1)
        #: hand cards that no available meld holds can never be played: they get no variable
        self.stranded = int(hand_counts[~coverable].sum())
        self.hand_cards = [int(c) for c in np.flatnonzero(hand_counts * coverable) for _ in range(int(hand_counts[c]))]
        n_x, n_y = len(self.columns), len(self.hand_cards)
        self.n_x, self.n_y = n_x, n_y
        row_of = {int(c): i for i, c in enumerate(rows)}
        a_eq = np.zeros((len(rows), n_x + n_y))
        a_eq[:, :n_x] = _MATRIX[np.ix_(rows, self.columns)]
        for j, code in enumerate(self.hand_cards):
            a_eq[row_of[code], n_x + j] = -1
        self.constraints = [LinearConstraint(a_eq, table_counts[rows], table_counts[rows])]
        extra = []
        for j in range(1, n_y):  # the second copy of a card is played only with the first
            if self.hand_cards[j] == self.hand_cards[j - 1]:
                row = np.zeros(n_x + n_y)
                row[n_x + j - 1], row[n_x + j] = 1, -1
                extra.append(row)
        some = np.zeros(n_x + n_y)
        some[n_x:] = 1  # at least one hand card: a meld must add one
        extra.append(some)
        lows = [0.0] * (len(extra) - 1) + [1.0]
        self.constraints.append(LinearConstraint(np.array(extra), lows, np.inf))
        self.cost = np.concatenate([np.ones(n_x), np.full(n_y, -float(_PLAY_WEIGHT))])
        self.bounds = Bounds(np.zeros(n_x + n_y), np.concatenate([upper[self.columns], np.ones(n_y)]))

    def play_all(self) -> None:
        """Require every (playable) hand card to be laid."""
        lower = np.zeros(self.n_x + self.n_y)
        lower[self.n_x :] = 1
        self.bounds = Bounds(lower, self.bounds.ub)

    def solve(self, time_limit: float) -> tuple[list[tuple[int, ...]], list[int]] | None:
        """(melds with multiplicity, played copies as 0/1 per hand copy), or None (nothing playable)."""
        options = {"time_limit": time_limit}
        result = milp(self.cost, constraints=self.constraints, integrality=np.ones(self.n_x + self.n_y),
                      bounds=self.bounds, options=options)
        if result.status == _SOLVE_ERROR:  # HiGHS's presolve rarely fails (~1 position in 20,000): solve without
            result = milp(self.cost, constraints=self.constraints, integrality=np.ones(self.n_x + self.n_y),
                          bounds=self.bounds, options={**options, "presolve": False})
        self.exact &= result.status != _TIME_LIMIT_HIT
        if result.x is None:
            return None
        values = np.rint(result.x).astype(np.int64)
        melds = [_MELDS[self.columns[i]] for i in np.flatnonzero(values[: self.n_x]) for _ in range(values[i])]
        return melds, [int(v) for v in values[self.n_x :]]

    def exclude(self, played: list[int]) -> None:
        """Forbid this exact multiset of played cards in later solves (a no-good cut)."""
        row = np.zeros(self.n_x + self.n_y)
        row[self.n_x :] = [-1 if v else 1 for v in played]
        self.constraints.append(LinearConstraint(row[None, :], 1 - sum(played), np.inf))


def _action(table: Sequence[Sequence[str]], melds: list[tuple[int, ...]]) -> Action:
    """The meld action: untouched table groups first as given, then the new groups in canonical order."""
    wanted = Counter(melds)
    kept, new = [], []
    for group in table:
        key = tuple(sorted(CODE[c] for c in group))
        if wanted[key]:
            wanted[key] -= 1
            kept.append(list(group))
    for key in sorted(wanted.elements()):
        codes = normalise_codes(key)
        new.append([NAME[c] for c in codes or key])
    new.sort()
    return {"type": "meld", "table": kept + new}


def added_cards(table: Sequence[Sequence[str]], action: Action) -> list[str]:
    """The hand cards `action` lays: its cards minus the table's, in canonical order."""
    extra = Counter(c for group in action["table"] for c in group)
    extra.subtract(c for group in table for c in group)
    return sorted(extra.elements(), key=CODE.__getitem__)


def is_valid(table: Sequence[Sequence[str]], hand: Sequence[str], action: Action) -> bool:
    """Would the engine accept `action` as a successful meld? (Every group a meld, every table card kept,
    at least one card added, all added cards held.) An independent check of the solver's answer."""
    groups = action.get("table")
    try:
        if not isinstance(groups, list) or any(normalise_codes([CODE[c] for c in g]) is None for g in groups):
            return False
    except (KeyError, TypeError):  # not a card, or not a list of lists
        return False
    extra = Counter(c for group in groups for c in group)
    extra.subtract(c for group in table for c in group)
    if any(v < 0 for v in extra.values()):
        return False
    extra = +extra
    return bool(extra) and not extra - Counter(hand)


def best_melds(table: Sequence[Sequence[str]], hand: Sequence[str], limit: int = 3,
               time_limit: float = TIME_LIMIT) -> list[Action]:
    """Up to `limit` meld actions with distinct multisets of played cards, the maximum first (see module).

    Answers that finished within the time limit are memoised by (table as given, hand multiset): a fresh
    copy of the same actions comes back for the same position."""
    if not hand or limit < 1:
        return []
    key = (tuple(map(tuple, table)), tuple(sorted(hand)))
    known = _MEMO.get(key)
    if known is not None and (known[0] >= limit or len(known[1]) < known[0]):  # asked for as many, or all
        return [{"type": "meld", "table": [list(group) for group in action["table"]]} for action in known[1][:limit]]
    out, exact = _best_melds(table, hand, limit, time_limit)
    if exact:
        if len(_MEMO) >= _MEMO_LIMIT:
            _MEMO.clear()
        _MEMO[key] = (limit, [{"type": "meld", "table": [list(group) for group in action["table"]]}
                              for action in out])
    return out


def _best_melds(table: Sequence[Sequence[str]], hand: Sequence[str], limit: int, time_limit: float
                ) -> tuple[list[Action], bool]:
    """`best_melds` solved afresh, and whether every solve finished (the answer is then exact)."""
    if any(normalise_codes([CODE[c] for c in g]) is None for g in table):
        return [], True
    model = _Model(_counts([c for g in table for c in g]), _counts(hand))
    if not model.n_y:
        return [], True
    out = []
    for _ in range(limit):
        found = model.solve(time_limit)
        if found is None:
            break
        melds, played = found
        action = _action(table, melds)
        if not is_valid(table, hand, action):  # never expected; the engine would charge a penalty
            break
        out.append(action)
        model.exclude(played)
    return out, model.exact


def closing_meld(table: Sequence[Sequence[str]], hand: Sequence[str], time_limit: float = TIME_LIMIT
                 ) -> Action | None:
    """A meld laying the whole hand (closing the deal), or None when there is none. Cheaper than
    `best_meld` when the hand holds a card no meld can take (then no solve at all)."""
    if not hand or any(normalise_codes([CODE[c] for c in g]) is None for g in table):
        return None
    model = _Model(_counts([c for g in table for c in g]), _counts(hand))
    if model.stranded:
        return None
    model.play_all()
    found = model.solve(time_limit)
    if found is None:
        return None
    action = _action(table, found[0])
    return action if is_valid(table, hand, action) and len(added_cards(table, action)) == len(hand) else None


def best_meld(table: Sequence[Sequence[str]], hand: Sequence[str], time_limit: float = TIME_LIMIT
              ) -> Action | None:
    """The meld playing the most hand cards (fewest groups among those), or None when none can be laid."""
    found = best_melds(table, hand, 1, time_limit)
    return found[0] if found else None
