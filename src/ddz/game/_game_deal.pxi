# The deal's generators in C: the Twister (random.Random's), the deal stream (SplitMix64), DealStream.
# Included by _game.pyx (Cython `include`: one module, so that the cdef functions of the
# play phase, the deal and the hand inline into each other); not compiled on its own.

# -- the deal: Python's Mersenne Twister in C ---------------------------------------

cdef void mt_init_genrand(MTState* m, uint32_t s) noexcept nogil:
    cdef int i
    m.mt[0] = s
    for i in range(1, MT_N):
        m.mt[i] = <uint32_t>(1812433253u * (m.mt[i - 1] ^ (m.mt[i - 1] >> 30)) + <uint32_t>i)
    m.mti = m.gen = MT_N


cdef MTState MT_INIT          # init_genrand(19650218), where every init_by_array starts


cdef void mt_init_table() noexcept:
    mt_init_genrand(&MT_INIT, 19650218u)


mt_init_table()


cdef void mt_seed(MTState* m, const uint32_t* key, Py_ssize_t n) noexcept nogil:
    """``init_by_array``: the state ``random.Random(seed)`` has, for the 32-bit words
    ``key[0:n]`` of ``abs(seed)`` (least significant first). Its first step,
    ``init_genrand(19650218)``, is the same for every seed: copied from a table."""
    cdef Py_ssize_t i = 1, j = 0, k
    memcpy(m.mt, MT_INIT.mt, sizeof(m.mt))
    m.mti = m.gen = MT_N
    k = MT_N if MT_N > n else n
    while k:
        m.mt[i] = <uint32_t>((m.mt[i] ^ ((m.mt[i - 1] ^ (m.mt[i - 1] >> 30)) * 1664525u))
                             + key[j] + <uint32_t>j)
        i += 1
        j += 1
        if i >= MT_N:
            m.mt[0] = m.mt[MT_N - 1]
            i = 1
        if j >= n:
            j = 0
        k -= 1
    k = MT_N - 1
    while k:
        m.mt[i] = <uint32_t>((m.mt[i] ^ ((m.mt[i - 1] ^ (m.mt[i - 1] >> 30)) * 1566083941u))
                             - <uint32_t>i)
        i += 1
        if i >= MT_N:
            m.mt[0] = m.mt[MT_N - 1]
            i = 1
        k -= 1
    m.mt[0] = 0x80000000u


cdef inline void mt_twist(MTState* m, int kk) noexcept nogil:
    """Twist word ``kk`` of a new round (the words before it twisted already, those after
    it not): MT19937's generation, one word at a time, in order."""
    cdef uint32_t y = (m.mt[kk] & 0x80000000u) | (m.mt[kk + 1 if kk + 1 < MT_N else 0] & 0x7fffffffu)
    m.mt[kk] = m.mt[kk + MT_M if kk + MT_M < MT_N else kk + MT_M - MT_N] ^ (y >> 1) ^ (0x9908b0dfu if y & 1 else 0u)


cdef void mt_complete(MTState* m) noexcept nogil:
    """Twist the rest of the round now (for ``getstate``: the whole array, as CPython has it)."""
    while m.gen < MT_N:
        mt_twist(m, m.gen)
        m.gen += 1


cdef uint32_t mt_next(MTState* m) noexcept nogil:
    """``genrand_uint32``: the next 32 random bits. A new round's words are twisted as
    they are drawn, in order (the same words as twisting all 624 at once: word ``kk`` reads
    words ``kk + 1`` and ``kk + 397``, untwisted yet, or ``kk - 227``, twisted already), so
    a deal that draws 60 words does not pay for 624."""
    cdef uint32_t y
    if m.mti >= MT_N:
        m.mti = m.gen = 0
    if m.mti >= m.gen:
        mt_twist(m, m.mti)
        m.gen = m.mti + 1
    y = m.mt[m.mti]
    m.mti += 1
    y ^= (y >> 11)
    y ^= (y << 7) & 0x9d2c5680u
    y ^= (y << 15) & 0xefc60000u
    y ^= (y >> 18)
    return y


cdef void mt_seed_u64(MTState* m, uint64_t seed) noexcept nogil:
    """Seed ``m`` as ``random.Random(seed)`` seeds itself from an int below 2**64 (its
    32-bit words, least significant first)."""
    cdef uint32_t key[2]
    key[0] = <uint32_t>(seed & 0xFFFFFFFFu)
    key[1] = <uint32_t>(seed >> 32)
    mt_seed(m, key, 2 if key[1] else 1)


cdef uint32_t mt_below(MTState* m, uint32_t n) noexcept nogil:
    """``Random._randbelow(n)`` for ``1 <= n < 2**32``: rejection sampling on
    ``getrandbits(n.bit_length())``."""
    cdef int k = 0
    cdef uint32_t b = n, r
    while b:
        k += 1
        b >>= 1
    r = mt_next(m) >> (32 - k)
    while r >= n:
        r = mt_next(m) >> (32 - k)
    return r


cdef class Twister:
    """The random generator of the deal: ``random.Random``'s MT19937 in C, bit for bit.

    ``Twister(seed)`` holds the same state as ``random.Random(seed)`` for any int seed
    (CPython seeds with the 32-bit words of ``abs(seed)``); :meth:`randrange` and
    :meth:`deal` draw exactly what ``Random.randrange`` and ``Random.shuffle`` would, so
    ``ddz.Game(seed=...)`` deals the same cards with or without the core (the module
    docstring of :mod:`ddz.game` defines the deal through ``random.Random``).
    :meth:`getstate` / :meth:`setstate` use ``random.Random``'s state format.
    """


    def __init__(self, seed=0):
        cdef Py_ssize_t i, nkey
        cdef uint32_t* key
        if isinstance(seed, bool) or not hasattr(seed, "__index__"):
            raise TypeError(f"a Twister seed is an int, not {type(seed).__name__}")
        n = abs(operator.index(seed))
        words = []
        while True:
            words.append(n & 0xFFFFFFFF)
            n >>= 32
            if not n:
                break
        nkey = len(words)
        key = <uint32_t*>malloc(nkey * sizeof(uint32_t))
        if key == NULL:
            raise MemoryError()
        for i in range(nkey):
            key[i] = <uint32_t>words[i]
        mt_seed(&self.m, key, nkey)
        free(key)

    def randrange(self, Py_ssize_t n):
        """``Random.randrange(n)`` for ``1 <= n < 2**32``."""
        if not 0 < n < 4294967296:
            raise ValueError(f"randrange({n}): n must be 1 .. 2**32 - 1")
        return mt_below(&self.m, <uint32_t>n)

    def deal(self, ranks, sizes):
        """Shuffle positions ``0 .. len(ranks) - 1`` as ``Random.shuffle`` would and cut
        them into consecutive parts of ``sizes``.

        :param ranks: the rank (0..14) of each card of the deck, in deck order (bytes or a
            sequence of ints).
        :param sizes: the size of each part, summing to ``len(ranks)``.
        :returns: ``(positions, counts)``: per part, its deck positions in ascending order
            (a tuple of ints) and its 15 rank counts (a tuple of ints).
        """
        return _cut_deal(ranks, sizes, None, self)

    def getstate(self):
        """The state in ``random.Random.getstate()``'s format (``Random().setstate`` takes it)."""
        mt_complete(&self.m)
        return (3, tuple([self.m.mt[i] for i in range(MT_N)]) + (self.m.mti,), None)

    def setstate(self, state):
        """Take a state of :meth:`getstate` or ``random.Random.getstate()``.
        :raises ValueError: not such a state."""
        cdef int i
        try:
            version, internal, gauss = state
            words = [int(w) for w in internal]
        except (TypeError, ValueError):
            raise ValueError("not a random.Random state") from None
        if version != 3 or len(words) != MT_N + 1 or not 0 <= words[MT_N] <= MT_N \
                or any(not 0 <= w < 4294967296 for w in words):
            raise ValueError("not a random.Random state of version 3")
        for i in range(MT_N):
            self.m.mt[i] = <uint32_t>words[i]
        self.m.mti = words[MT_N]
        self.m.gen = MT_N              # the array is this round's, whole

    def __reduce__(self):
        from ddz.game.deal import restored_rng      # portable: pure Python unpickles it too
        return (restored_rng, ("legacy", self.getstate()))


def _twister(state):
    t = Twister()
    t.setstate(state)
    return t


# -- the deal stream: SplitMix64 keyed by the seed (ddz.game.deal) ---------------------

cdef uint64_t mix64(uint64_t z) noexcept nogil:
    """SplitMix64's output function (Steele, Lea and Flood, 2014)."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t dr_word(uint64_t seed, uint64_t k) noexcept nogil:
    """Word ``k`` of the stream of ``seed``: ``mix64(seed + (k + 1) * 0x9E3779B97F4A7C15)``
    (mod 2**64), SplitMix64 started at the seed, a function of (seed, k) alone."""
    return mix64(seed + (k + 1) * <uint64_t>0x9E3779B97F4A7C15ULL)


cdef inline uint64_t dr_draw(DealRng* r) noexcept nogil:
    """The next 32-bit draw ``i = r.drawn``: the high half of word ``i // 2`` when ``i`` is
    even (the word kept in ``r.word``), its low half when odd."""
    r.drawn += 1
    if r.drawn & 1:
        r.word = dr_word(r.seed, (r.drawn - 1) >> 1)
        return r.word >> 32
    return r.word & 0xFFFFFFFFu


cdef void dr_set(DealRng* r, uint64_t seed, uint64_t drawn) noexcept nogil:
    """The stream of ``seed`` after ``drawn`` draws (the half-used word kept when odd)."""
    r.seed = seed
    r.drawn = drawn
    r.word = dr_word(seed, (drawn - 1) >> 1) if drawn & 1 else 0


cdef uint32_t dr_below(DealRng* r, uint32_t n) noexcept nogil:
    """Uniform in ``0 .. n - 1`` (``1 <= n < 2**32``): :func:`below_inline`."""
    return below_inline(r, n)


cdef inline uint32_t below_inline(DealRng* r, uint32_t n) noexcept nogil:
    """Uniform in ``0 .. n - 1`` (``1 <= n < 2**32``): Lemire's multiply-and-shift on the
    next draw ``x``, ``m = x * n``, drawn again while the low half of ``m`` is below
    ``2**32 mod n`` (so exactly uniform; with n <= 108 that is once in 40 million). Inline:
    the shuffle draws 53 or 107 of them in a row."""
    cdef uint64_t m = dr_draw(r) * <uint64_t>n
    cdef uint32_t t
    if <uint32_t>m < n:
        t = <uint32_t>(-n) % n
        while <uint32_t>m < t:
            m = dr_draw(r) * <uint64_t>n
    return <uint32_t>(m >> 32)


ctypedef fused deal_gen:       # the deal's generators: the stream, random.Random's for old records
    DealRng
    MTState


cdef void shuffle_positions(deal_gen* g, int* order, Py_ssize_t n) noexcept nogil:
    """``order[0:n]`` = ``0 .. n - 1`` shuffled by Fisher and Yates: for ``i`` from ``n - 1``
    down to 1, swap ``order[i]`` with ``order[below(i + 1)]``, ``below`` the generator's
    (``random.shuffle``'s order; with a Twister, ``random.Random.shuffle`` itself)."""
    cdef Py_ssize_t i, j
    cdef int t
    for i in range(n):
        order[i] = <int>i
    i = n - 1
    while i >= 1:
        if deal_gen is DealRng:
            j = below_inline(g, <uint32_t>(i + 1))
        else:
            j = mt_below(g, <uint32_t>(i + 1))
        t = order[i]
        order[i] = order[j]
        order[j] = t
        i -= 1


cdef int64_t vector_hand_seed(uint64_t seed, uint64_t j) noexcept nogil:
    """The seed of hand ``j`` of ``VectorGame(n, rules, seed)``:
    ``mix64(seed + (j + 1) * 0xD1B54A32D192ED03) >> 1`` (0 .. 2**63 - 1)."""
    return <int64_t>(mix64(seed + (j + 1) * <uint64_t>0xD1B54A32D192ED03ULL) >> 1)


cdef class DealStream:
    """The deal's generator (``ddz.game.deal``): SplitMix64 keyed by the seed, in C; the
    pure twin is ``ddz.game.deal.PyDealStream``, number for number.

    ``DealStream(seed)`` for ``0 <= seed < 2**64``; :meth:`randrange` and :meth:`deal`
    draw as the module docstring of :mod:`ddz.game.deal` says; :meth:`getstate` is
    ``("splitmix64", seed, 32-bit draws so far)`` and :meth:`setstate` takes it back.
    """

    def __init__(self, seed=0):
        if isinstance(seed, bool) or not hasattr(seed, "__index__"):
            raise TypeError(f"a DealStream seed is an int, not {type(seed).__name__}")
        seed = operator.index(seed)
        if not 0 <= seed < 2 ** 64:
            raise ValueError(f"a DealStream seed is 0 .. 2**64 - 1, not {seed}")
        dr_set(&self.r, <uint64_t>seed, 0)

    def randrange(self, Py_ssize_t n):
        """Uniform in ``0 .. n - 1`` for ``1 <= n < 2**32`` (the module's ``below``)."""
        if not 0 < n < 4294967296:
            raise ValueError(f"randrange({n}): n must be 1 .. 2**32 - 1")
        return dr_below(&self.r, <uint32_t>n)

    def deal(self, ranks, sizes):
        """Shuffle positions ``0 .. len(ranks) - 1`` and cut them into consecutive parts of
        ``sizes``: as :meth:`Twister.deal`, with this stream's shuffle.

        :returns: ``(positions, counts)``: per part, its deck positions ascending (a tuple
            of ints) and its 15 rank counts (a tuple of ints).
        """
        return _cut_deal(ranks, sizes, self, None)

    def getstate(self):
        """``("splitmix64", seed, 32-bit draws so far)``."""
        return ("splitmix64", self.r.seed, self.r.drawn)

    def setstate(self, state):
        """Take a state of :meth:`getstate`. :raises ValueError: not such a state."""
        try:
            kind, seed, drawn = state
        except (TypeError, ValueError):
            raise ValueError("not a DealStream state") from None
        if kind != "splitmix64" or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2 ** 64
                                           for v in (seed, drawn)):
            raise ValueError("not a DealStream state")
        dr_set(&self.r, <uint64_t>seed, <uint64_t>drawn)

    def __reduce__(self):
        from ddz.game.deal import restored_rng      # portable: pure Python unpickles it too
        return (restored_rng, ("stream", self.getstate()))


cdef object _cut_deal(ranks, sizes, DealStream ds, Twister tw):
    """Shuffle with ``ds`` or ``tw`` and cut (``DealStream.deal``, ``Twister.deal``)."""
    cdef Py_ssize_t n = len(ranks), i, lo, hi, p
    cdef int* order
    cdef bytes rk = bytes(ranks)
    cdef const unsigned char* r = rk
    cdef int cnt[NUM_RANKS]
    cdef char* seen
    if sum(sizes) != n or n < 1:
        raise ValueError("the parts must add up to the deck")
    order = <int*>malloc(n * sizeof(int))
    seen = <char*>malloc(n)
    if order == NULL or seen == NULL:
        free(order)
        free(seen)
        raise MemoryError()
    try:
        for i in range(n):
            if r[i] >= NUM_RANKS:
                raise ValueError(f"rank {r[i]} at deck position {i}")
        if ds is not None:
            shuffle_positions(&ds.r, order, n)
        else:
            shuffle_positions(&tw.m, order, n)
        positions, counts = [], []
        lo = 0
        for size in sizes:
            hi = lo + size
            memset(seen, 0, n)
            memset(cnt, 0, sizeof(cnt))
            for i in range(lo, hi):
                seen[order[i]] = 1
                cnt[r[order[i]]] += 1
            positions.append(tuple([p for p in range(n) if seen[p]]))
            counts.append(tuple([cnt[i] for i in range(NUM_RANKS)]))
            lo = hi
    finally:
        free(order)
        free(seen)
    return positions, counts
