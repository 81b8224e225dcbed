"""The deal stream of ``ddz.game.deal``'s docstring, written again from the text alone (not
from ``ddz``), so that tests can check the documented deal rather than the code against
itself: SplitMix64 started at the seed, Lemire's unbiased ``below``, Fisher–Yates."""

MASK = 2 ** 64 - 1


class SpecStream:
    """Word ``k`` of seed ``s`` is ``mix64(s + (k + 1) * 0x9E3779B97F4A7C15)`` mod 2**64; the
    32-bit draws are each word's high half, then its low half."""

    def __init__(self, seed):
        self.state = seed
        self.halves = []

    def draw(self):
        if not self.halves:
            w = self.word()
            self.halves = [w >> 32, w & 0xFFFFFFFF]
        return self.halves.pop(0)

    def word(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n):
        """Lemire: ``m = x * n`` for the next draw ``x``; again while the low half of ``m``
        is below ``2**32 mod n``."""
        while True:
            m = self.draw() * n
            if m % 2 ** 32 >= 2 ** 32 % n:
                return m // 2 ** 32

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def spec_deal(seed, decks_cards, seats, hand_size):
    """``(stream, parts)``: the documented first deal of ``seed``: the shuffled deck cut in
    seat order, each part sorted; the stream is left where the first bidder is drawn."""
    stream = SpecStream(seed)
    deck = list(decks_cards)
    stream.shuffle(deck)
    parts = [tuple(sorted(deck[i * hand_size:(i + 1) * hand_size])) for i in range(seats)]
    parts.append(tuple(sorted(deck[seats * hand_size:])))
    return stream, parts


def spec_hand_seed(seed, j):
    """Hand ``j`` of ``VectorGame(n, rules, seed)``: ``mix64(seed + (j + 1) *
    0xD1B54A32D192ED03 mod 2**64) >> 1``."""
    z = (seed + (j + 1) * 0xD1B54A32D192ED03) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return (z ^ (z >> 31)) >> 1
