"""What each table group offers, worked out once per group and once per table.

Every step asks about the same table several times: the legal melds scan its groups, the view and the
meld event list them. A table is an immutable tuple that often survives several steps (every draw keeps
it), so states carry the facts of their table (`facts(table)`), worked out once. A meld that `legal.py`
generated derives the facts of the table it leaves from those of the table before (`rearranged`), and the
fold of its event reads them back from the event's lists, which carry them (`TableLists`, `facts_of`).
Every function here is a plain function of its arguments.

Every run and set has its info from the start (`RUNS`, `SETS`, `MELDS`, constants built at import), so the
facts of a table are found by look-ups; a group in another order (a table set up by hand) is worked out.

Cards are handled as 13-bit rows, one a suit, bit `rank - 1` for ranks 1..13 (see `state.Rows`): small
integers, whose operations cost a fraction of those on one 52-bit mask. The group lists (`Info.cards`)
are read-only (`games.engine.shared.SharedList`): the legal actions, views and events of every step share
them.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from operator import le

from games.engine.shared import SharedList
from games.rules.machiavelli.cards import CODE, NAME, code_of
from games.rules.machiavelli.melds import Group, Table, normalise_codes

#: RANK_BIT[rank]: the row bit of the card of rank 0..15 (14 = the high Ace, whose card is the Ace; 0 and
#: 15: no card).
RANK_BIT: tuple[int, ...] = (0, *(1 << rank - 1 for rank in range(1, 14)), 1, 0)
#: The frame of the hand key that holds the cards of any suit that would form a meld (`Info.frame`).
ANY_SUIT = 4


def _span(low: int, high: int) -> int:
    """The row of the ranks low..high (empty when low > high)."""
    return sum(RANK_BIT[rank] for rank in range(low, high + 1))


@dataclass(frozen=True, slots=True)
class Info:
    """What a table group offers to the meld generator, the group and its card list.

    `wanted` is what makes the group worth a look, to be tested against the hand key of `frame` (see
    `legal.sampled_melds`): cards of that suit it accepts or is split by, and cards it can spare (<< 13)
    that the hand can use. A 3-card set waits for one card, of its missing suit; a 4-card set spares a
    card of its rank whatever the suit (frame `ANY_SUIT`).
    """

    group: Group
    cards: SharedList = field(compare=False)  # the group as a read-only list of card ids
    in_code_order: Group  # its cards in canonical order (runs that end on the Ace differ)
    is_set: bool
    key: int  # a set's rank (1..13), a run's suit (0..3)
    low: int  # a run's lowest rank (1 = low Ace)
    high: int  # a run's highest rank (14 = high Ace)
    suits: int  # a set's 4-bit suit mask
    accepts: int  # row of the ranks that extend it by one, in suit `frame`
    splits: int  # a run's row of the ranks that split it in two runs
    spares: int  # row of the ranks it can give up and stay valid (or leave two valid runs)
    frame: int  # the suit its cards are in, or ANY_SUIT
    wanted: int  # accepts | splits | spares << 13
    regroups: int  # splits | spares << 13: the part of `wanted` that may regroup it (see `legal._regroupings`)
    normal: Info | None = field(default=None, compare=False)  # the group's normal form, when it differs


def _make_info(group: Group) -> Info:
    cards = SharedList(group)
    ordered = tuple(sorted(group, key=CODE.__getitem__))
    codes = normalise_codes([CODE[c] for c in group])
    if codes is None:  # no meld offers nothing (only a caller's mistake puts one on a table)
        return Info(group, cards, ordered, False, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    normal = tuple(NAME[code] for code in codes)
    if normal != group:  # 2 … K A, which the generator may build, is A 2 … K
        normal_info = _make_info(normal)
        return replace(normal_info, group=group, cards=cards, normal=normal_info)
    size = len(codes)
    if codes[0] % 13 == codes[1] % 13:
        rank = codes[0] % 13 + 1
        suits = sum(1 << code // 13 for code in codes)
        bit = RANK_BIT[rank]
        if size == 3:
            missing = (suits ^ 15).bit_length() - 1
            return Info(group, cards, ordered, True, rank, 0, 0, suits, bit, 0, 0, missing, bit, 0)
        return Info(group, cards, ordered, True, rank, 0, 0, suits, 0, 0, bit, ANY_SUIT, bit << 13, bit << 13)
    suit, low = codes[0] // 13, codes[0] % 13 + 1
    high = low + size - 1
    accepts = RANK_BIT[low - 1] | RANK_BIT[high + 1]
    spares = 0
    if size >= 4:
        spares = RANK_BIT[low] | RANK_BIT[high] | (_span(low + 3, high - 3) if high - low >= 6 else 0)
    splits = _span(low + 2, high - 2) if high - low >= 4 else 0
    return Info(group, cards, ordered, False, suit, low, high, 0, accepts, splits, spares, suit,
                accepts | splits | spares << 13, splits | spares << 13)


#: RUNS[suit][low][high]: the run of `suit` from rank `low` to `high` (1..14, at least 3 cards; else None).
RUNS: tuple[tuple[tuple[Info | None, ...], ...], ...] = tuple(
    tuple(tuple(_make_info(tuple(NAME[code_of(suit, r)] for r in range(low, high + 1))) if low and high - low >= 2
                else None for high in range(15))
          for low in range(15))
    for suit in range(4)
)
#: SETS[rank][suits]: the set of `rank` (0..12) in the suits of the 4-bit mask `suits` (3 or 4; else None).
SETS: tuple[tuple[Info | None, ...], ...] = tuple(
    tuple(_make_info(tuple(NAME[s * 13 + rank] for s in range(4) if suits >> s & 1)) if suits.bit_count() >= 3
          else None for suits in range(16))
    for rank in range(13)
)
#: Every meld in normal form -> its info (a constant: every valid group of a table is one of these).
MELDS: dict[Group, Info] = {
    found.group: found for found in (
        *(found for by_low in RUNS for by_high in by_low for found in by_high),
        *(found for by_suits in SETS for found in by_suits),
    ) if found is not None
}


def info(group: Group) -> Info:
    """The info of a group of known card ids: a meld's from `MELDS`, any other worked out."""
    found = MELDS.get(group)
    return found if found is not None else _make_info(group)


class TableLists(SharedList):
    """A table as JSON (a read-only list of its groups' read-only lists) that also carries the rest of its
    facts: the table, the infos of its groups and whether they are sorted. Only `facts` and `rearranged`
    build one, from those very facts, and nobody may change it, so the facts it carries are always those
    of its contents: a meld event holds one, and the fold of that event reads its facts back from it
    (`facts_of`) instead of working them out again. A copy (JSON storage, pickling) is a plain list, whose
    facts are worked out again."""

    __slots__ = ("table", "infos", "in_order")

    table: Table
    infos: Sequence[Info]
    in_order: bool


#: The facts of a table: `(table, infos, lists, in_order)`, the table, the infos of its groups in table
#: order (a sequence nobody changes), the table as JSON, a read-only list of their read-only lists
#: (`TableLists`), which views and meld events hand out as they are, and whether its groups are sorted
#: (as every table `decide` leaves). A plain tuple: one is built at every meld.
Facts = tuple[Table, Sequence[Info], SharedList, bool]


def _facts(table: Table, infos: Sequence[Info], lists: TableLists, in_order: bool) -> Facts:
    """The facts of `table`, whose group infos are `infos` and lists `lists` (new, which it completes)."""
    lists.table, lists.infos, lists.in_order = table, infos, in_order
    return table, infos, lists, in_order


#: The facts of the empty table.
NO_FACTS: Facts = _facts((), (), TableLists(), True)


def facts(table: Table) -> Facts:
    """The facts of `table`."""
    try:
        infos = tuple(map(MELDS.__getitem__, table))
    except KeyError:  # (a table set up by hand may hold groups in another order, or no meld)
        infos = tuple(map(info, table))
    in_order = all(map(le, table, islice(table, 1, None)))
    return _facts(table, infos, TableLists([found.cards for found in infos]), in_order)


def facts_of(lists: list) -> Facts:
    """The facts of the table of a meld event's JSON `lists`: the facts they carry when `facts` or
    `rearranged` built them (the event `decide` emitted), else worked out from the table (a stored event)."""
    if type(lists) is TableLists:
        return lists.table, lists.infos, lists, lists.in_order
    return facts(tuple(map(tuple, lists)))


def rearranged(known: Facts, skip: int, new: Sequence[Info]) -> Facts:
    """The facts of the sorted table of `known` with group `skip` (none when -1) replaced by the valid melds
    `new`, in normal form, kept sorted. The new lists are filled here, before anybody sees them (`list`'s
    own methods: `TableLists` refuses them)."""
    before, before_infos, before_lists, _ = known
    table, infos, lists = [*before], [*before_infos], TableLists(before_lists)
    if skip >= 0:
        del table[skip], infos[skip]
        list.pop(lists, skip)
    for found in new:
        found = found.normal or found
        at = bisect_right(table, found.group)
        table.insert(at, found.group)
        infos.insert(at, found)
        list.insert(lists, at, found.cards)
    return _facts(tuple(table), infos, lists, True)
