"""Meld validation: is a group a set or a run, and is a submitted table a legal rearrangement?

This is the heart of Machiavelli, and it runs on every submitted `meld` action, so it works on integer codes.

Rules (machiavelli.md §4): a *set* is 3 or 4 cards of one rank in distinct suits; a *run* is 3 or more
cards of one suit with consecutive ranks in `A 2 … K A`, the Ace low or high but never wrapping, and the
14-card run `A 2 … K A` uses both Aces of the suit.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain, compress, count
from operator import ne
from typing import Any

from games.engine.protocol import IllegalAction
from games.rules.machiavelli.cards import CARD_IDS, CODE, NAME

Group = tuple[str, ...]
Table = tuple[Group, ...]

def normalise_codes(codes: list[int] | tuple[int, ...]) -> tuple[int, ...] | None:
    """The group in canonical order (sets by suit, runs from the low end) or None if it is no meld."""
    size = len(codes)
    if size < 3:
        return None
    ordered = sorted(codes)  # suits in blocks S H D C, each A..K
    suit = ordered[0] // 13
    if ordered[-1] // 13 != suit:  # several suits: only a set fits (one rank, each suit once)
        if size > 4:
            return None
        rank = ordered[0] % 13
        previous = -1
        for code in ordered:
            if code % 13 != rank or code == previous:
                return None
            previous = code
        return tuple(ordered)
    ace = suit * 13
    aces = 0
    while aces < size and ordered[aces] == ace:
        aces += 1
    rest = ordered[aces:]  # the non-Aces: must be consecutive, each once
    if not rest or rest != list(range(rest[0], rest[0] + len(rest))):
        return None
    if aces == 0:
        return tuple(rest)
    low, high = rest[0] % 13, rest[-1] % 13  # 1..12 for ranks 2..K
    if aces == 1:
        if low == 1:  # A 2 3 …: the Ace low (also for A 2 … K, where both readings agree)
            return (ace, *rest)
        if high == 12:  # … Q K A
            return (*rest, ace)
        return None
    if aces == 2 and low == 1 and high == 12:  # A 2 … K A
        return (ace, *rest, ace)
    return None


def is_meld(cards: list[str] | tuple[str, ...]) -> bool:
    """True when `cards` (known card ids) form a valid set or run."""
    return normalise_codes([CODE[c] for c in cards]) is not None


def verdict(group: Group) -> Group | None:
    """The normalised form of a group of known card ids, None if it is not a meld."""
    codes = normalise_codes(list(map(CODE.__getitem__, group)))
    return None if codes is None else tuple(map(NAME.__getitem__, codes))


def _match(table: Table, groups: list[Group]) -> tuple[list[Group], list[Group], list[Group]]:
    """Pair submitted groups with equal table groups: (kept, changed = the rest submitted, removed = the rest
    of the table). Any pairing is correct, since the cards of `changed` and `removed` are compared next; a
    good one just leaves less to check. Tried in order of cost: the table unchanged and new groups after it
    (a pure lay-down); one table group replaced, the others in table order and the new groups after them
    (how `legal_actions` sends it; found with C-level comparisons); a walk in table order; counting."""
    size = len(table)
    in_order = list(table)
    first = next(compress(count(), map(ne, groups, in_order)), min(size, len(groups)))  # the first difference
    if first == size:
        return in_order, groups[size:], []
    if groups[first : size - 1] == in_order[first + 1 :]:
        del in_order[first]
        return in_order, groups[size - 1 :], [table[first]]
    kept: list[Group] = []
    changed: list[Group] = []
    removed: list[Group] = []
    index = 0
    for group in groups:
        if index < size:
            if group == table[index]:
                kept.append(group)
                index += 1
                continue
            if index + 1 < size and group == table[index + 1]:
                removed.append(table[index])
                kept.append(group)
                index += 2
                continue
        changed.append(group)
    removed.extend(table[index:])
    if len(changed) + len(removed) <= 6:
        return kept, changed, removed
    on_table, submitted = Counter(table), Counter(groups)
    return (list((on_table & submitted).elements()), list((submitted - on_table).elements()),
            list((on_table - submitted).elements()))


def check_submission(table: Table, hand: tuple[str, ...], submission: Any) -> tuple[Table | None, tuple[str, ...]]:
    """Check a `meld` submission against the current table and the player's hand.

    Structural faults raise `IllegalAction` (`invalid_action`, `unknown_card`, `table_card_missing`,
    `card_not_in_hand`, `no_card_added`). Otherwise returns `(new_table, added)`: `new_table` is the
    normalised table, or None when some group is not a valid meld, and `added` the hand cards it uses, in
    canonical order. Normal form: each group in canonical order (sets by suit S H D C, runs from the low
    end), the groups sorted by their card ids (plain string order).

    Groups submitted exactly as they lie on the table (normal form) are matched first and skipped: the
    table only ever holds valid melds, so only the changed groups need counting and checking.
    """
    if not isinstance(submission, list):
        raise IllegalAction("invalid_action", "'table' must be a list of groups, each a list of cards")
    try:
        groups = list(map(tuple, submission))
        kept, changed, removed = _match(table, groups)
        added = list(chain.from_iterable(changed))
        known = CARD_IDS.issuperset(added)
    except TypeError:
        raise IllegalAction("invalid_action", "'table' must be a list of groups, each a list of card ids") from None
    if not known:
        shown = ", ".join(sorted({repr(c) for c in added if c not in CARD_IDS}))
        raise IllegalAction("unknown_card", f"not a card of this game: {shown}")
    for card in chain.from_iterable(removed):
        try:
            added.remove(card)
        except ValueError:
            raise IllegalAction("table_card_missing", f"table cards may not be taken back: {card} is missing") from None
    if not added:
        raise IllegalAction("no_card_added", "a meld must add at least one card from your hand; draw instead")
    held = list(hand)
    for card in added:
        try:
            held.remove(card)
        except ValueError:
            raise IllegalAction("card_not_in_hand", f"you do not hold (enough copies of) {card}") from None
    added.sort(key=CODE.__getitem__)
    for raw in changed:
        found = verdict(raw)
        if found is None:
            return None, tuple(added)
        kept.append(found)
    kept.sort()
    return tuple(kept), tuple(added)
