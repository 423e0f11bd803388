"""A representative, deterministic sample of `meld` actions (the engine contract allows a subset).

`decide` accepts every valid arrangement; this module only has to offer enough of them that random bots
make progress and deals end, and it runs at every step, so it must be cheap. For a given state it lists,
in this order and each capped:

1. additions: one hand card (or the longest stretch of hand cards) added to a table meld;
2. new melds from the hand alone: a set of every suit held of a rank, each maximal run held;
3. splits: a hand card that duplicates a card inside a run of 5+ splits it into two runs;
4. freed cards: a card a table meld can spare (any card of a 4-card set, an end of a run of 4+, a middle
   card of a run of 7+ that leaves two runs of 3+) joins hand cards in a new set or run.

The hand is four 13-bit rows, one a suit (`state.Rows`), and what each table group accepts, spares or can
be split by comes from `tables.py`, memoised per group and carried by the state for its table; small
integers and table lookups keep a step to a few dozen integer operations. It runs at every step of every
random playout, so its hot loops are plain loops (a comprehension builds a function at each call) and its
passes are called only when they may find something.

The actions share the lists of the table groups (read-only) with every other action, view and event. Each
meld action carries the table and hand it was listed for and how it changes the table (`MeldAction`), so
that `decide_listed`, handed back such an action for an equal table and hand and still unchanged, knows the new
table without checking the submission again (`outcome`); any other action is checked in full. Nothing is
remembered between calls.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.protocol import Action
from games.rules.machiavelli.cards import CODE, NAME
from games.rules.machiavelli.melds import Group, Table
from games.rules.machiavelli.state import Rows, hand_rows
from games.rules.machiavelli.tables import (
    ANY_SUIT,
    RANK_BIT,
    RUNS,
    SETS,
    Facts,
    Info,
    facts,
    rearranged,
)

#: A sampled meld: the index of the table group it replaces (-1: none) and the groups that replace it.
Meld = tuple[int, tuple[Info, ...]]

CAP_ADDITIONS = 5
CAP_NEW = 3
CAP_SPLITS = 2
CAP_FREED = 4

_ROW = (1 << 13) - 1
#: The Ace of each suit.
_ACE: tuple[str, ...] = tuple(NAME[suit * 13] for suit in range(4))


def _run_formable(row: int) -> int:
    """The ranks that make a 3-card run with two cards of `row` (the Ace after Q K as well as before 2 3)."""
    ace = row & 1
    below1 = (row << 1) & _ROW  # the rank below is held (nothing is below the Ace)
    below2 = (row << 2) & _ROW
    above1 = row >> 1 | ace << 12  # the rank above is held (the Ace is above the King)
    above2 = row >> 2 | ace << 11
    high_ace = row >> 12 & row >> 11 & 1  # Q K held: the Ace ends Q K A
    return (below1 & (below2 | above1)) | (above1 & above2) | high_ace


def _run_starts(row: int) -> int:
    """The held ranks that start three held ranks in a row (Q K A included)."""
    return (row & row >> 1 & row >> 2 & (1 << 11) - 1) | (row & row >> 1 & (row & 1) << 11)


#: By row, for every row (a lookup costs less than the bit operations): the row with its run-formable ranks
#: above it (`row | _run_formable(row) << 13`, see the hand keys of `sampled_melds`), and its run starts.
_RUN_KEY: tuple[int, ...] = tuple(row | _run_formable(row) << 13 for row in range(1 << 13))
_RUN_STARTS: tuple[int, ...] = tuple(map(_run_starts, range(1 << 13)))
_FORMABLE_PART = _ROW << 13


def _stretch(low: int, high: int, row: int, aces: int) -> tuple[int, int]:
    """Extend the ranks `low..high` down and up with the held ranks of `row`; `aces` copies of its Ace held."""
    while low > 1:
        if low == 2:
            if not aces:
                break
            aces -= 1
        elif not row >> (low - 2) & 1:
            break
        low -= 1
    while high < 14:
        if high == 13:
            if not aces:
                break
            aces -= 1
        elif not row >> high & 1:
            break
        high += 1
    return low, high


def meld_actions(table: Table, hand: tuple[str, ...]) -> list[dict]:
    """The sampled `meld` actions for a player holding `hand` in front of `table`."""
    return sampled_melds(facts(table), hand, hand_rows(hand), [])


def sampled_melds(known: Facts, hand: tuple[str, ...], rows: Rows, out: list[dict]) -> list[dict]:
    """`out` followed by the sampled `meld` actions for a player holding `hand` (whose rows are `rows`) in
    front of the table of `known` (`legal_actions` starts `out` with the draw or the pass)."""
    a, b, c, d = rows
    if not (a or b or c or d):
        return out
    infos = known[1]
    # the hand keys: the held ranks of each suit, and above them (<< 13) the ranks that make a set or a
    # 3-card run with two held cards; then, for a 4-card set, those of any suit
    ab, ac, ad, bc, bd, cd = a & b, a & c, a & d, b & c, b & d, c & d
    sa, sb, sc, sd = bc | bd | cd, ac | ad | cd, ab | ad | bd, ab | ac | bc  # ranks held in two other suits
    ka = _RUN_KEY[a] | sa << 13
    kb = _RUN_KEY[b] | sb << 13
    kc = _RUN_KEY[c] | sc << 13
    kd = _RUN_KEY[d] | sd << 13
    keys = (ka, kb, kc, kd, (ka | kb | kc | kd) & _FORMABLE_PART)
    # the table melds that may matter: one it can extend or split, or one that can spare a usable card
    useful = []
    index = 0
    for found in infos:  # a count, not `enumerate`: building its pairs costs more (14 groups a step)
        if found.wanted & keys[found.frame]:
            useful.append(index)
        index += 1  # noqa: SIM113
    melds: list[Meld] = []
    regroup = False  # may a useful meld be split or spare a card (else passes 3 and 4 find nothing)
    if useful:
        regroup = _additions(melds, useful, infos, rows, keys, hand)
    three = (ab & (c | d)) | (cd & (a | b))  # ranks held in three suits or more
    if three or _RUN_STARTS[a] or _RUN_STARTS[b] or _RUN_STARTS[c] or _RUN_STARTS[d]:
        _new_melds(melds, rows, three, hand)
    if regroup:
        _regroupings(melds, useful, infos, rows, keys, (sa, sb, sc, sd), hand)
    return _actions(known, hand, melds, out) if melds else out


def _aces(hand: tuple[str, ...], suit: int, row: int) -> int:
    """How many copies of the Ace of `suit` the hand holds (`row` is its row of that suit)."""
    return hand.count(_ACE[suit]) if row & 1 else 0


def _additions(melds: list[Meld], useful: list[int], infos: Sequence[Info], rows: Rows, keys: tuple[int, ...],
               hand: tuple[str, ...]) -> bool:
    """Pass 1: hand cards added to a table meld (one, or the longest stretch), CAP_ADDITIONS at most. Answers
    whether passes 3 and 4 may find something: a useful meld that a held card splits or that spares a card
    the hand can use (`Info.regroups` against the hand keys `keys`), seen on the way."""
    add = melds.append
    regroups = 0
    for index in useful:
        found = infos[index]
        regroups |= found.regroups & keys[found.frame]
        accepts = found.accepts
        if not accepts:
            continue
        hits = accepts & rows[found.frame]
        if not hits:
            continue
        key = found.key
        if found.is_set:
            add((index, (SETS[key - 1][found.suits | 1 << found.frame],)))
        else:
            low, high = found.low, found.high
            down, up = hits & RANK_BIT[low - 1], hits & RANK_BIT[high + 1]
            if down:
                add((index, (RUNS[key][low - 1][high],)))
            if up:
                add((index, (RUNS[key][low][high + 1],)))
            row = rows[key]
            # a longer stretch takes both ends, or two cards beyond one end
            if (down and (up or row & RANK_BIT[low - 2])) or (up and row & RANK_BIT[high + 2]):
                new_low, new_high = _stretch(low, high, row, _aces(hand, key, row))
                if new_high - new_low > high - low + 1:
                    add((index, (RUNS[key][new_low][new_high],)))
        if len(melds) >= CAP_ADDITIONS:
            del melds[CAP_ADDITIONS:]
            return True  # (the melds not looked at may)
    return regroups != 0


def _new_melds(melds: list[Meld], rows: Rows, three: int, hand: tuple[str, ...]) -> None:
    """Pass 2: new melds from the hand alone (sets by rank, then maximal runs by suit), CAP_NEW at most;
    `three`: the ranks held in three suits or more."""
    cap = len(melds) + CAP_NEW
    add = melds.append
    a, b, c, d = rows
    while three and len(melds) < cap:
        rank = (three & -three).bit_length() - 1
        three &= three - 1
        add((-1, (SETS[rank][(a >> rank & 1) | (b >> rank & 1) << 1 | (c >> rank & 1) << 2 | (d >> rank & 1) << 3],)))
    for suit, row in enumerate(rows):
        starts = _RUN_STARTS[row]
        while starts and len(melds) < cap:
            low = (starts & -starts).bit_length()
            _, high = _stretch(low, low, row, _aces(hand, suit, row) - (low == 1))
            add((-1, (RUNS[suit][low][high],)))
            starts &= -1 << min(high, 13)  # the starts inside this run are used up


def _regroupings(melds: list[Meld], useful: list[int], infos: Sequence[Info], rows: Rows, keys: tuple[int, ...],
                 sets: Rows, hand: tuple[str, ...]) -> None:
    """Passes 3 and 4, which regroup a table meld: a hand card that splits a long run in two (CAP_SPLITS at
    most), then a card a table meld can spare joining held cards in a new meld (CAP_FREED at most); `keys`:
    the hand keys of `sampled_melds`, `sets`: the ranks of each suit held in two other suits."""
    cap = len(melds) + CAP_SPLITS
    for index in useful:
        found = infos[index]
        splits = found.splits
        if splits and splits & rows[found.key]:
            key, low, high = found.key, found.low, found.high
            row = rows[key]
            for rank in range(low + 2, high - 1):
                if row >> (rank - 1) & 1:
                    melds.append((index, (RUNS[key][low][rank], RUNS[key][rank][high])))
            if len(melds) >= cap:
                del melds[cap:]
                break
    cap = len(melds) + CAP_FREED
    for index in useful:
        found = infos[index]
        spares = found.spares
        if not spares:
            continue
        if found.frame == ANY_SUIT:  # a 4-card set: its card of each suit in which the rank is formable
            for suit in range(4):
                if keys[suit] >> 13 & spares:
                    _add_freed(melds, index, found, suit, found.key, rows, sets, hand)
        else:
            usable = spares & keys[found.key] >> 13
            while usable:
                rank = (usable & -usable).bit_length()
                usable &= usable - 1
                _add_freed(melds, index, found, found.key, rank, rows, sets, hand)
        if len(melds) >= cap:
            del melds[cap:]
            return


def _add_freed(melds: list[Meld], index: int, found: Info, suit: int, rank: int, rows: Rows, sets: Rows,
               hand: tuple[str, ...]) -> None:
    """Note the melds of the card of `suit` and `rank` (1..13) freed from the table group `index` with
    held cards: a set, and the longest run through it; what remains of the group stays."""
    key, low, high = found.key, found.low, found.high
    if found.is_set:
        rest: tuple[Info, ...] = (SETS[key - 1][found.suits & ~(1 << suit)],)
    elif rank == low or rank == 1 and low == 1:  # the low end (an Ace at both ends: either is the same)
        rest = (RUNS[key][low + 1][high],)
    elif rank == high or rank == 1 and high == 14:
        rest = (RUNS[key][low][high - 1],)
    else:
        rest = (RUNS[key][low][rank - 1], RUNS[key][rank + 1][high])
    if sets[suit] >> (rank - 1) & 1:  # two other suits hold the rank
        shift = rank - 1
        a, b, c, d = rows
        suits = (a >> shift & 1) | (b >> shift & 1) << 1 | (c >> shift & 1) << 2 | (d >> shift & 1) << 3
        melds.append((index, (*rest, SETS[shift][suits | 1 << suit])))
    row = rows[suit]
    if _RUN_KEY[row] >> (12 + rank) & 1:  # two held cards make a run with it
        aces = _aces(hand, suit, row)
        for start in (1, 14) if rank == 1 else (rank,):
            low, high = _stretch(start, start, row, aces)
            if high - low >= 2:
                melds.append((index, (*rest, RUNS[suit][low][high])))


class MeldAction(dict):
    """A `meld` action as `sampled_melds` lists it: a plain dict to every reader (JSON, `==`, `dict(x)`,
    pickling and copies give a plain dict), which also carries what it was listed for and how its meld
    changes that table (`listed`: the facts of the table and the hand, shared by the actions of one answer;
    `meld`: its meld), so that `decide_listed`, handed it back, finds the outcome without the full check
    (`outcome`)."""

    __slots__ = ("listed", "meld")

    listed: tuple[Facts, tuple[str, ...]]
    meld: Meld

    def __reduce__(self) -> tuple[type, tuple[dict]]:
        return dict, (dict(self),)


def _actions(known: Facts, hand: tuple[str, ...], melds: list[Meld], out: list[dict]) -> list[dict]:
    """`out` followed by the action of each meld: the whole new table, the untouched groups first in table
    order."""
    lists = known[2]
    listed = (known, hand)
    append = out.append
    for meld in melds:
        skip, new = meld
        table = [*lists]  # (a copy built without a call, as the keywords below spare building a dict)
        if skip >= 0:
            del table[skip]
        for found in new:
            table.append(found.cards)
        action = MeldAction(type="meld", table=table)
        action.listed = listed
        action.meld = meld
        append(action)
    return out


def outcome(action: Action, table: Table, hand: tuple[str, ...]) -> tuple[Facts, tuple[str, ...]] | None:
    """What `check_submission` answers for a `MeldAction` that `sampled_melds` listed for a table and a
    hand equal to `table` and `hand`: the facts of the new table (`tables.rearranged`) and the hand cards
    added, in canonical order, found without checking the submission. Its table is compared with the one
    its meld makes, so that an action changed since is never mistaken for another. None for any other
    action (a plain dict, a copy, another table or hand), which needs the full check."""
    if type(action) is not MeldAction:
        return None
    known, held = action.listed
    skip, new = action.meld
    # equal values (the identity test only spares comparing a state's own tuples item by item)
    if not known[3] or (held is not hand and held != hand) or (known[0] is not table and known[0] != table):
        return None  # (and the full check sorts any table)
    expected = [*known[2]]
    if skip >= 0:
        del expected[skip]
    for found in new:
        expected.append(found.cards)
    if action.get("table") != expected:
        return None
    return rearranged(known, skip, new), _added(known, skip, new)


def _added(known: Facts, skip: int, new: tuple[Info, ...]) -> tuple[str, ...]:
    """The hand cards a meld lays (the cards of `new` less those of table group `skip`), in canonical order."""
    if skip < 0:  # a new meld from the hand alone
        return new[0].in_code_order
    removed = known[1][skip].group
    if len(new) == 1:  # an addition: the new group's cards not in the old one, already in canonical order
        grown = new[0]
        added = []
        for card in grown.in_code_order:
            if card not in removed:
                added.append(card)
        if len(added) == len(grown.group) - len(removed):  # (else a card is there twice: the Ace of A … K A)
            return tuple(added)
    return _difference(new, removed)


def _difference(new: tuple[Info, ...], removed: Group) -> tuple[str, ...]:
    """The cards of the groups `new` less those of `removed` (a multiset difference), in canonical order."""
    cards: list[str] = []
    for found in new:
        cards += found.group
    for card in removed:
        cards.remove(card)
    cards.sort(key=CODE.__getitem__)
    return tuple(cards)
