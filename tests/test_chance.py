"""The seeded chance is re-derivable from its documented recipe, and `decks` replace shuffles exactly."""

import hashlib

from games.engine.chance import Chance, seed_commitment, seeded_shuffle, shuffle_event, verify_shuffle


def _reference_shuffle(seed: bytes, label: str, cards: list[str]) -> list[str]:
    """The recipe of games/engine/chance.py written out plainly, as a third party would."""
    numbers: list[int] = []
    counter = 0

    def u64() -> int:
        nonlocal counter
        if not numbers:
            block = hashlib.sha256(seed + label.encode() + b"\x00" + counter.to_bytes(8, "big")).digest()
            counter += 1
            numbers.extend(int.from_bytes(block[k:k + 8], "big") for k in range(0, 32, 8))
        return numbers.pop(0)

    def below(n: int) -> int:
        limit = 2**64 - (2**64 % n)
        while (u := u64()) >= limit:
            pass
        return u % n

    out = sorted(cards)
    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def test_shuffles_follow_the_documented_recipe():
    cards = [f"{r}{s}" for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    seed = bytes(range(32))
    for n in range(5):
        chance = Chance(seed.hex(), (), n)
        order, number, source = chance.shuffle(list(reversed(cards)))
        assert (number, source) == (n, "seed")
        assert order == _reference_shuffle(seed, f"shuffle:{n}", cards)
        assert verify_shuffle(seed.hex(), n, order)
        assert not verify_shuffle(seed.hex(), n + 1, order)
    assert seeded_shuffle(seed, "shuffle:0", sorted(cards)) != seeded_shuffle(seed, "shuffle:1", sorted(cards))


def test_decks_replace_only_matching_shuffles():
    chance = Chance("00" * 32, [["B", "A", "C"], ["X"]])
    event, order = shuffle_event(chance, ["A", "B", "C"], "pack")
    assert order == ["B", "A", "C"] and event.data["source"] == "decks"
    assert event.visible_to == frozenset() and "cards" not in event.public
    _, n, source = chance.shuffle(["A", "B"])  # decks[1] does not fit: the seed decides
    assert (n, source) == (1, "seed")
    assert chance.shuffles_done == 2


def test_seed_commitment_is_sha256_of_the_raw_seed():
    assert seed_commitment("00ff") == hashlib.sha256(b"\x00\xff").hexdigest()
