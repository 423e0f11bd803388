"""A representative, deterministic sample of `meld` actions (the engine contract allows a subset).

`decide` accepts every valid arrangement; this module only has to offer enough of them that random bots
make progress and deals end, and it runs at every step, so it must be cheap. For a given state it lists,
in this order and each capped:

1. additions: one hand card (or the longest stretch of hand cards) added to a table meld;
2. new melds from the hand alone: a set of every suit held of a rank, each maximal run held;
3. splits: a hand card that duplicates a card inside a run of 5+ splits it into two runs;
4. freed cards: a card a table meld can spare (any card of a 4-card set, an end of a run of 4+, a middle
   card of a run of 7+ that leaves two runs of 3+) joins hand cards in a new set or run.

The hand is a 52-bit mask over card codes (see `cards.py`); what each table group accepts, spares or can
be split by is computed once per group and memoised. The tables of the actions share the lists of the
untouched groups, which is harmless for JSON and much cheaper.
"""

from __future__ import annotations

from typing import NamedTuple

from games.rules.machiavelli.cards import CODE, NAME, code_of
from games.rules.machiavelli.melds import Group, Table, normalise_codes

CAP_ADDITIONS = 5
CAP_NEW = 3
CAP_SPLITS = 2
CAP_FREED = 4

_BIT: dict[str, int] = {name: 1 << code for name, code in CODE.items()}
_ROW = (1 << 13) - 1
_FULL = (1 << 52) - 1


class _Info(NamedTuple):
    """What a valid table meld offers to the generator."""

    is_set: bool
    key: int  # a set's rank (1..13), a run's suit (0..3)
    low: int  # a run's lowest rank (1 = low Ace)
    high: int  # a run's highest rank (14 = high Ace)
    accepts: int  # mask of the cards that extend it by one
    splits: int  # mask of the cards that split it in two runs
    spares: int  # mask of the cards it can give up and stay valid (or leave two valid runs)
    suits: int  # a set's 4-bit suit mask
    wanted: int  # (accepts | splits) | spares << 52: what makes it worth a look, tested in one operation


#: What a group that is no meld offers: nothing (only a caller's mistake puts one on a table).
_NOTHING = _Info(False, 0, 0, 0, 0, 0, 0, 0, 0)


_INFO: dict[Group, _Info] = {}
_CACHE_LIMIT = 50_000

#: _CARD[suit][rank]: the bit of the card of `suit` and `rank` (1..14, 14 = high Ace; 0 and 15: no card).
_CARD: tuple[tuple[int, ...], ...] = tuple(
    (0, *(1 << code_of(suit, rank) for rank in range(1, 15)), 0) for suit in range(4)
)
#: _SPAN[suit][low][high]: mask of the cards of `suit` with ranks low..high (1..14; 0 when low > high).
_SPAN: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(sum(1 << code_of(suit, r) for r in range(max(low, 1), high + 1)) for high in range(15))
          for low in range(16))
    for suit in range(4)
)


def _make_info(group: Group) -> _Info:
    codes = normalise_codes([CODE[c] for c in group])
    if codes is None:
        return _NOTHING
    size = len(codes)
    if codes[0] % 13 == codes[1] % 13:
        rank = codes[0] % 13
        suits = 0
        for code in codes:
            suits |= 1 << code // 13
        cards = (1 << rank) * 0x8004002001  # the four cards of this rank: bits rank + 13·suit
        held = sum(1 << code for code in codes)
        accepts = cards & ~held if size == 3 else 0
        spares = held if size == 4 else 0
        return _Info(True, rank + 1, 0, 0, accepts, 0, spares, suits, accepts | spares << 52)
    suit, low = codes[0] // 13, codes[0] % 13 + 1
    high = low + size - 1
    accepts = (1 << code_of(suit, low - 1) if low > 1 else 0) | (1 << code_of(suit, high + 1) if high < 14 else 0)
    span = _SPAN[suit]
    spares = 0
    if size >= 4:
        spares = 1 << codes[0] | 1 << codes[-1] | (span[low + 3][high - 3] if high - low >= 6 else 0)
    splits = span[low + 2][high - 2] if high - low >= 4 else 0
    return _Info(False, suit, low, high, accepts, splits, spares, 0, accepts | splits | spares << 52)


def _info(group: Group) -> _Info:
    try:
        return _INFO[group]
    except KeyError:
        pass
    found = _make_info(group)
    if len(_INFO) >= _CACHE_LIMIT:
        _INFO.clear()
    _INFO[group] = found
    return found


def _stretch(suit: int, low: int, high: int, mask: int, aces: int) -> tuple[int, int]:
    """Extend the ranks `low..high` of `suit` down and up with held cards; `aces` copies of its Ace held."""
    base = suit * 13 - 1
    while low > 1:
        if low == 2:
            if not aces:
                break
            aces -= 1
        elif not mask >> (base + low - 1) & 1:
            break
        low -= 1
    while high < 14:
        if high == 13:
            if not aces:
                break
            aces -= 1
        elif not mask >> (base + high + 1) & 1:
            break
        high += 1
    return low, high


#: _RUNS[suit][low][high]: the run of `suit` from rank `low` to `high` (1..14), as card ids.
_RUNS: tuple[tuple[tuple[Group, ...], ...], ...] = tuple(
    tuple(tuple(tuple(NAME[code_of(suit, r)] for r in range(low, high + 1)) for high in range(15))
          for low in range(15))
    for suit in range(4)
)
#: _SETS[rank][suits]: the cards of `rank` (0..12) in the suits of the 4-bit mask `suits`, as card ids.
_SETS: tuple[tuple[Group, ...], ...] = tuple(
    tuple(tuple(NAME[s * 13 + rank] for s in range(4) if suits >> s & 1) for suits in range(16))
    for rank in range(13)
)


#: Masks of card positions by rank, in every suit at once: the Aces, the 2s, the Queens, the Kings.
_ACES = sum(1 << 13 * suit for suit in range(4))
_NOT_ACES = _FULL & ~_ACES
_NOT_ACES_2S = _FULL & ~(_ACES | _ACES << 1)
_NOT_KINGS = _FULL & ~(_ACES << 12)
_NOT_QUEENS_KINGS = _FULL & ~(_ACES << 11 | _ACES << 12)
_LOW_STARTS = sum(((1 << 11) - 1) << 13 * suit for suit in range(4))  # Ace .. Jack: runs of 3 fit in the suit


def _formable(mask: int) -> int:
    """Mask of the cards that make a set or a 3-card run together with two held cards (bit tricks, all
    four suits at once; shifts that would cross into the next suit are masked off)."""
    # sets: bit X of `other_k` is the held bit of the same rank k suits further on
    other1 = ((mask >> 13) | (mask << 39)) & _FULL
    other2 = ((mask >> 26) | (mask << 26)) & _FULL
    other3 = ((mask >> 39) | (mask << 13)) & _FULL
    sets = (other1 & other2) | (other3 & (other1 | other2))
    # runs: the rank below / two below / above / two above is held; the Ace also follows the King
    aces = mask & _ACES
    below1 = (mask << 1) & _NOT_ACES
    below2 = (mask << 2) & _NOT_ACES_2S
    above1 = ((mask >> 1) & _NOT_KINGS) | aces << 12
    above2 = ((mask >> 2) & _NOT_QUEENS_KINGS) | aces << 11
    high_ace = (mask >> 12) & (mask >> 11) & _ACES  # Q K held: the Ace ends Q K A
    return sets | (below1 & (below2 | above1)) | (above1 & above2) | high_ace


def _run_starts(mask: int) -> int:
    """Mask of the held cards that start three held cards in a row of their suit (Q K A included)."""
    return (mask & (mask >> 1) & (mask >> 2) & _LOW_STARTS) | (mask & (mask >> 1) & (mask & _ACES) << 11)


def _useful(table: Table, mask: int, formable: int) -> list[tuple[int, _Info]]:
    """(index, info) of the table melds that may matter for this hand, in table order: a meld it can extend
    or split, or one that can spare a card the hand can use. One pass over the table, one test a group."""
    wanted = mask | formable << 52
    useful = []
    index = -1
    for group in table:
        index += 1
        try:
            info = _INFO[group]
        except KeyError:
            info = _info(group)
        if info[8] & wanted:
            useful.append((index, info))
    return useful


def meld_actions(table: Table, hand: tuple[str, ...]) -> list[dict]:
    """The sampled `meld` actions for a player holding `hand` in front of `table`."""
    mask = 0
    for card in hand:
        mask |= _BIT[card]
    if not mask:
        return []
    formable = _formable(mask)
    useful = _useful(table, mask, formable)
    # the passes note each meld as (index of the table group it replaces or -1, new groups)
    melds: list[tuple[int, tuple[Group, ...]]] = []
    add = melds.append

    # 1. additions to table melds
    for index, info in useful:
        is_set, key, low, high, accepts, _, _, suits, _ = info
        hits = accepts & mask
        if not hits:
            continue
        if is_set:
            while hits:
                code = (hits & -hits).bit_length() - 1
                hits &= hits - 1
                add((index, (_SETS[key - 1][suits | 1 << code // 13],)))
        else:
            if hits & _CARD[key][low - 1]:
                add((index, (_RUNS[key][low - 1][high],)))
            if hits & _CARD[key][high + 1]:
                add((index, (_RUNS[key][low][high + 1],)))
            new_low, new_high = _stretch(key, low, high, mask, hand.count(NAME[key * 13]))
            if new_high - new_low > high - low + 1:
                add((index, (_RUNS[key][new_low][new_high],)))
        if len(melds) >= CAP_ADDITIONS:
            break
    del melds[CAP_ADDITIONS:]

    # 2. new melds from the hand alone
    cap = len(melds) + CAP_NEW
    a, b, c, d = mask & _ROW, (mask >> 13) & _ROW, (mask >> 26) & _ROW, mask >> 39
    three = (a & b & (c | d)) | (c & d & (a | b))  # ranks held in three suits or more
    while three and len(melds) < cap:
        rank = (three & -three).bit_length() - 1
        three &= three - 1
        add((-1, (_SETS[rank][(a >> rank & 1) | (b >> rank & 1) << 1 | (c >> rank & 1) << 2 | (d >> rank & 1) << 3],)))
    starts = _run_starts(mask)
    while starts and len(melds) < cap:
        bit = (starts & -starts).bit_length() - 1
        suit, low = divmod(bit, 13)
        low += 1
        _, high = _stretch(suit, low, low, mask, hand.count(NAME[suit * 13]) - (low == 1))
        add((-1, (_RUNS[suit][low][high],)))
        starts &= ~((1 << (13 * suit + min(high, 13))) - 1)  # the starts inside this run are used up
    del melds[cap:]

    # 3. a hand card splits a long run in two
    cap = len(melds) + CAP_SPLITS
    for index, (_, suit, low, high, _, splits, _, _, _) in useful:
        if splits & mask:
            for rank in range(low + 2, high - 1):
                if mask >> code_of(suit, rank) & 1:
                    add((index, (_RUNS[suit][low][rank], _RUNS[suit][rank][high])))
            if len(melds) >= cap:
                break
    del melds[cap:]

    # 4. a card freed from a table meld joins hand cards in a new meld
    cap = len(melds) + CAP_FREED
    for index, info in useful:
        usable = info.spares & formable
        while usable:
            freed = (usable & -usable).bit_length() - 1
            usable &= usable - 1
            rest = _rest(info, freed)
            for meld in _melds_with(freed, mask, hand):
                add((index, (*rest, meld)))
        if len(melds) >= cap:
            break
    del melds[cap:]
    return _actions(table, melds)


def _actions(table: Table, melds: list[tuple[int, tuple[Group, ...]]]) -> list[dict]:
    """The action of each meld: the whole new table, the untouched groups first in table order. The actions
    share the lists of the untouched groups (fresh for each call)."""
    if not melds:
        return []
    base = [[*group] for group in table]
    out = []
    for skip, groups in melds:
        tbl = base.copy()
        if skip >= 0:
            del tbl[skip]
        for group in groups:
            tbl.append(list(group))
        out.append({"type": "meld", "table": tbl})
    return out


def _rest(info: _Info, freed: int) -> tuple[Group, ...]:
    """What remains of a table meld that gives up the card `freed` (one of its spares)."""
    is_set, key, low, high, _, _, _, suits, _ = info
    if is_set:
        return (_SETS[key - 1][suits & ~(1 << freed // 13)],)
    rank = freed % 13 + 1
    if rank == low or rank == 1 and low == 1:  # the low end (an Ace at both ends: either is the same)
        return (_RUNS[key][low + 1][high],)
    if rank == high or rank == 1 and high == 14:
        return (_RUNS[key][low][high - 1],)
    return (_RUNS[key][low][rank - 1], _RUNS[key][rank + 1][high])


def _melds_with(freed: int, mask: int, hand: tuple[str, ...]) -> list[Group]:
    """New melds made of the table card `freed` and held cards: a set, and the longest run through it."""
    out = []
    rank, suit = freed % 13, freed // 13
    suits = 0
    for s in range(4):
        if mask >> (s * 13 + rank) & 1:
            suits |= 1 << s
    if bin(suits & ~(1 << suit)).count("1") >= 2:
        out.append(_SETS[rank][suits | 1 << suit])
    aces = hand.count(NAME[suit * 13])
    for start in (1, 14) if rank == 0 else (rank + 1,):
        low, high = _stretch(suit, start, start, mask, aces)
        if high - low >= 2:
            out.append(_RUNS[suit][low][high])
    return out
