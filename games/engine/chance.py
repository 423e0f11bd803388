"""Seeded, language-independent chance for engines.

Every random outcome of a game comes from here, and the derivation uses nothing but SHA-256, so anyone
holding the revealed seed can re-derive every shuffle in any language:

* A *stream* is named by a UTF-8 label. Its bytes are the concatenation of the blocks
  ``SHA-256(seed || label || 0x00 || counter)`` for ``counter = 0, 1, 2, ...`` written as 8-byte
  big-endian unsigned integers; ``seed`` is the raw seed bytes (the hex seed decoded).
* The stream is read 8 bytes at a time as big-endian unsigned 64-bit integers ``u``.
* ``randbelow(n)``: ``limit = 2**64 - (2**64 mod n)``; read ``u`` until ``u < limit``; return ``u mod n``.
* ``shuffle(cards)``: Fisher-Yates from the end: for ``i = len-1`` down to ``1``:
  ``j = randbelow(i + 1)``; swap positions ``i`` and ``j``. The input is the list of cards covered
  sorted by their UTF-8 bytes (so it is known from the outcome alone, whatever order the engine held
  them in); in the output index 0 is the top card.
* The n-th shuffle of a game (n counted from 0 over the whole game, including later deals and
  recycles) reads the stream labelled ``shuffle:<n>``. Other draws name their own label
  (e.g. ``first_dealer``).

A game may be created with ``decks``: the n-th list replaces the outcome of the n-th shuffle when it is a
permutation of exactly the cards that shuffle covers (otherwise the seeded outcome is used, and the
shuffle event records which source it took).
"""

from __future__ import annotations

import hashlib
import itertools
import operator
import secrets
import struct
from collections import Counter
from collections.abc import Iterator, Sequence

from games.engine.protocol import Event, InvalidOptions

_TWO_64 = 1 << 64


def new_seed() -> str:
    """A fresh secret seed, 32 random bytes as hex."""
    return secrets.token_hex(32)


def seed_commitment(seed_hex: str) -> str:
    """SHA-256 of the raw seed bytes, published at creation so the revealed seed can be checked."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


#: The 8-byte counters of the first blocks of a stream, written once (a 110-card shuffle reads 28 blocks).
_COUNTERS = tuple(counter.to_bytes(8, "big") for counter in range(64))


def _blocks(prefix: bytes, first: int, count: int) -> tuple[int, ...]:
    """The integers of blocks `first` .. `first + count - 1` of a stream, four per SHA-256 block."""
    if first + count <= len(_COUNTERS):
        counters = _COUNTERS[first : first + count]
    else:
        counters = tuple(counter.to_bytes(8, "big") for counter in range(first, first + count))
    sha256 = hashlib.sha256
    digests = b"".join([sha256(prefix + counter).digest() for counter in counters])
    return struct.unpack(f">{4 * count}Q", digests)


def _u64s(prefix: bytes) -> Iterator[int]:
    """The stream's 64-bit integers, in order."""
    for counter in itertools.count():
        yield from _blocks(prefix, counter, 1)


def _below(words: Iterator[int], n: int) -> int:
    """`randbelow(n)` of the recipe on the integers `words`."""
    limit = _TWO_64 - (_TWO_64 % n)
    u = next(words)
    while u >= limit:
        u = next(words)
    return u % n


class Stream:
    """The byte stream of one label, read as 64-bit integers."""

    __slots__ = ("_words",)

    def __init__(self, seed: bytes, label: str) -> None:
        self._words = _u64s(seed + label.encode("utf-8") + b"\x00")

    def next_u64(self) -> int:
        return next(self._words)

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        return _below(self._words, n)


def seeded_shuffle(seed: bytes, label: str, cards: Sequence[str]) -> list[str]:
    """Fisher-Yates over `cards` driven by the stream `label` (see the module docstring).

    Shuffles are most of a deal's cost, so the usual case reads every integer it needs at once: below
    `2**64 - len(cards)` no integer can be rejected by `randbelow(n)` for any n up to the pack size (the
    limit is `2**64 - (2**64 mod n)`). Should one be higher (odds about len**2 / 2**64), the shuffle reads
    the stream one integer at a time instead, with the recipe's rejection.
    """
    out = list(cards)
    size = len(out)
    prefix = seed + label.encode("utf-8") + b"\x00"
    words = _blocks(prefix, 0, (size + 2) // 4)  # at least size - 1 integers
    if not words or max(words) < _TWO_64 - size:
        for i, j in zip(range(size - 1, 0, -1), map(operator.mod, words, range(size, 1, -1)), strict=False):
            out[i], out[j] = out[j], out[i]
        return out
    stream = _u64s(prefix)
    for i in range(size - 1, 0, -1):
        j = _below(stream, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


class Chance:
    """The rng handed to `start` and `decide`: seeded streams plus the optional `decks` overrides.

    `shuffles_done` counts the shuffles of the game so far; the runner carries it between actions.
    """

    __slots__ = ("seed", "decks", "shuffles_done")

    def __init__(self, seed_hex: str, decks: Sequence[Sequence[str]] = (), shuffles_done: int = 0) -> None:
        self.seed = bytes.fromhex(seed_hex)
        self.decks = decks
        self.shuffles_done = shuffles_done

    def shuffle(self, cards: list[str]) -> tuple[list[str], int, str]:
        """Shuffle `cards` (any order in); return (order, shuffle number, source)."""
        n = self.shuffles_done
        self.shuffles_done += 1
        if n < len(self.decks) and Counter(self.decks[n]) == Counter(cards):
            return list(self.decks[n]), n, "decks"
        return seeded_shuffle(self.seed, f"shuffle:{n}", sorted(cards)), n, "seed"

    def randbelow(self, n: int, label: str) -> int:
        return Stream(self.seed, label).randbelow(n)


def shuffle_event(rng: Chance, cards: list[str], purpose: str) -> tuple[Event, list[str]]:
    """Shuffle and record it: the order is secret from every seat until the game ends."""
    order, n, source = rng.shuffle(cards)
    event = Event(
        "shuffle",
        {"n": n, "purpose": purpose, "cards": order, "source": source},
        public={"n": n, "purpose": purpose, "count": len(order), "source": source},
        visible_to=frozenset(),
    )
    return event, order


def check_decks(decks: object, universe: Counter) -> list[list[str]]:
    """Shape check of a `decks` option: lists of known cards, none holding more copies than exist."""
    if not isinstance(decks, list) or not all(isinstance(d, list) for d in decks):
        raise InvalidOptions("decks must be a list of card lists", "invalid_decks")
    for index, deck in enumerate(decks):
        if not all(isinstance(c, str) for c in deck):
            raise InvalidOptions(f"decks[{index}] must hold card ids (strings)", "invalid_decks")
        counts = Counter(deck)
        extra = counts - universe
        if extra:
            shown = ", ".join(sorted(extra))
            raise InvalidOptions(f"decks[{index}] holds cards this game does not have: {shown}", "invalid_decks")
    return [list(d) for d in decks]


def verify_shuffle(seed_hex: str, n: int, order: Sequence[str]) -> bool:
    """True when `order` is what the seed gives for the n-th shuffle of the cards it holds."""
    return seeded_shuffle(bytes.fromhex(seed_hex), f"shuffle:{n}", sorted(order)) == list(order)
