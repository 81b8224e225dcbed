# cython: language_level=3
"""The Cython core: classify, compare and enumerate Dou Dizhu plays (RULES.md §2).

Layout
------
* A hand (or any card multiset) is a 15-slot ``uint8`` count vector, rank index 0..14
  (RULES.md §1). ``uint8`` holds the two-deck counts of RULES.md §7 (up to 8) as is.
* A move is the compact int64 code of :mod:`ddz.play` (``Play.code``): kicker counts
  2 bits per rank in bits 0..29, main rank in 30..33, chain length in 34..38, type in
  39..43; the pass is 0.
* Type properties (body width, highest body rank, kickers per body rank and their size,
  shortest chain) are C tables indexed by type, so the kernels read the rules as data.

Enumeration order (the reference's, see :mod:`ddz.reference`): the pass first when
responding, then type, chain length, main rank, and kickers as ascending rank tuples in
lexicographic order. The generator walks types, lengths and main ranks in ascending
order and picks kickers by a depth-first search over ranks in ascending order (a rank
may repeat only under ``kickers="repeat"``), which produces exactly that order: nothing
is sorted.

The ``cdef`` kernels (declared in ``_core.pxd``) are ``noexcept nogil`` and touch no
Python object. The ``def`` functions below are their thin Python-callable twins; they
trust their input (``ddz.fast`` validates at the public boundary).
"""

cimport cython
cimport numpy as cnp
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

import numpy as np

cnp.import_array()

cdef extern from *:
    """
    /* per play type (PlayType order): copies of each body rank */
    static const int DDZ_WIDTH[15] = {0, 1, 2, 3, 3, 3, 1, 2, 3, 3, 3, 4, 4, 4, 1};
    /* highest main rank */
    static const int DDZ_TOP[15] = {0, 14, 12, 12, 12, 12, 11, 11, 11, 11, 11, 12, 12, 12, 14};
    /* kickers per body rank, and cards per kicker */
    static const int DDZ_KNUM[15] = {0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 2, 2, 0, 0};
    static const int DDZ_KSIZE[15] = {0, 0, 0, 0, 1, 2, 0, 0, 0, 1, 2, 1, 2, 0, 0};
    /* shortest chain (1 for non-chains) and whether the type is a chain */
    static const int DDZ_MINLEN[15] = {0, 1, 1, 1, 1, 1, 5, 3, 2, 2, 2, 1, 1, 1, 1};
    static const int DDZ_CHAIN[15] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0};
    """
    const int DDZ_WIDTH[15]
    const int DDZ_TOP[15]
    const int DDZ_KNUM[15]
    const int DDZ_KSIZE[15]
    const int DDZ_MINLEN[15]
    const int DDZ_CHAIN[15]

# decks in the only game implemented so far (RULES.md §2); the two-deck game of §7
# changes the joker cap, the bomb widths and the rocket, not the layout.
cdef enum:
    DECKS = 1

cdef int64_t ROCKET_CODE = ((<int64_t>T_ROCKET) << CODE_TYPE_SHIFT) | \
    ((<int64_t>1) << CODE_LENGTH_SHIFT) | ((<int64_t>BIG_JOKER) << CODE_RANK_SHIFT)

MAX_MOVES_PY = MAX_MOVES


cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int ddz_ctz(unsigned int x) { unsigned long i; _BitScanForward(&i, x); return (int)i; }
    static __inline int ddz_popcount(unsigned int x) { return (int)__popcnt(x); }
    #else
    static inline int ddz_ctz(unsigned int x) { return __builtin_ctz(x); }
    static inline int ddz_popcount(unsigned int x) { return __builtin_popcount(x); }
    #endif
    """
    int ctz "ddz_ctz"(unsigned int x) nogil
    int popcount "ddz_popcount"(unsigned int x) nogil


cdef enum:
    CHAIN_MASK = (1 << CHAIN_RANKS) - 1
    PAIR_KICK_MASK = (1 << (RANK_2 + 1)) - 1     # pair kickers: 3..2, never jokers


cdef struct Gen:
    int64_t* out     # NULL: count only
    Py_ssize_t n
    int repeat
    uint32_t m[5]            # m[w]: bit r set when the hand holds >= w copies of rank r
    uint8_t cap[NUM_RANKS]   # single-kicker copies available per rank, before the body


cdef inline void emit(Gen* g, int64_t code) noexcept nogil:
    if g.out != NULL:
        g.out[g.n] = code
    g.n += 1


cdef inline int64_t head(int t, int length, int rank) noexcept nogil:
    return ((<int64_t>t) << CODE_TYPE_SHIFT) | ((<int64_t>length) << CODE_LENGTH_SHIFT) \
        | ((<int64_t>rank) << CODE_RANK_SHIFT)


cdef void gen_init(Gen* g, const uint8_t* h, int repeat, int64_t* out) noexcept nogil:
    """Per-hand tables: rank masks by copies held, and single-kicker caps
    (RULES.md §2.1: at most 3 of a rank under "repeat", 1 under "distinct", one of each joker)."""
    cdef int r, c, w
    g.out = out
    g.n = 0
    g.repeat = repeat
    for w in range(5):
        g.m[w] = 0
    for r in range(NUM_RANKS):
        c = h[r]
        for w in range(1, 5):
            if c >= w:
                g.m[w] |= 1u << r
        if r >= SMALL_JOKER:
            if c > DECKS:
                c = DECKS
        elif not repeat:
            if c > 1:
                c = 1
        elif c > 3:
            c = 3
        g.cap[r] = <uint8_t>c


cdef inline uint32_t chain_starts(uint32_t s, int length) noexcept nogil:
    """Bit ``lo`` set when ranks ``lo .. lo+length-1`` are all in ``s``."""
    cdef uint32_t x = s
    cdef int i
    for i in range(1, length):
        x &= s >> i
    return x


cdef void singles_dfs(Gen* g, int64_t code, uint8_t* cap, uint32_t avail, const int* suf,
                      int k, int start) noexcept nogil:
    """Every multiset of ``k`` single kickers within ``cap`` (``avail``: the ranks whose
    cap is not 0), ascending from ``start``, in lexicographic order; never both jokers
    (RULES.md §2.1 rule 2). ``suf[r]``: an upper bound of the kickers left at ranks >= r."""
    cdef int r
    cdef uint32_t bits = avail & ~((1u << start) - 1)
    if (code >> (2 * SMALL_JOKER)) & 3:
        bits &= ~(1u << BIG_JOKER)
    if k == 1:
        while bits:
            r = ctz(bits)
            bits &= bits - 1
            emit(g, code + ((<int64_t>1) << (2 * r)))
        return
    while bits:
        r = ctz(bits)
        bits &= bits - 1
        if r > start and suf[r] < k:
            return
        cap[r] -= 1
        singles_dfs(g, code + ((<int64_t>1) << (2 * r)), cap,
                    avail if cap[r] else avail & ~(1u << r), suf, k - 1,
                    r if g.repeat else r + 1)
        cap[r] += 1


cdef void pairs_dfs(Gen* g, int64_t code, uint32_t ok, int k) noexcept nogil:
    """Every set of ``k`` pair kickers of different ranks among the bits of ``ok``,
    in lexicographic order."""
    cdef int r
    cdef uint32_t rest
    if k == 1:
        while ok:
            r = ctz(ok)
            ok &= ok - 1
            emit(g, code + ((<int64_t>2) << (2 * r)))
        return
    while ok:
        r = ctz(ok)
        ok &= ok - 1
        rest = ok
        # fewer than k-1 ranks left above r: no more sets
        if popcount(rest) < k - 1:
            return
        pairs_dfs(g, code + ((<int64_t>2) << (2 * r)), rest, k - 1)


cdef void gen_shape(Gen* g, const uint8_t* h, int t, int length, int minhi) noexcept nogil:
    """Every play of type ``t`` and chain length ``length`` with main rank >= ``minhi``
    that ``h`` holds, in move order (main rank ascending, then kickers)."""
    cdef int w = DDZ_WIDTH[t]
    cdef int k = DDZ_KNUM[t] * length
    cdef int ks = DDZ_KSIZE[t]
    cdef int chain = DDZ_CHAIN[t]
    cdef int hi, lo, r
    cdef uint32_t starts, body, free_
    cdef uint8_t cap[NUM_RANKS]
    cdef int suf[NUM_RANKS + 1]
    cdef int64_t base
    if w > 4:
        return
    if chain:
        starts = chain_starts(g.m[w] & CHAIN_MASK, length)
    else:
        starts = g.m[w] & ((2u << DDZ_TOP[t]) - 1)
    if minhi > length - 1:
        starts &= ~((1u << (minhi - length + 1)) - 1)
    while starts:
        lo = ctz(starts)
        starts &= starts - 1
        hi = lo + length - 1
        base = head(t, length, hi)
        body = ((1u << length) - 1) << lo
        if ks == 0:
            emit(g, base)
        elif ks == 2:
            pairs_dfs(g, base, g.m[2] & PAIR_KICK_MASK & ~body, k)
        elif k == 1:                  # one single kicker: any other rank held
            free_ = g.m[1] & ~body
            while free_:
                r = ctz(free_)
                free_ &= free_ - 1
                emit(g, base + ((<int64_t>1) << (2 * r)))
        else:
            memcpy(cap, g.cap, NUM_RANKS)
            for r in range(lo, hi + 1):
                cap[r] = 0            # rule 1: never the body's rank
            if chain:                 # "repeat": a trio next to the chain would lengthen it
                if lo > 0 and cap[lo - 1] > 2:
                    cap[lo - 1] = 2
                if hi + 1 < CHAIN_RANKS and cap[hi + 1] > 2:
                    cap[hi + 1] = 2
            suf[NUM_RANKS] = 0
            free_ = 0
            for r in range(NUM_RANKS - 1, -1, -1):
                suf[r] = suf[r + 1] + cap[r]
                if cap[r]:
                    free_ |= 1u << r
            if suf[0] >= k:
                singles_dfs(g, base, cap, free_, suf, k, 0)


cdef Py_ssize_t gen_moves(const uint8_t* hand, int64_t to_beat_code, int repeat,
                          int max_cards, int64_t* out) noexcept nogil:
    """Legal moves of ``hand`` against ``to_beat_code`` (0: leading) into ``out``
    (NULL: count only). Leading, chains are at most ``max_cards`` cards long (the
    universe is the full deck's leading moves with ``max_cards = rules.max_hand``)."""
    cdef Gen g
    cdef int t, length, per, total = 0, r, bt, bl, br
    gen_init(&g, hand, repeat, out)
    for r in range(NUM_RANKS):
        total += hand[r]
    if total > max_cards:
        total = max_cards
    if to_beat_code == 0:
        for t in range(T_SINGLE, T_BOMB + 1):
            per = DDZ_WIDTH[t] + DDZ_KNUM[t] * DDZ_KSIZE[t]
            if DDZ_CHAIN[t]:
                length = DDZ_MINLEN[t]
                # a chain exists only if the one a rank shorter does
                while length <= CHAIN_RANKS and length * per <= total \
                        and chain_starts(g.m[DDZ_WIDTH[t]] & CHAIN_MASK, length):
                    gen_shape(&g, hand, t, length, 0)
                    length += 1
            elif per <= total:
                gen_shape(&g, hand, t, 1, 0)
    else:
        emit(&g, 0)
        bt = <int>((to_beat_code >> CODE_TYPE_SHIFT) & 31)
        bl = <int>((to_beat_code >> CODE_LENGTH_SHIFT) & 31)
        br = <int>((to_beat_code >> CODE_RANK_SHIFT) & 15)
        if bt >= T_ROCKET or bt <= T_PASS:
            return g.n
        if bt == T_BOMB:
            gen_shape(&g, hand, T_BOMB, 1, br + 1)
        else:
            if bl >= 1 and bl <= CHAIN_RANKS and bl * (DDZ_WIDTH[bt] + DDZ_KNUM[bt] * DDZ_KSIZE[bt]) <= total:
                gen_shape(&g, hand, bt, bl, br + 1)
            gen_shape(&g, hand, T_BOMB, 1, 0)
    if hand[SMALL_JOKER] and hand[BIG_JOKER]:
        emit(&g, ROCKET_CODE)
    return g.n


cdef Py_ssize_t legal_codes(const uint8_t* hand, int64_t to_beat_code, int repeat,
                            int64_t* out) noexcept nogil:
    return gen_moves(hand, to_beat_code, repeat, 1 << 20, out)


cdef Py_ssize_t count_legal(const uint8_t* hand, int64_t to_beat_code, int repeat) noexcept nogil:
    return gen_moves(hand, to_beat_code, repeat, 1 << 20, NULL)


# -- classification -------------------------------------------------------------

cdef int single_kickers_ok(const uint8_t* kick, int lo, int hi, int repeat, int chain) noexcept nogil:
    """RULES.md §2.1 for single kickers (mirrors ``reference.single_kickers_ok``)."""
    cdef int r, c
    for r in range(NUM_RANKS):
        c = kick[r]
        if c == 0:
            continue
        if lo <= r <= hi or c >= 4 or (c > 1 and not repeat):
            return 0
        if r >= SMALL_JOKER and c > DECKS:
            return 0
        if c == 3 and chain and r < CHAIN_RANKS and (r == lo - 1 or r == hi + 1):
            return 0
    if kick[SMALL_JOKER] and kick[BIG_JOKER]:
        return 0
    return 1


cdef int pair_kickers_ok(const uint8_t* kick, int lo, int hi) noexcept nogil:
    cdef int r, c
    for r in range(NUM_RANKS):
        c = kick[r]
        if c == 0:
            continue
        if c != 2 or r > RANK_2 or lo <= r <= hi:
            return 0
    return 1


cdef int readings_codes(const uint8_t* cards, int repeat, int max_cards,
                        int64_t* out) noexcept nogil:
    """Every reading of ``cards`` as a play, in move order; returns how many (at most
    ``MAX_READINGS``). No cards: the pass (code 0). More than ``max_cards``: none."""
    cdef int n = 0, cnt = 0, r, t, w, per, length, hi, lo, ks, ok
    cdef uint8_t rest[NUM_RANKS]
    cdef int64_t kick
    for r in range(NUM_RANKS):
        n += cards[r]
    if n == 0:
        out[0] = 0
        return 1
    if n > max_cards:
        return 0
    for t in range(T_SINGLE, T_BOMB + 1):
        w = DDZ_WIDTH[t]
        ks = DDZ_KSIZE[t]
        per = w + DDZ_KNUM[t] * ks
        if n % per:
            continue
        length = n // per
        if DDZ_CHAIN[t]:
            if length < DDZ_MINLEN[t] or length > CHAIN_RANKS:
                continue
        elif length != 1:
            continue
        for hi in range(length - 1, DDZ_TOP[t] + 1):
            lo = hi - length + 1
            ok = 1
            for r in range(lo, hi + 1):
                if cards[r] < w:
                    ok = 0
                    break
            if not ok:
                continue
            for r in range(NUM_RANKS):
                rest[r] = cards[r]
            for r in range(lo, hi + 1):
                rest[r] -= w
            if ks == 0:
                for r in range(NUM_RANKS):
                    if rest[r]:
                        ok = 0
                        break
            elif ks == 1:
                ok = single_kickers_ok(rest, lo, hi, repeat, DDZ_CHAIN[t])
            else:
                ok = pair_kickers_ok(rest, lo, hi)
            if ok and cnt < MAX_READINGS:
                kick = 0
                for r in range(NUM_RANKS):
                    kick |= (<int64_t>rest[r]) << (2 * r)
                out[cnt] = head(t, length, hi) | kick
                cnt += 1
    if n == 2 and cards[SMALL_JOKER] == 1 and cards[BIG_JOKER] == 1 and cnt < MAX_READINGS:
        out[cnt] = ROCKET_CODE
        cnt += 1
    return cnt


cdef int beats_code(int64_t a, int64_t b) noexcept nogil:
    """Does play ``a`` beat play ``b``? RULES.md §2.2 (mirrors ``reference._beats``)."""
    cdef int ta = <int>((a >> CODE_TYPE_SHIFT) & 31)
    cdef int tb = <int>((b >> CODE_TYPE_SHIFT) & 31)
    cdef int ra = <int>((a >> CODE_RANK_SHIFT) & 15)
    cdef int rb = <int>((b >> CODE_RANK_SHIFT) & 15)
    if ta == T_PASS or tb == T_ROCKET:    # nothing beats a rocket
        return 0
    if ta == T_ROCKET:
        return 1
    if ta == T_BOMB:
        return tb != T_BOMB or ra > rb
    if tb == T_BOMB:
        return 0
    return ta == tb and ((a >> CODE_LENGTH_SHIFT) & 31) == ((b >> CODE_LENGTH_SHIFT) & 31) \
        and ra > rb


cdef void code_counts(int64_t code, uint8_t* dst) noexcept nogil:
    """The 15 card counts of a play code."""
    cdef int t = <int>((code >> CODE_TYPE_SHIFT) & 31)
    cdef int length = <int>((code >> CODE_LENGTH_SHIFT) & 31)
    cdef int hi = <int>((code >> CODE_RANK_SHIFT) & 15)
    cdef int r
    for r in range(NUM_RANKS):
        dst[r] = <uint8_t>((code >> (2 * r)) & 3)
    if t == T_PASS:
        return
    if t == T_ROCKET:
        dst[SMALL_JOKER] += 1
        dst[BIG_JOKER] += 1
        return
    if t > T_ROCKET or hi >= NUM_RANKS or length < 1 or length > hi + 1:
        return                # not a play code (trusted input never gets here)
    for r in range(NUM_RANKS):
        if hi - length < r <= hi:
            dst[r] += <uint8_t>DDZ_WIDTH[t]


# -- Python-callable twins (trusting their input) ----------------------------------

cdef inline cnp.ndarray codes_array(Py_ssize_t n):
    """A new ``int64[n]`` array (through the C API: a Python-level ``np.empty`` call
    costs more than generating a whole hand's moves)."""
    cdef cnp.npy_intp dims[1]
    dims[0] = n
    return cnp.PyArray_EMPTY(1, dims, cnp.NPY_INT64, 0)

cdef int64_t _BUF[MAX_MOVES]


cdef int load_cards(object cards, uint8_t* dst) except -1:
    """Copy 15 counts from a C-contiguous ``uint8[15]`` array or a sequence of ints."""
    cdef cnp.ndarray arr
    cdef Py_ssize_t i
    if cnp.PyArray_Check(cards):
        arr = <cnp.ndarray>cards
        if (cnp.PyArray_TYPE(arr) == cnp.NPY_UINT8 and cnp.PyArray_NDIM(arr) == 1
                and cnp.PyArray_DIM(arr, 0) == NUM_RANKS and cnp.PyArray_IS_C_CONTIGUOUS(arr)):
            memcpy(dst, cnp.PyArray_DATA(arr), NUM_RANKS)
            return 0
    if len(cards) != NUM_RANKS:
        raise ValueError("15 counts expected")
    for i in range(NUM_RANKS):
        dst[i] = <uint8_t>cards[i]
    return 0


def hand_ok(object hand, int max_hand):
    """``True`` if ``hand`` is a C-contiguous ``uint8[15]`` array that is a possible
    one-deck hand of at most ``max_hand`` cards (the fast path of argument checking:
    anything else is checked by :mod:`ddz._args`)."""
    cdef cnp.ndarray arr
    cdef const uint8_t* h
    cdef int r, n = 0
    if not cnp.PyArray_Check(hand):
        return False
    arr = <cnp.ndarray>hand
    if not (cnp.PyArray_TYPE(arr) == cnp.NPY_UINT8 and cnp.PyArray_NDIM(arr) == 1
            and cnp.PyArray_DIM(arr, 0) == NUM_RANKS and cnp.PyArray_IS_C_CONTIGUOUS(arr)):
        return False
    h = <const uint8_t*>cnp.PyArray_DATA(arr)
    for r in range(NUM_RANKS):
        if h[r] > (DECKS if r >= SMALL_JOKER else 4 * DECKS):
            return False
        n += h[r]
    return n <= max_hand


def fits(object hand, int64_t code):
    """``True`` if ``hand`` and the play ``code`` together fit in the deck."""
    cdef uint8_t h[NUM_RANKS]
    cdef uint8_t p[NUM_RANKS]
    cdef int r
    load_cards(hand, h)
    code_counts(code, p)
    for r in range(NUM_RANKS):
        if h[r] + p[r] > (DECKS if r >= SMALL_JOKER else 4 * DECKS):
            return False
    return True


def legal_codes_array(object hand, int64_t to_beat_code, int repeat):
    """Legal move codes: ``int64[n]`` in move order (the pass, code 0, first when
    responding). ``hand``: ``uint8[15]`` or 15 ints; ``to_beat_code`` 0 to lead."""
    cdef uint8_t h[NUM_RANKS]
    cdef Py_ssize_t n
    cdef cnp.ndarray res
    load_cards(hand, h)
    n = legal_codes(h, to_beat_code, repeat, _BUF)  # GIL held: _BUF is shared
    res = codes_array(n)
    memcpy(cnp.PyArray_DATA(res), _BUF, n * sizeof(int64_t))
    return res


def count_legal_codes(object hand, int64_t to_beat_code, int repeat):
    """Number of legal moves (the pass included when responding); writes nothing."""
    cdef uint8_t h[NUM_RANKS]
    load_cards(hand, h)
    return count_legal(h, to_beat_code, repeat)


def readings_list(object cards, int repeat, int max_cards):
    """Codes of every reading of ``cards`` (15 counts), in move order."""
    cdef uint8_t c[NUM_RANKS]
    cdef int64_t buf[MAX_READINGS]
    cdef int n, i
    load_cards(cards, c)
    n = readings_codes(c, repeat, max_cards, buf)
    return [buf[i] for i in range(n)]


def beats(int64_t a, int64_t b):
    """Does the play of code ``a`` beat the play of code ``b``?"""
    return beats_code(a, b) != 0


def universe_codes(int repeat, int max_hand):
    """Codes of every play one deck can form (the pass excluded), in move order:
    the full deck's leading moves with chains of at most ``max_hand`` cards."""
    cdef uint8_t deck[NUM_RANKS]
    cdef Py_ssize_t n
    cdef int r
    cdef cnp.ndarray res
    for r in range(NUM_RANKS):
        deck[r] = DECKS if r >= SMALL_JOKER else 4 * DECKS
    n = gen_moves(deck, 0, repeat, max_hand, _BUF)
    res = np.empty(n, dtype=np.int64)
    memcpy(cnp.PyArray_DATA(res), _BUF, n * sizeof(int64_t))
    return res


cdef enum:
    TABLE_BITS = 16
    TABLE_SIZE = 1 << 16


cdef inline uint64_t slot_of(int64_t code) noexcept nogil:
    return ((<uint64_t>code) * <uint64_t>0x9E3779B97F4A7C15ULL) >> (64 - TABLE_BITS)


@cython.final
cdef class Universe:
    """Every play of one rule set as interned :class:`ddz.Play` objects, and a hash
    table from code to index, so that moves come back as Python objects without
    building one per move.

    :param repeat: 1 for ``kickers="repeat"``.
    :param max_hand: ``rules.max_hand``.
    :param from_code: ``Play.from_code``.
    ``plays[0]`` is the pass; ``plays[1:]`` the universe in move order.
    """
    cdef readonly tuple plays
    cdef readonly object codes
    cdef readonly int repeat
    cdef readonly int max_hand
    cdef int64_t* keys
    cdef int32_t* vals

    def __cinit__(self, *args, **kwargs):
        cdef Py_ssize_t i
        self.keys = <int64_t*>malloc(TABLE_SIZE * sizeof(int64_t))
        self.vals = <int32_t*>malloc(TABLE_SIZE * sizeof(int32_t))
        if self.keys == NULL or self.vals == NULL:
            raise MemoryError()
        for i in range(TABLE_SIZE):
            self.keys[i] = -1
            self.vals[i] = -1

    def __dealloc__(self):
        free(self.keys)
        free(self.vals)

    def __init__(self, int repeat, int max_hand, from_code):
        cdef Py_ssize_t i
        cdef uint64_t s
        cdef int64_t[::1] cv
        cdef int64_t code
        self.repeat = repeat
        self.max_hand = max_hand
        self.codes = universe_codes(repeat, max_hand)
        cv = self.codes
        self.plays = (from_code(0),) + tuple([from_code(c) for c in self.codes.tolist()])
        for i in range(cv.shape[0] + 1):
            code = 0 if i == 0 else cv[i - 1]
            s = slot_of(code)
            while self.keys[s] != -1:
                s = (s + 1) & (TABLE_SIZE - 1)
            self.keys[s] = code
            self.vals[s] = <int32_t>i

    cdef inline Py_ssize_t index(self, int64_t code) noexcept nogil:
        cdef uint64_t s = slot_of(code)
        while self.keys[s] != code:
            if self.keys[s] == -1:
                return -1
            s = (s + 1) & (TABLE_SIZE - 1)
        return self.vals[s]

    def index_of(self, int64_t code):
        """Index of a code in ``plays`` (0 for the pass), or -1 if it is no play."""
        return self.index(code)

    cdef list _plays_of(self, const int64_t* codes, Py_ssize_t n):
        cdef list res = PyList_New(n)
        cdef Py_ssize_t i
        cdef object p
        for i in range(n):
            p = <object>PyTuple_GET_ITEM(self.plays, self.index(codes[i]))
            Py_INCREF(p)
            PyList_SET_ITEM(res, i, p)
        return res

    def moves(self, object hand, int64_t to_beat_code):
        """Legal moves as a list of interned ``Play`` objects, in move order."""
        cdef uint8_t h[NUM_RANKS]
        cdef Py_ssize_t n
        load_cards(hand, h)
        n = legal_codes(h, to_beat_code, self.repeat, _BUF)  # GIL held: _BUF is shared
        return self._plays_of(_BUF, n)

    def readings(self, object cards):
        """Every reading of ``cards`` as interned ``Play`` objects, in move order."""
        cdef uint8_t c[NUM_RANKS]
        cdef int64_t buf[MAX_READINGS]
        cdef int n
        load_cards(cards, c)
        n = readings_codes(c, self.repeat, self.max_hand, buf)
        return self._plays_of(buf, n)


# -- batch twins (trusting their input; the GIL is released for the whole batch) -----

def legal_codes_batch(const uint8_t[:, ::1] hands, const int64_t[::1] to_beat_codes, int repeat):
    """Legal move codes of many positions in one call.

    :param hands: ``uint8[N, 15]`` possible hands (not checked).
    :param to_beat_codes: ``int64[N]`` codes of the plays to beat (0: leading).
    :returns: ``(codes, offsets)``: ``int64[M]`` all moves, position ``i``'s moves being
        ``codes[offsets[i]:offsets[i + 1]]``; ``offsets`` is ``int64[N + 1]``.
    """
    cdef Py_ssize_t n = hands.shape[0], i, used = 0, cap = MAX_MOVES * 2
    cdef int64_t* buf
    cdef int64_t* grown
    cdef cnp.ndarray offsets, codes
    cdef int64_t* off
    cdef int failed = 0
    if to_beat_codes.shape[0] != n:
        raise ValueError("hands and to_beat_codes differ in length")
    offsets = np.empty(n + 1, dtype=np.int64)
    off = <int64_t*>cnp.PyArray_DATA(offsets)
    buf = <int64_t*>malloc(cap * sizeof(int64_t))
    if buf == NULL:
        raise MemoryError()
    with nogil:
        off[0] = 0
        for i in range(n):
            if used + MAX_MOVES > cap:
                cap = 2 * (used + MAX_MOVES)
                grown = <int64_t*>realloc(buf, cap * sizeof(int64_t))
                if grown == NULL:
                    failed = 1
                    break
                buf = grown
            used += legal_codes(&hands[i, 0], to_beat_codes[i], repeat, buf + used)
            off[i + 1] = used
    if failed:
        free(buf)
        raise MemoryError()
    codes = np.empty(used, dtype=np.int64)
    memcpy(cnp.PyArray_DATA(codes), buf, used * sizeof(int64_t))
    free(buf)
    return codes, offsets


def count_legal_batch(const uint8_t[:, ::1] hands, const int64_t[::1] to_beat_codes, int repeat):
    """``int64[N]``: the number of legal moves of each position (see :func:`legal_codes_batch`)."""
    cdef Py_ssize_t n = hands.shape[0], i
    cdef cnp.ndarray res
    cdef int64_t* r
    if to_beat_codes.shape[0] != n:
        raise ValueError("hands and to_beat_codes differ in length")
    res = np.empty(n, dtype=np.int64)
    r = <int64_t*>cnp.PyArray_DATA(res)
    with nogil:
        for i in range(n):
            r[i] = count_legal(&hands[i, 0], to_beat_codes[i], repeat)
    return res
