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


_INFO: dict[Group, _Info | None] = {}
_CACHE_LIMIT = 50_000

#: _SPAN[suit][low][high]: mask of the cards of `suit` with ranks low..high (1..14; 0 when low > high).
_SPAN: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(sum(1 << code_of(suit, r) for r in range(max(low, 1), high + 1)) for high in range(15))
          for low in range(16))
    for suit in range(4)
)


def _make_info(group: Group) -> _Info | None:
    codes = normalise_codes([CODE[c] for c in group])
    if codes is None:
        return None
    size = len(codes)
    if codes[0] % 13 == codes[1] % 13:
        rank = codes[0] % 13
        suits = 0
        for code in codes:
            suits |= 1 << code // 13
        cards = (1 << rank) * 0x8004002001  # the four cards of this rank: bits rank + 13·suit
        held = sum(1 << code for code in codes)
        return _Info(True, rank + 1, 0, 0, cards & ~held if size == 3 else 0, 0, held if size == 4 else 0, suits)
    suit, low = codes[0] // 13, codes[0] % 13 + 1
    high = low + size - 1
    accepts = (1 << code_of(suit, low - 1) if low > 1 else 0) | (1 << code_of(suit, high + 1) if high < 14 else 0)
    span = _SPAN[suit]
    spares = 0
    if size >= 4:
        spares = 1 << codes[0] | 1 << codes[-1] | (span[low + 3][high - 3] if high - low >= 6 else 0)
    return _Info(False, suit, low, high, accepts, span[low + 2][high - 2] if high - low >= 4 else 0, spares, 0)


def _info(group: Group) -> _Info | None:
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


def _lanes(mask: int) -> int:
    """The held cards as one 16-bit lane per suit, bit r = rank r held (r = 1..14, the Ace at both ends)."""
    r0, r1, r2, r3 = mask & _ROW, (mask >> 13) & _ROW, (mask >> 26) & _ROW, mask >> 39
    return ((r0 << 1) | ((r0 & 1) << 14) | (r1 << 17) | ((r1 & 1) << 30)
            | (r2 << 33) | ((r2 & 1) << 46) | (r3 << 49) | ((r3 & 1) << 62))


def _formable(mask: int, lanes: int) -> int:
    """Mask of the cards that make a set or a 3-card run together with two held cards (bit tricks)."""
    # sets: bit X of `other_k` is the held bit of the same rank k suits further on
    other1 = ((mask >> 13) | (mask << 39)) & _FULL
    other2 = ((mask >> 26) | (mask << 26)) & _FULL
    other3 = ((mask >> 39) | (mask << 13)) & _FULL
    up, down = lanes << 1, lanes >> 1
    runs = (up & (lanes << 2)) | (up & down) | (down & (lanes >> 2))
    return ((other1 & other2) | (other1 & other3) | (other2 & other3)
            | ((runs >> 1) & _ROW) | ((runs >> 14) & 1)
            | (((runs >> 17) & _ROW) | ((runs >> 30) & 1)) << 13
            | (((runs >> 33) & _ROW) | ((runs >> 46) & 1)) << 26
            | (((runs >> 49) & _ROW) | ((runs >> 62) & 1)) << 39)


def meld_actions(table: Table, hand: tuple[str, ...]) -> list[dict]:
    """The sampled `meld` actions for a player holding `hand` in front of `table`."""
    mask = 0
    for card in hand:
        mask |= _BIT[card]
    if not mask:
        return []
    lanes = _lanes(mask)
    formable = _formable(mask, lanes)
    infos = list(map(_info, table))
    useful = [
        (index, info) for index, info in enumerate(infos)
        if info is not None and ((info[4] | info[5]) & mask or info[6] & formable)
    ]
    out: list[dict] = []
    base: list[list[str]] = []

    def emit(skip: int, groups: tuple[Group, ...]) -> None:
        if not base and table:
            base.extend(map(list, table))
        tbl = base[:skip] + base[skip + 1 :] if skip >= 0 else base[:]
        tbl.extend(map(list, groups))
        out.append({"type": "meld", "table": tbl})

    # 1. additions to table melds
    for index, info in useful:
        is_set, key, low, high, accepts, _, _, _ = info
        hits = accepts & mask
        if not hits:
            continue
        if is_set:
            while hits:
                code = (hits & -hits).bit_length() - 1
                hits &= hits - 1
                emit(index, (_SETS[key - 1][info.suits | 1 << code // 13],))
        else:
            if low > 1 and mask >> code_of(key, low - 1) & 1:
                emit(index, (_RUNS[key][low - 1][high],))
            if high < 14 and mask >> code_of(key, high + 1) & 1:
                emit(index, (_RUNS[key][low][high + 1],))
            new_low, new_high = _stretch(key, low, high, mask, hand.count(NAME[key * 13]))
            if new_high - new_low > high - low + 1:
                emit(index, (_RUNS[key][new_low][new_high],))
        if len(out) >= CAP_ADDITIONS:
            break
    del out[CAP_ADDITIONS:]

    # 2. new melds from the hand alone
    cap = len(out) + CAP_NEW
    a, b, c, d = mask & _ROW, (mask >> 13) & _ROW, (mask >> 26) & _ROW, mask >> 39
    three = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)
    while three and len(out) < cap:
        rank = (three & -three).bit_length() - 1
        three &= three - 1
        emit(-1, (_SETS[rank][(a >> rank & 1) | (b >> rank & 1) << 1 | (c >> rank & 1) << 2 | (d >> rank & 1) << 3],))
    starts = lanes & (lanes >> 1) & (lanes >> 2)  # bit 16·suit + r: ranks r, r+1, r+2 held
    while starts and len(out) < cap:
        bit = (starts & -starts).bit_length() - 1
        suit, low = bit >> 4, bit & 15
        _, high = _stretch(suit, low, low, mask, hand.count(NAME[suit * 13]) - (low == 1))
        emit(-1, (_RUNS[suit][low][high],))
        starts &= ~((1 << (16 * suit + high + 1)) - 1)
    del out[cap:]

    # 3. a hand card splits a long run in two
    cap = len(out) + CAP_SPLITS
    for index, (_, suit, low, high, _, splits, _, _) in useful:
        if splits & mask:
            for rank in range(low + 2, high - 1):
                if mask >> code_of(suit, rank) & 1:
                    emit(index, (_RUNS[suit][low][rank], _RUNS[suit][rank][high]))
            if len(out) >= cap:
                break
    del out[cap:]

    # 4. a card freed from a table meld joins hand cards in a new meld
    cap = len(out) + CAP_FREED
    for index, info in useful:
        usable = info.spares & formable
        while usable:
            freed = (usable & -usable).bit_length() - 1
            usable &= usable - 1
            rest = _rest(info, freed)
            for meld in _melds_with(freed, mask, hand):
                emit(index, (*rest, meld))
        if len(out) >= cap:
            break
    del out[cap:]
    return out


def _rest(info: _Info, freed: int) -> tuple[Group, ...]:
    """What remains of a table meld that gives up the card `freed` (one of its spares)."""
    is_set, key, low, high, _, _, _, suits = info
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
