# cython: language_level=3
"""The Cython core: classify, compare and enumerate Dou Dizhu plays (RULES.md §2, §7).

Layout
------
* A hand (or any card multiset) is a 15-slot ``uint8`` count vector, rank index 0..14
  (RULES.md §1); counts up to 8 (two decks).
* A move is the compact int64 code of :mod:`ddz.core.play` (``Play.code``): kicker counts
  3 bits per rank in bits 0..44, main rank in 45..48, chain length in 49..52, width
  (copies of each body rank) in 53..56, type in 57..61; the pass is 0.
* Type properties (usual body width, highest main rank, kickers per body rank and their
  size, shortest chain) are C tables indexed by type (:func:`type_properties` shows them);
  everything that differs between rule sets is in the ``Opts`` struct of the rule set's
  :class:`RuleTable`, derived from :attr:`ddz.Rules.move_options` by ``opts_from`` alone.

Enumeration order (the reference's, see :mod:`ddz.core.reference`): the pass first when
responding, then type, chain length, width, main rank, and kickers as ascending rank
tuples in lexicographic order. The generator walks types, lengths, widths and main ranks
in ascending order and picks kickers by a depth-first search over ranks in ascending
order (a rank may repeat only under ``kickers="repeat"``), which produces exactly that
order: nothing is sorted.

The ``cdef`` kernels (declared in ``_core.pxd``) are ``noexcept nogil``, touch no Python
object and write within the capacity they are given. The Python-callable methods of
:class:`RuleTable` check every argument (shape, dtype, counts against the deck, codes
against the rule set's plays) and raise a :class:`ddz.DdzError` subclass: no input makes
them read or write out of bounds. There are no module-level scratch buffers.
"""

cimport cython
cimport numpy as cnp
from cpython.list cimport PyList_GET_ITEM, PyList_New, PyList_SET_ITEM
from cpython.ref cimport PyObject, Py_INCREF
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

import collections.abc
import threading

import numpy as np

from ddz.errors import HandError, ImpossibleHandError, InvalidPlayError
from ddz.core.play import PASS, Play
from ddz.core.rules import PlayType
from ddz.core.rules import Rules

cnp.import_array()

cdef extern from *:
    """
    /* per play type (PlayType order): copies of each body rank (the usual width; bombs
       and rockets take theirs from the rule set) */
    static const int DDZ_WIDTH[15] = {0, 1, 2, 3, 3, 3, 1, 2, 3, 3, 3, 4, 4, 4, 1};
    /* highest main rank (PAIR: 12, or 14 with joker pairs) */
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
    KICK_MASK = (1 << KICK_BITS) - 1
    STACK_MOVES = 1024       # legal codes of one call fit on the stack up to this many


def type_properties():
    """The core's play-type tables, for the test that compares them with the reference's.

    :returns: dict with ``"width"`` (usual copies of each body rank), ``"min_chain"``
        (shortest chain, chains only), ``"kicker_units"`` (``(kickers per body rank, cards
        per kicker)`` of the types that have kickers) and ``"chain"`` (the chain types), all
        keyed by ``int(PlayType)``.
    """
    return {
        "width": {t: DDZ_WIDTH[t] for t in range(NUM_TYPES)},
        "min_chain": {t: DDZ_MINLEN[t] for t in range(NUM_TYPES) if DDZ_CHAIN[t]},
        "kicker_units": {t: (DDZ_KNUM[t], DDZ_KSIZE[t]) for t in range(NUM_TYPES) if DDZ_KNUM[t]},
        "chain": {t for t in range(NUM_TYPES) if DDZ_CHAIN[t]},
    }


cdef int opts_from(object options, Opts* o) except -1:
    """Fill ``o`` from a :class:`ddz.core.rules.MoveOptions`: the one place where rule options
    become kernel options."""
    cdef int r
    o.decks = options.decks
    o.max_hand = options.max_hand
    o.kickers_repeat = options.kickers_repeat
    o.allowed = options.allowed
    o.bomb_min = options.bomb_min
    o.bomb_max = options.bomb_max
    o.rocket_width = options.rocket_width
    o.joker_pairs = options.joker_pairs
    o.wing_trios = options.wing_trios
    o.wing_bombs = options.wing_bombs
    o.airplane_trios = options.airplane_trios
    o.beat_cards = options.beat_cards
    o.chain_four = options.chain_four
    o.bomb_on_rocket = options.bomb_on_rocket
    if not (1 <= o.decks <= 2 and 4 <= o.bomb_min <= o.bomb_max <= 4 * o.decks
            and 1 <= o.rocket_width <= o.decks and 1 <= o.max_hand <= 54 * o.decks):
        raise ValueError(f"inconsistent move options {options!r}")
    for r in range(NUM_RANKS):
        o.limit[r] = o.decks if r >= SMALL_JOKER else 4 * o.decks
    return 0


cdef inline int64_t head(int t, int length, int width, int rank) noexcept nogil:
    return ((<int64_t>t) << CODE_TYPE_SHIFT) | ((<int64_t>width) << CODE_WIDTH_SHIFT) \
        | ((<int64_t>length) << CODE_LENGTH_SHIFT) | ((<int64_t>rank) << CODE_RANK_SHIFT)


cdef inline int64_t kick_one(int r) noexcept nogil:
    return (<int64_t>1) << (KICK_BITS * r)


# -- generation -------------------------------------------------------------------

cdef struct Gen:
    int64_t* out       # NULL: count only
    Py_ssize_t cap     # entries out may hold
    Py_ssize_t n       # moves found (may exceed cap: only cap are written)
    const Opts* o
    int min_trio                 # >= 0: emit only codes whose trio_rank exceeds it (airplane_rank="trios")
    uint32_t m[MAX_WIDTH + 1]    # m[w]: bit r set when the hand holds >= w copies of rank r
    uint8_t cap1[NUM_RANKS]      # single-kicker copies available per rank, before the body
    uint32_t no_chain            # ranks a plain chain may not start at (chain_from_four=False: held in full)


cdef inline int trio_rank(int64_t code) noexcept nogil:
    """The highest rank an AIRPLANE_SINGLES code holds three times: its chain's top, or a
    higher rank whose three cards are wings (RULES.md §2.5)."""
    cdef int r, top = <int>((code >> CODE_RANK_SHIFT) & 15)
    for r in range(RANK_2, top, -1):
        if ((code >> (KICK_BITS * r)) & KICK_MASK) == 3:
            return r
    return top


cdef inline void emit(Gen* g, int64_t code) noexcept nogil:
    if g.min_trio >= 0 and trio_rank(code) <= g.min_trio:
        return
    if g.n < g.cap:
        g.out[g.n] = code
    g.n += 1


cdef void gen_init(Gen* g, const Opts* o, const uint8_t* h, int64_t* out, Py_ssize_t cap) noexcept nogil:
    """Per-hand tables: rank masks by copies held, and single-kicker caps
    (RULES.md §2.1: at most 3 of a rank under "repeat", 1 under "distinct"). Branch-free:
    for a response with few moves this is most of the work."""
    cdef int r, w, wmax = 4 * o.decks
    cdef uint32_t c
    cdef uint32_t lim = (4 if o.wing_bombs else 3) if o.kickers_repeat else 1
    g.out = out
    g.cap = cap if out != NULL else 0
    g.n = 0
    g.o = o
    g.min_trio = -1
    g.no_chain = 0
    memset(g.m, 0, sizeof(g.m))
    if wmax > MAX_WIDTH:
        wmax = MAX_WIDTH
    for r in range(NUM_RANKS):
        c = h[r]
        for w in range(1, wmax + 1):
            g.m[w] |= (<uint32_t>(c >= <uint32_t>w)) << r
        g.cap1[r] = <uint8_t>(c if c < lim else lim)
        g.no_chain |= (<uint32_t>(not o.chain_four and c >= o.limit[r])) << r


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
    (RULES.md §2.1 rule 2) unless ``wings="any"``. ``suf[r]``: an upper bound of the kickers left at ranks >= r."""
    cdef int r
    cdef uint32_t bits = avail & ~((1u << start) - 1)
    if (code >> (KICK_BITS * SMALL_JOKER)) & KICK_MASK and not g.o.wing_bombs:
        bits &= ~(1u << BIG_JOKER)
    if k == 1:
        while bits:
            r = ctz(bits)
            bits &= bits - 1
            emit(g, code + kick_one(r))
        return
    while bits:
        r = ctz(bits)
        bits &= bits - 1
        if r > start and suf[r] < k:
            return
        cap[r] -= 1
        singles_dfs(g, code + kick_one(r), cap,
                    avail if cap[r] else avail & ~(1u << r), suf, k - 1,
                    r if g.o.kickers_repeat else r + 1)
        cap[r] += 1


cdef void pairs_dfs(Gen* g, int64_t code, uint32_t ok, int k) noexcept nogil:
    """Every set of ``k`` pair kickers of different ranks among the bits of ``ok``, in
    lexicographic order; never both joker pairs (the kickers never hold all four jokers)."""
    cdef int r
    cdef uint32_t rest
    if k == 1:
        while ok:
            r = ctz(ok)
            ok &= ok - 1
            emit(g, code + 2 * kick_one(r))
        return
    while ok:
        r = ctz(ok)
        ok &= ok - 1
        rest = ok
        if r == SMALL_JOKER:
            rest &= ~(1u << BIG_JOKER)
        # fewer than k-1 ranks left above r: no more sets
        if popcount(rest) < k - 1:
            return
        pairs_dfs(g, code + 2 * kick_one(r), rest, k - 1)


cdef void gen_shape(Gen* g, int t, int length, int w, int minhi) noexcept nogil:
    """Every play of type ``t``, chain length ``length`` and width ``w`` with main rank
    >= ``minhi`` that the hand holds, in move order (main rank ascending, then kickers)."""
    cdef const Opts* o = g.o
    cdef int k = DDZ_KNUM[t] * length
    cdef int ks = DDZ_KSIZE[t]
    cdef int chain = DDZ_CHAIN[t]
    cdef int top = DDZ_TOP[t]
    cdef int hi, lo, r
    cdef uint32_t starts, body, free_, pair_ok
    cdef uint8_t cap[NUM_RANKS]
    cdef int suf[NUM_RANKS + 1]
    cdef int64_t base
    if w < 1 or w > MAX_WIDTH:
        return
    if t == T_PAIR and o.joker_pairs:
        top = BIG_JOKER
    if chain:
        starts = chain_starts(g.m[w] & CHAIN_MASK, length)
        if ks == 0:
            starts &= ~g.no_chain     # §2.5 chain_from_four=False
    else:
        starts = g.m[w] & ((2u << top) - 1)
    if minhi > length - 1:
        if minhi - length + 1 >= 32:
            return
        starts &= ~((1u << (minhi - length + 1)) - 1)
    while starts:
        lo = ctz(starts)
        starts &= starts - 1
        hi = lo + length - 1
        base = head(t, length, w, hi)
        body = ((1u << length) - 1) << lo
        if ks == 0:
            emit(g, base)
        elif ks == 2:
            pair_ok = (1u << (RANK_2 + 1)) - 1
            if o.joker_pairs:
                pair_ok |= (1u << SMALL_JOKER) | (1u << BIG_JOKER)
            pairs_dfs(g, base, g.m[2] & pair_ok & ~body, k)
        elif k == 1:                  # one single kicker: any other rank held
            free_ = g.m[1] & ~body
            while free_:
                r = ctz(free_)
                free_ &= free_ - 1
                emit(g, base + kick_one(r))
        else:
            memcpy(cap, g.cap1, NUM_RANKS)
            for r in range(lo, hi + 1):
                cap[r] = 0            # rule 1: never the body's rank
            if chain and not o.wing_trios:   # "repeat": a trio next to the chain would lengthen it
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


cdef inline int allowed(const Opts* o, int t) noexcept nogil:
    return (o.allowed >> t) & 1


cdef void gen_bombs(Gen* g, int wmin, int minhi, int total) noexcept nogil:
    """Bombs of widths ``wmin``.. (the smallest with main rank >= ``minhi``), in move order."""
    cdef int w
    if not allowed(g.o, T_BOMB):
        return
    if wmin < g.o.bomb_min:
        wmin = g.o.bomb_min
        minhi = 0
    for w in range(wmin, g.o.bomb_max + 1):
        if w > total:
            return
        gen_shape(g, T_BOMB, 1, w, minhi)
        minhi = 0


cdef int64_t read_beat(const Opts* o, int64_t b) noexcept nogil:
    """The play to beat ``b`` as DouZero reads its cards (RULES.md §2.5,
    ``beat_reading="cards"``): an AIRPLANE_SINGLES whose wings are one trio next to its
    chain is the AIRPLANE of all its trios; one whose wings hold four of a rank, or a trio
    when the chain is four or more long, is -1 (only a bomb or the rocket answers it);
    anything else is ``b``."""
    cdef int t = <int>((b >> CODE_TYPE_SHIFT) & 31)
    cdef int length = <int>((b >> CODE_LENGTH_SHIFT) & 15)
    cdef int hi = <int>((b >> CODE_RANK_SHIFT) & 15)
    cdef int lo = hi - length + 1
    cdef int r, c, kinds = 0, trio = -1
    if not o.beat_cards or t != T_AIRPLANE_SINGLES:
        return b
    for r in range(NUM_RANKS):
        c = <int>((b >> (KICK_BITS * r)) & KICK_MASK)
        if c == 0:
            continue
        kinds += 1
        if c >= 4:
            return -1
        if c == 3:
            trio = r
    if trio >= 0:
        if length >= 4:
            return -1
        if kinds == 1 and trio < CHAIN_RANKS and (trio == lo - 1 or trio == hi + 1):
            return head(T_AIRPLANE, length + 1, 3, trio if trio > hi else hi)
    return b


cdef Py_ssize_t gen_moves(const Opts* o, const uint8_t* hand, int64_t to_beat_code,
                          int max_cards, int64_t* out, Py_ssize_t cap) noexcept nogil:
    """Legal moves of ``hand`` against ``to_beat_code`` (0: leading) into ``out``
    (NULL: count only; at most ``cap`` written). Leading, plays are at most
    ``max_cards`` cards long (the universe is the full deck's leading moves with
    ``max_cards = max_hand``)."""
    cdef Gen g
    cdef int t, length, per, total = 0, r, bt, bl, bw, br, rw = o.rocket_width
    gen_init(&g, o, hand, out, cap)
    for r in range(NUM_RANKS):
        total += hand[r]
    if total > max_cards:
        total = max_cards
    if to_beat_code == 0:
        for t in range(T_SINGLE, T_BOMB):
            if not allowed(o, t):
                continue
            per = DDZ_WIDTH[t] + DDZ_KNUM[t] * DDZ_KSIZE[t]
            if DDZ_CHAIN[t]:
                length = DDZ_MINLEN[t]
                # a chain exists only if the one a rank shorter does
                while length <= CHAIN_RANKS and length * per <= total \
                        and chain_starts(g.m[DDZ_WIDTH[t]] & CHAIN_MASK, length):
                    gen_shape(&g, t, length, DDZ_WIDTH[t], 0)
                    length += 1
            elif per <= total:
                gen_shape(&g, t, 1, DDZ_WIDTH[t], 0)
        gen_bombs(&g, o.bomb_min, 0, total)
    else:
        emit(&g, 0)
        bt = <int>((to_beat_code >> CODE_TYPE_SHIFT) & 31)
        bl = <int>((to_beat_code >> CODE_LENGTH_SHIFT) & 15)
        bw = <int>((to_beat_code >> CODE_WIDTH_SHIFT) & 15)
        br = <int>((to_beat_code >> CODE_RANK_SHIFT) & 15)
        if bt == T_ROCKET and o.bomb_on_rocket:     # §2.5: any bomb on the rocket
            gen_bombs(&g, o.bomb_min, 0, total)
            return g.n
        if bt >= T_ROCKET or bt <= T_PASS:
            return g.n
        if bt == T_AIRPLANE_SINGLES and o.beat_cards:
            to_beat_code = read_beat(o, to_beat_code)   # §2.5 beat_reading="cards"
            if to_beat_code < 0:                        # only a bomb or the rocket answers it
                gen_bombs(&g, o.bomb_min, 0, total)
                bt = T_PASS
            else:
                bt = <int>((to_beat_code >> CODE_TYPE_SHIFT) & 31)
                bl = <int>((to_beat_code >> CODE_LENGTH_SHIFT) & 15)
                br = <int>((to_beat_code >> CODE_RANK_SHIFT) & 15)
        if bt == T_PASS:
            pass
        elif bt == T_BOMB:
            gen_bombs(&g, bw, br + 1, total)
        else:
            # a to-beat code of no known shape: only the pass (trusted input never is one)
            if DDZ_CHAIN[bt]:
                if bl < DDZ_MINLEN[bt] or bl > CHAIN_RANKS:
                    return g.n
            elif bl != 1:
                return g.n
            if allowed(o, bt) and bl * (DDZ_WIDTH[bt] + DDZ_KNUM[bt] * DDZ_KSIZE[bt]) <= total:
                if bt == T_AIRPLANE_SINGLES and o.airplane_trios:
                    # §2.5: compared by the highest trio, which a lower chain may hold
                    g.min_trio = trio_rank(to_beat_code)
                    gen_shape(&g, bt, bl, DDZ_WIDTH[bt], 0)
                    g.min_trio = -1
                else:
                    gen_shape(&g, bt, bl, DDZ_WIDTH[bt], br + 1)
            gen_bombs(&g, o.bomb_min, 0, total)
    if allowed(o, T_ROCKET) and hand[SMALL_JOKER] >= rw and hand[BIG_JOKER] >= rw and 2 * rw <= total:
        emit(&g, head(T_ROCKET, 1, rw, BIG_JOKER))
    return g.n


cdef Py_ssize_t legal_codes(const Opts* o, const uint8_t* hand, int64_t to_beat_code,
                            int64_t* out, Py_ssize_t cap) noexcept nogil:
    return gen_moves(o, hand, to_beat_code, o.max_hand, out, cap)


cdef Py_ssize_t count_legal(const Opts* o, const uint8_t* hand, int64_t to_beat_code) noexcept nogil:
    return gen_moves(o, hand, to_beat_code, o.max_hand, NULL, 0)


# -- classification -------------------------------------------------------------

cdef int single_kickers_ok(const Opts* o, const uint8_t* kick, int lo, int hi, int chain) noexcept nogil:
    """RULES.md §2.1 for single kickers: rules 1 and 2 and the kicker option; §2.5: the
    ``wings`` option."""
    cdef int r, c
    for r in range(NUM_RANKS):
        c = kick[r]
        if c == 0:
            continue
        if lo <= r <= hi or (c >= 4 and not o.wing_bombs) or (c > 1 and not o.kickers_repeat):
            return 0
        if c == 3 and chain and r < CHAIN_RANKS and (r == lo - 1 or r == hi + 1) and not o.wing_trios:
            return 0
    if kick[SMALL_JOKER] and kick[BIG_JOKER] and not o.wing_bombs:
        return 0
    return 1


cdef int pair_kickers_ok(const Opts* o, const uint8_t* kick, int lo, int hi) noexcept nogil:
    """Pair kickers: pairs (rule 5), of ranks not in the body (rule 1), jokers only as
    joker pairs when the rules have them, and never all four jokers."""
    cdef int r, c
    for r in range(NUM_RANKS):
        c = kick[r]
        if c == 0:
            continue
        if c != 2 or lo <= r <= hi:
            return 0
        if r > RANK_2 and not o.joker_pairs:
            return 0
    if kick[SMALL_JOKER] and kick[BIG_JOKER]:
        return 0
    return 1


cdef int readings_codes(const Opts* o, const uint8_t* cards, int64_t* out) noexcept nogil:
    """Every reading of ``cards`` as a play, in move order; returns how many (at most
    ``MAX_READINGS``). No cards: the pass (code 0). More than ``max_hand``: none."""
    cdef int n = 0, cnt = 0, r, t, w, per, length, hi, lo, ks, ok, top, rw = o.rocket_width
    cdef uint8_t rest[NUM_RANKS]
    cdef int64_t kick
    for r in range(NUM_RANKS):
        n += cards[r]
    if n == 0:
        out[0] = 0
        return 1
    if n > o.max_hand:
        return 0
    for t in range(T_SINGLE, T_BOMB + 1):
        if not allowed(o, t):
            continue
        w = DDZ_WIDTH[t]
        top = DDZ_TOP[t]
        if t == T_PAIR and o.joker_pairs:
            top = BIG_JOKER
        if t == T_BOMB:
            if n < o.bomb_min or n > o.bomb_max:
                continue
            w = n
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
        for hi in range(length - 1, top + 1):
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
                ok = single_kickers_ok(o, rest, lo, hi, DDZ_CHAIN[t])
            else:
                ok = pair_kickers_ok(o, rest, lo, hi)
            if ok and cnt < MAX_READINGS:
                kick = 0
                for r in range(NUM_RANKS):
                    kick |= (<int64_t>rest[r]) << (KICK_BITS * r)
                out[cnt] = head(t, length, w, hi) | kick
                cnt += 1
    if (allowed(o, T_ROCKET) and n == 2 * rw and cards[SMALL_JOKER] == rw and cards[BIG_JOKER] == rw
            and cnt < MAX_READINGS):
        out[cnt] = head(T_ROCKET, 1, rw, BIG_JOKER)
        cnt += 1
    return cnt


cdef int beats_code(int64_t a, int64_t b) noexcept nogil:
    """Does play ``a`` beat play ``b``? RULES.md §2.2 and §7 (a bomb of more cards beats
    one of fewer; equal sizes compare ranks)."""
    cdef int ta = <int>((a >> CODE_TYPE_SHIFT) & 31)
    cdef int tb = <int>((b >> CODE_TYPE_SHIFT) & 31)
    cdef int ra = <int>((a >> CODE_RANK_SHIFT) & 15)
    cdef int rb = <int>((b >> CODE_RANK_SHIFT) & 15)
    cdef int wa, wb
    if ta == T_PASS or tb == T_ROCKET:    # nothing beats a rocket
        return 0
    if ta == T_ROCKET:
        return 1
    if ta == T_BOMB:
        if tb != T_BOMB:
            return 1
        wa = <int>((a >> CODE_WIDTH_SHIFT) & 15)
        wb = <int>((b >> CODE_WIDTH_SHIFT) & 15)
        return wa > wb or (wa == wb and ra > rb)
    if tb == T_BOMB:
        return 0
    return ta == tb and ((a >> CODE_LENGTH_SHIFT) & 15) == ((b >> CODE_LENGTH_SHIFT) & 15) \
        and ra > rb


cdef int beats_opts(const Opts* o, int64_t a, int64_t b) noexcept nogil:
    """:func:`beats_code` under the options ``o`` (RULES.md §2.5): with
    ``bomb_on_rocket`` a bomb beats the rocket; with ``beat_reading="cards"`` ``b`` is read
    as DouZero reads its cards (:func:`read_beat`); with ``airplane_rank="trios"`` an
    AIRPLANE_SINGLES beats one of the same length whose highest trio is lower."""
    cdef int ta = <int>((a >> CODE_TYPE_SHIFT) & 31)
    if o.bomb_on_rocket and ta == T_BOMB and ((b >> CODE_TYPE_SHIFT) & 31) == T_ROCKET:
        return 1
    if o.beat_cards and ta != T_BOMB and ta != T_ROCKET:
        b = read_beat(o, b)
        if b < 0:
            return 0
    if o.airplane_trios and ((a >> CODE_TYPE_SHIFT) & 31) == T_AIRPLANE_SINGLES \
            and ((b >> CODE_TYPE_SHIFT) & 31) == T_AIRPLANE_SINGLES:
        return ((a >> CODE_LENGTH_SHIFT) & 15) == ((b >> CODE_LENGTH_SHIFT) & 15) \
            and trio_rank(a) > trio_rank(b)
    return beats_code(a, b)


cdef int fits_opts(const Opts* o, int64_t code, const uint8_t* hand) noexcept nogil:
    """Whether the options let ``hand`` (which holds the play) play ``code``: not a
    STRAIGHT, PAIR_STRAIGHT or AIRPLANE starting at a rank the hand holds in full under
    ``chain_from_four=False`` (OpenSpiel, RULES.md §2.5); anything else always."""
    cdef int t = <int>((code >> CODE_TYPE_SHIFT) & 31)
    cdef int lo
    if o.chain_four or (t != T_STRAIGHT and t != T_PAIR_STRAIGHT and t != T_AIRPLANE):
        return 1
    lo = <int>((code >> CODE_RANK_SHIFT) & 15) - <int>((code >> CODE_LENGTH_SHIFT) & 15) + 1
    return lo < 0 or hand[lo] < o.limit[lo]


cdef void code_counts(int64_t code, uint8_t* dst) noexcept nogil:
    """The 15 card counts of a play code (all zero for a code of no known shape)."""
    cdef int t = <int>((code >> CODE_TYPE_SHIFT) & 31)
    cdef int length = <int>((code >> CODE_LENGTH_SHIFT) & 15)
    cdef int w = <int>((code >> CODE_WIDTH_SHIFT) & 15)
    cdef int hi = <int>((code >> CODE_RANK_SHIFT) & 15)
    cdef int r
    for r in range(NUM_RANKS):
        dst[r] = <uint8_t>((code >> (KICK_BITS * r)) & KICK_MASK)
    if t == T_PASS:
        return
    if t > T_ROCKET or hi >= NUM_RANKS or length < 1 or length > hi + 1 or w > MAX_WIDTH:
        memset(dst, 0, NUM_RANKS)
        return
    if t == T_ROCKET:
        dst[SMALL_JOKER] += w
        dst[BIG_JOKER] += w
        return
    for r in range(hi - length + 1, hi + 1):
        dst[r] += <uint8_t>w


# -- checked loading (the Python-callable boundary) ---------------------------------

cdef inline cnp.ndarray new_array(Py_ssize_t n, int typenum):
    """A new 1-D array (through the C API: a Python-level ``np.empty`` call costs more
    than generating a whole hand's moves)."""
    cdef cnp.npy_intp dims[1]
    dims[0] = n
    return cnp.PyArray_EMPTY(1, dims, typenum, 0)


cdef int load_counts(object cards, uint8_t* dst, const Opts* o, int max_cards, str what) except -1:
    """Copy 15 counts from a ``uint8[15]`` array or a sequence of 15 ints into ``dst``,
    checking the type, the shape, that each count is within the deck and that there are
    at most ``max_cards`` cards (-1: any number). Raises a :class:`ddz.DdzError`."""
    cdef cnp.ndarray arr
    cdef Py_ssize_t i
    cdef int n = 0
    cdef object v
    if cnp.PyArray_Check(cards) and cnp.PyArray_TYPE(<cnp.ndarray>cards) == cnp.NPY_UINT8 \
            and cnp.PyArray_NDIM(<cnp.ndarray>cards) == 1 and cnp.PyArray_DIM(<cnp.ndarray>cards, 0) == NUM_RANKS \
            and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray>cards):
        memcpy(dst, cnp.PyArray_DATA(<cnp.ndarray>cards), NUM_RANKS)
    else:
        if isinstance(cards, (str, bytes)):
            raise HandError(f"{what} must be 15 counts, not a string (parse notation with ddz.parse_cards)")
        try:
            if len(cards) != NUM_RANKS:
                raise HandError(f"{what} must have 15 counts, got {len(cards)}")
        except TypeError:
            raise HandError(f"{what} must be 15 counts, not {type(cards).__name__}") from None
        for i in range(NUM_RANKS):
            v = cards[i]
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise HandError(f"{what}[{i}] is not an integer count: {v!r}"[:120])
            if v < 0 or v > o.limit[i]:
                raise ImpossibleHandError(f"{what}[{i}] = {v!r}: the deck holds {o.limit[i]}"[:120])
            dst[i] = <uint8_t>v
    for i in range(NUM_RANKS):
        if dst[i] > o.limit[i]:
            raise ImpossibleHandError(f"{what}[{i}] = {dst[i]}: the deck holds {o.limit[i]}")
        n += dst[i]
    if max_cards >= 0 and n > max_cards:
        raise ImpossibleHandError(f"{what} has {n} cards; a player holds at most {max_cards}")
    return 0


cdef inline bint hand_fits(const Opts* o, const uint8_t* h, int64_t code) noexcept nogil:
    cdef uint8_t p[NUM_RANKS]
    cdef int r
    code_counts(code, p)
    for r in range(NUM_RANKS):
        if h[r] + p[r] > o.limit[r]:
            return False
    return True


cdef const uint8_t[:, ::1] hands_view(object hands) except *:
    """A ``uint8[N, 15]``-shaped view of a batch's hands (15 columns are checked by the
    caller), or a :class:`ddz.HandError` saying what is wrong (None, dtype, layout)."""
    cdef const uint8_t[:, ::1] h
    if hands is None:
        raise HandError("hands must be a uint8[N, 15] array, not None")
    if isinstance(hands, np.ndarray) and hands.dtype != np.uint8:
        raise HandError(f"hands must be a uint8[N, 15] array, got dtype {hands.dtype}")
    try:
        h = hands
    except (ValueError, TypeError, BufferError) as exc:
        raise HandError(f"hands must be a C-contiguous uint8[N, 15] array ({exc})") from None
    return h


cdef tuple batch_views(object hands, object to_beat_codes):
    """``(uint8[N, 15], int64[N])`` views of batch arguments, or a :class:`ddz.HandError`
    saying what is wrong (wrong dtype, dimensions or layout)."""
    cdef const int64_t[::1] tb
    if to_beat_codes is None:
        raise HandError("to_beat_codes must be an int64[N] array, not None")
    h = hands_view(hands)
    try:
        tb = to_beat_codes
    except (ValueError, TypeError, BufferError) as exc:
        raise HandError(f"to_beat_codes must be a C-contiguous int64[N] array ({exc})") from None
    return h, tb


# rank of each ASCII character of plain notation: -1 not plain, -2 an ignored separator
cdef int TEXT_RANK[256]
for _i in range(256):
    TEXT_RANK[_i] = -1
for _r, _ch in enumerate("3456789TJQKA2BR"):
    TEXT_RANK[ord(_ch)] = _r
    TEXT_RANK[ord(_ch.lower())] = _r
for _ch in " \t\n-+,":
    TEXT_RANK[ord(_ch)] = -2


cdef Py_ssize_t scan_text(str text, unsigned int* total, unsigned int* body) except -3:
    """Count plain card notation (one character per card from ``3456789TJQKA2BR`` in any
    case; spaces, ``-``, ``+`` and ``,`` ignored) into ``total``; with ``body`` (not NULL)
    also the cards before the first ``+`` into ``body``. Returns the position of the first
    ``+`` (-1: none), or -2 for text that is not plain notation (other characters,
    ``BJ``/``RJ``, not ASCII), which the Python parser must read."""
    cdef bytes raw
    cdef const unsigned char* c
    cdef Py_ssize_t i, n, plus = -1
    cdef int r
    cdef unsigned char ch
    memset(total, 0, NUM_RANKS * sizeof(unsigned int))
    if body != NULL:
        memset(body, 0, NUM_RANKS * sizeof(unsigned int))
    if not text.isascii():
        return -2
    raw = text.encode("ascii")
    c = raw
    n = len(raw)
    for i in range(n):
        ch = c[i]
        if ch == 43 and plus < 0:         # the first '+': main part before, kickers after
            plus = i
            continue
        r = TEXT_RANK[ch]
        if r < 0:
            if r == -2:                   # an ignored separator
                continue
            return -2
        if r >= SMALL_JOKER and i + 1 < n and (c[i + 1] == 74 or c[i + 1] == 106):  # 'BJ'/'RJ'
            return -2
        total[r] += 1
        if plus < 0 and body != NULL:
            body[r] += 1
    return plus


cdef enum:
    HASH_MIN_BITS = 10

#: the most texts a table remembers having read (RuleTable.texts_read)
TEXTS_READ = 1 << 16

#: the kicker bits of a play code (ranks 0..14, 3 bits each)
cdef int64_t KICKERS_MASK = (<int64_t>1 << (KICK_BITS * NUM_RANKS)) - 1


cdef inline uint64_t slot_of(int64_t code, int shift) noexcept nogil:
    return ((<uint64_t>code) * <uint64_t>0x9E3779B97F4A7C15ULL) >> shift


cdef tuple _PLAY_TYPES = tuple(PlayType)
cdef object _new_play = Play.__new__
# the slots' own setters (what ddz.core.play._fill reaches through object.__setattr__)
cdef object _set_type = Play.__dict__["type"].__set__
cdef object _set_rank = Play.__dict__["rank"].__set__
cdef object _set_length = Play.__dict__["length"].__set__
cdef object _set_kickers = Play.__dict__["kickers"].__set__
cdef object _set_width = Play.__dict__["width"].__set__
cdef object _set_counts = Play.__dict__["counts"].__set__
cdef object _set_code = Play.__dict__["code"].__set__
cdef object _set_hash = Play.__dict__["_hash"].__set__


def _trusted_play(int64_t code):
    """The :class:`ddz.Play` of a code the core generated (a play of a rule set's universe):
    its fields decoded in C without :class:`ddz.Play`'s structure checks, how a table
    makes its plays (``Play.from_code`` checks them)."""
    cdef int t = <int>((code >> CODE_TYPE_SHIFT) & 31)
    cdef int rank = <int>((code >> CODE_RANK_SHIFT) & 15)
    cdef int length = <int>((code >> CODE_LENGTH_SHIFT) & 15)
    cdef int width = <int>((code >> CODE_WIDTH_SHIFT) & 15)
    cdef uint8_t c[NUM_RANKS]
    cdef int r, k, nk = 0
    cdef list kick = []
    for r in range(NUM_RANKS):
        k = <int>((code >> (KICK_BITS * r)) & KICK_MASK)
        nk += k
        while k:
            kick.append(r)
            k -= 1
    code_counts(code, c)
    p = _new_play(Play)
    _set_type(p, _PLAY_TYPES[t])
    _set_rank(p, rank)
    _set_length(p, length)
    _set_kickers(p, tuple(kick))
    _set_width(p, width)
    _set_counts(p, (c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14]))
    _set_code(p, code)
    _set_hash(p, hash(code))
    return p


@cython.final
cdef class RuleTable:
    """Everything the engines need per move rule set, built once and shared (by the
    chooser, :class:`ddz.ActionSpace`, :class:`ddz.Game` and :mod:`ddz.interop`, through
    :func:`ddz.core.tables.table`): the kernel options, the play universe as interned
    :class:`ddz.Play` objects numbered by action id, their codes, card counts and
    notation, and a hash table from code to id.

    :param rules: a :class:`ddz.Rules` equal to its own ``move_rules``.
    :param base: the table of ``rules.universe_rules`` when it differs from ``rules``
        (banned types): its plays, ids and hash are shared, not rebuilt.

    ``plays[0]`` is the pass; ``plays[1:]`` the universe in move order (banned plays
    included: they keep their ids). Building a table generates the codes, card counts and
    hash in C (about a millisecond); ``plays``, ``notation`` and ``index_of_play`` are
    read-only views (:class:`IdSeq`, :class:`PlayIds`) that make
    each Play and its notation the first time it is asked for, once. ``derived`` is a dict where other modules keep what
    they derive from the table once (e.g. the card encodings of every id). The Python-callable methods check their arguments
    and raise :class:`ddz.HandError`, :class:`ddz.ImpossibleHandError` or
    :class:`ddz.InvalidPlayError` (short messages: :mod:`ddz.core.compiled` names errors in full).
    """

    def __cinit__(self, *args, **kwargs):
        self.keys = NULL
        self.vals = NULL
        self.owner = False
        memset(&self.view, 0, sizeof(TableView))

    def __dealloc__(self):
        if self.owner:
            free(self.keys)
            free(self.vals)

    def __init__(self, rules, RuleTable base=None):
        if not isinstance(rules, Rules):
            raise TypeError(f"RuleTable needs a ddz.Rules, not {type(rules).__name__}")
        if self.view.keys != NULL or self.plays is not None:
            raise TypeError("a RuleTable is built once")
        if base is not None and (base.view.keys == NULL or base.rules != rules.universe_rules):
            raise ValueError("the base table must be the built table of rules.universe_rules")
        if base is None and rules != rules.universe_rules:
            raise ValueError("a rule set with banned plays or chain_from_four=False needs the base table "
                             "of rules.universe_rules (get tables with ddz.core.tables.table(rules))")
        cdef Py_ssize_t i, n, size
        cdef uint64_t s
        cdef int64_t code
        cdef int64_t[::1] cv
        cdef uint8_t deck[NUM_RANKS]
        cdef uint8_t* cp
        cdef int bits
        opts_from(rules.move_options, &self.opts)
        self.rules = rules
        self._lock = threading.Lock()
        self._all_plays = None
        self.derived = {}
        self.texts_read = {}
        if base is not None:
            if base.opts.decks != self.opts.decks or base.opts.max_hand != self.opts.max_hand:
                raise ValueError("a base table must be of the same deck and hand size")
            self.base = base
            self.plays = base.plays
            self.codes = base.codes
            self.counts = base.counts
            self.notation = base.notation
            self.index_of_play = base.index_of_play
            self.play_slots = base.play_slots
            self.text_slots = base.text_slots
            self.max_moves = base.max_moves
            self.view = base.view
            self.view.opts = &self.opts
            return
        self.base = self
        for i in range(NUM_RANKS):
            deck[i] = self.opts.limit[i]
        n = gen_moves(&self.opts, deck, 0, self.opts.max_hand, NULL, 0)
        codes = np.zeros(n + 1, dtype=np.int64)
        cv = codes
        if gen_moves(&self.opts, deck, 0, self.opts.max_hand, &cv[1], n) != n:
            raise RuntimeError("the universe changed between two generations")
        codes.setflags(write=False)
        self.codes = codes
        counts = np.empty((n + 1, NUM_RANKS), dtype=np.uint8)
        cp = <uint8_t*>cnp.PyArray_DATA(counts)
        for i in range(n + 1):
            code_counts(cv[i], cp + i * NUM_RANKS)
        self.view.counts = cp
        counts.setflags(write=False)
        self.counts = counts
        # Play objects and their notation are made when first asked for (IdSeq): making all 12,655 to 27,472 of them here cost every fresh process
        # 0.1 to 0.4 s before its first call (issue 24)
        self.play_slots = [None] * (n + 1)
        self.play_slots[0] = PASS
        self.text_slots = [None] * (n + 1)
        self.plays = IdSeq(self)
        self.notation = IdSeq(self, True)
        self.index_of_play = PlayIds(self)
        # the most legal moves of one position: every play and the pass
        self.max_moves = n + 1
        # open addressing, load factor below 1/2
        bits = HASH_MIN_BITS
        while (1 << bits) < 2 * (n + 1):
            bits += 1
        size = 1 << bits
        self.keys = <int64_t*>malloc(size * sizeof(int64_t))
        self.vals = <int32_t*>malloc(size * sizeof(int32_t))
        if self.keys == NULL or self.vals == NULL:
            free(self.keys)
            free(self.vals)
            self.keys = NULL
            self.vals = NULL
            raise MemoryError()
        self.owner = True
        for i in range(size):
            self.keys[i] = -1
            self.vals[i] = -1
        for i in range(n + 1):
            code = cv[i]
            s = slot_of(code, 64 - bits)
            while self.keys[s] != -1:
                s = (s + 1) & (size - 1)
            self.keys[s] = code
            self.vals[s] = <int32_t>i
        self.view.opts = &self.opts
        self.view.codes = &cv[0]
        self.view.keys = self.keys
        self.view.vals = self.vals
        self.view.hmask = size - 1
        self.view.hshift = 64 - bits
        self.view.n_ids = n + 1
        self.view.max_moves = n + 1

    def __reduce__(self):
        raise TypeError("a RuleTable is not pickled: get it with ddz.core.tables.table(rules)")

    # -- lookups (nogil) --
    cdef Py_ssize_t index(self, int64_t code) noexcept nogil:
        return view_index(&self.view, code)

    cdef int built(self) except -1:
        """Raise unless ``__init__`` completed (a table made by ``RuleTable.__new__`` alone,
        or whose ``__init__`` failed, has no hash to read)."""
        if self.view.keys == NULL:
            raise ValueError("this RuleTable was never built: get tables with ddz.core.tables.table(rules)")
        return 0

    cdef bint allowed_code(self, int64_t code) noexcept nogil:
        """The code is a play of the rule set that may be played (not banned), or the pass."""
        if self.index(code) < 0:
            return False
        return code == 0 or allowed(&self.opts, <int>((code >> CODE_TYPE_SHIFT) & 31))

    # -- read-only views --
    @property
    def options(self):
        """The kernel options as a dict (``decks``, ``max_hand``, ``kickers_repeat``, ``allowed``,
        ``bomb_min``, ``bomb_max``, ``rocket_width``, ``joker_pairs``, ``wing_trios``,
        ``wing_bombs``, ``airplane_trios``, ``beat_cards``, ``chain_four``, ``bomb_on_rocket``)."""
        o = self.opts
        return {"decks": o.decks, "max_hand": o.max_hand, "kickers_repeat": o.kickers_repeat, "allowed": o.allowed,
                "bomb_min": o.bomb_min, "bomb_max": o.bomb_max, "rocket_width": o.rocket_width,
                "joker_pairs": o.joker_pairs, "wing_trios": o.wing_trios, "wing_bombs": o.wing_bombs,
                "airplane_trios": o.airplane_trios, "beat_cards": o.beat_cards, "chain_four": o.chain_four,
                "bomb_on_rocket": o.bomb_on_rocket}

    @property
    def all_plays(self):
        """Every play that may be played (banned types left out), in move order: a tuple."""
        self.built()
        if self._all_plays is None:
            banned = self.rules.excluded
            self._all_plays = tuple(p for p in self.plays[1:] if p.type not in banned)
        return self._all_plays

    def __len__(self):
        self.built()
        return len(self.plays)

    def __repr__(self):
        if self.view.keys == NULL:
            return "<RuleTable (never built)>"
        return f"<RuleTable {self.rules!r}: {len(self.plays)} ids>"

    def index_of(self, code):
        """The id of a code (0 for the pass), or -1 if it is no play of the universe.

        :param code: an integer (anything else is -1).
        """
        self.built()
        if isinstance(code, bool) or not isinstance(code, (int, np.integer)):
            return -1
        if code < -(1 << 63) or code >= (1 << 63):
            return -1
        return self.index(<int64_t>code)

    def ids_of_codes(self, codes):
        """``int32[n]``: the id of each code (-1: not a play of the universe).

        :param codes: ``int64[n]`` (anything convertible; any shape is flattened).
        :raises InvalidPlayError: not integers.
        """
        self.built()
        cdef cnp.ndarray arr = np.asarray(codes)
        if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
            if arr.size:
                raise InvalidPlayError(f"codes must be integers, got dtype {arr.dtype}")
        if arr.dtype == np.uint64 and arr.size and arr.max() >= (1 << 63):
            raise InvalidPlayError("codes must fit in int64")
        cdef const int64_t[::1] q = np.ascontiguousarray(arr.reshape(-1), dtype=np.int64)
        out = new_array(q.shape[0], cnp.NPY_INT32)
        cdef int32_t[::1] o = out
        cdef Py_ssize_t i
        with nogil:
            for i in range(q.shape[0]):
                o[i] = <int32_t>self.index(q[i])
        return out

    def counts_of_text(self, text):
        """``uint8[15]`` counts of plain card notation (one character per card from
        ``3456789TJQKA2BR`` in any case; spaces, ``-``, ``+`` and ``,`` ignored), counted in
        C, or ``None`` for anything else (``10``, 小王, ``BJ``..., other characters, more
        than 255 of a rank), which :func:`ddz.parse_cards` then parses or refuses. Counts
        are not checked against the deck here (the kernels do it).
        :raises TypeError: ``text`` is not a str."""
        cdef unsigned int cnt[NUM_RANKS]
        cdef cnp.ndarray res
        cdef int r
        if not isinstance(text, str):
            raise TypeError("card notation must be a str")
        if scan_text(text, cnt, NULL) == -2:
            return None
        res = new_array(NUM_RANKS, cnp.NPY_UINT8)
        for r in range(NUM_RANKS):
            if cnt[r] > 255:
                return None
            (<uint8_t*>cnp.PyArray_DATA(res))[r] = <uint8_t>cnt[r]
        return res

    def play_of_text(self, text, bint plain_choice=True):
        """The play that card notation names, read in C: plain cards (``4448``) or a main
        part ``+`` kickers (``444+8``), in the characters :meth:`counts_of_text` reads.

        Reads as :meth:`ddz.Play.parse` does (RULES.md §2.5): with ``+``, the reading whose
        main part is the cards before the first ``+``; without, the one reading, or among
        several the one without kickers when ``plain_choice`` (``False``: exactly one
        reading, as :func:`ddz.classify` asks of plain cards).

        :returns: the table's interned :class:`ddz.Play`, or ``None`` whenever the text
            needs the Python parser (which parses it or words the error): other spellings
            (``10``, 小王, ``pass``), no card, more cards than the deck, no play, a choice
            the rules above do not make, nothing after ``+``. Never the pass; never raises.

        Texts read with one reading (or a ``+``) are remembered in :attr:`texts_read` (at
        most ``TEXTS_READ`` of them), so a text read again is one dict lookup.
        """
        self.built()
        if type(text) is not str:
            return None
        hit = self.texts_read.get(text)
        if hit is not None:
            return hit
        cdef Py_ssize_t i, plus
        cdef int r, k, found, hits = 0
        cdef unsigned int total[NUM_RANKS]
        cdef unsigned int body[NUM_RANKS]
        cdef uint8_t cards[NUM_RANKS]
        cdef uint8_t own[NUM_RANKS]
        cdef int64_t buf[MAX_READINGS]
        cdef int64_t pick = 0
        plus = scan_text(text, total, body)
        if plus == -2:
            return None
        for r in range(NUM_RANKS):
            if total[r] > self.opts.limit[r]:
                return None               # beyond the deck: the parser says so
        k = 0
        for r in range(NUM_RANKS):
            cards[r] = <uint8_t>total[r]
            k += total[r]
        if k == 0:
            return None
        if plus >= 0:
            k = 0
            for r in range(NUM_RANKS):
                k += total[r] - body[r]
            if k == 0:
                return None               # nothing after '+'
        found = readings_codes(&self.opts, cards, buf)
        if plus >= 0:
            for i in range(found):
                code_counts(buf[i], own)
                for r in range(NUM_RANKS):   # the play's main part: its cards less its kickers
                    if own[r] - ((buf[i] >> (KICK_BITS * r)) & KICK_MASK) != body[r]:
                        break
                else:
                    hits += 1
                    pick = buf[i]
        elif found == 1:
            hits, pick = 1, buf[0]
        elif plain_choice:
            found = -found            # a choice among readings: not remembered
            for i in range(-found):
                if buf[i] & KICKERS_MASK == 0:
                    hits += 1
                    pick = buf[i]
        if hits != 1 or pick == 0:
            return None
        i = self.index(pick)
        if i < 0:
            return None
        hit = self.play_at(i)
        if found >= 0 and len(self.texts_read) < TEXTS_READ:
            self.texts_read[text] = hit
        return hit

    # -- checked Python-callable twins of the kernels --
    cdef int64_t checked_beat(self, const uint8_t* h, object code) except -1:
        """The to-beat code as int64, after checking it is a play of the rule set that may be
        played (or 0) and fits in the deck beside the hand."""
        cdef int64_t c
        if isinstance(code, bool) or not isinstance(code, (int, np.integer)):
            raise InvalidPlayError(f"the play to beat must be a play code (int), not {type(code).__name__}")
        if code < 0 or code >= (1 << 63):
            raise InvalidPlayError(f"the play to beat: {code!r} is not a play code")
        c = <int64_t>code
        if not self.allowed_code(c):
            raise InvalidPlayError(f"the play to beat: code {c} is not a play under {self.rules!r}")
        if c and not hand_fits(&self.opts, h, c):
            raise ImpossibleHandError(
                f"the hand and the play to beat {self.notation[self.index(c)]!r} together hold more "
                "copies of a rank than the deck")
        return c

    def hand_ok(self, hand):
        """``True`` if ``hand`` is a C-contiguous ``uint8[15]`` array that is a possible hand
        of these rules (the fast path of argument checking; never raises)."""
        self.built()
        cdef const uint8_t* h
        cdef int r, n = 0
        if not (cnp.PyArray_Check(hand) and cnp.PyArray_TYPE(<cnp.ndarray>hand) == cnp.NPY_UINT8
                and cnp.PyArray_NDIM(<cnp.ndarray>hand) == 1 and cnp.PyArray_DIM(<cnp.ndarray>hand, 0) == NUM_RANKS
                and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray>hand)):
            return False
        h = <const uint8_t*>cnp.PyArray_DATA(<cnp.ndarray>hand)
        for r in range(NUM_RANKS):
            if h[r] > self.opts.limit[r]:
                return False
            n += h[r]
        return n <= self.opts.max_hand

    def fits(self, hand, code):
        """``True`` if ``hand`` (a possible hand) and the play of ``code`` together fit in
        the deck. :raises HandError, ImpossibleHandError: a bad hand."""
        self.built()
        cdef uint8_t h[NUM_RANKS]
        load_counts(hand, h, &self.opts, -1, "hand")
        if isinstance(code, bool) or not isinstance(code, (int, np.integer)) or not 0 <= code < (1 << 63):
            return False
        return hand_fits(&self.opts, h, <int64_t>code)

    def legal_codes(self, hand, to_beat_code=0):
        """Legal move codes: ``int64[n]`` in move order (the pass, code 0, first when
        responding).

        :param hand: ``uint8[15]`` or 15 ints: a possible hand (at most ``max_hand`` cards).
        :param to_beat_code: 0 to lead, else the code of a play of these rules.
        :raises HandError, ImpossibleHandError, InvalidPlayError: bad arguments.
        """
        self.built()
        cdef uint8_t h[NUM_RANKS]
        cdef int64_t buf[STACK_MOVES]
        cdef int64_t c
        cdef Py_ssize_t n, m
        cdef cnp.ndarray res
        load_counts(hand, h, &self.opts, self.opts.max_hand, "hand")
        c = self.checked_beat(h, to_beat_code)
        n = legal_codes(&self.opts, h, c, buf, STACK_MOVES)
        res = new_array(n, cnp.NPY_INT64)
        if n <= STACK_MOVES:
            memcpy(cnp.PyArray_DATA(res), buf, n * sizeof(int64_t))
        else:
            m = legal_codes(&self.opts, h, c, <int64_t*>cnp.PyArray_DATA(res), n)
            if m != n:
                raise RuntimeError("legal_codes: two generations disagree")
        return res

    def count_legal(self, hand, to_beat_code=0):
        """Number of legal moves (the pass included when responding); writes nothing.
        Arguments and errors as :meth:`legal_codes`."""
        self.built()
        cdef uint8_t h[NUM_RANKS]
        load_counts(hand, h, &self.opts, self.opts.max_hand, "hand")
        return count_legal(&self.opts, h, self.checked_beat(h, to_beat_code))

    cdef object play_at(self, Py_ssize_t j):
        """The interned Play of id ``j`` (``0 <= j < n_ids``, unchecked), made on first use."""
        cdef object p = <object>PyList_GET_ITEM(self.play_slots, j)
        if p is not None:
            return p
        p = _trusted_play(self.view.codes[j])
        q = <object>PyList_GET_ITEM(self.play_slots, j)
        if q is not None:            # made meanwhile by another thread: keep one object per id
            return q
        self.play_slots[j] = p
        return p

    cdef object text_at(self, Py_ssize_t j):
        """The canonical notation of id ``j`` (unchecked), made on first use."""
        cdef object s = <object>PyList_GET_ITEM(self.text_slots, j)
        if s is None:
            s = str(self.play_at(j))
            self.text_slots[j] = s
        return s

    cdef list plays_of(self, const int64_t* codes, Py_ssize_t n):
        cdef list res = PyList_New(n)
        cdef Py_ssize_t i, j
        cdef PyObject* q
        cdef object p
        for i in range(n):
            j = self.index(codes[i])
            if j < 0:
                raise RuntimeError(f"the core generated code {codes[i]}, which is no play of {self.rules!r}")
            q = PyList_GET_ITEM(self.play_slots, j)        # borrowed: no reference counting
            if q == <PyObject*>None:
                p = self.play_at(j)
                q = <PyObject*>p
            Py_INCREF(<object>q)
            PyList_SET_ITEM(res, i, <object>q)
        return res

    def moves(self, hand, to_beat_code=0):
        """Legal moves as a list of interned :class:`ddz.Play` objects, in move order.
        Arguments and errors as :meth:`legal_codes`."""
        self.built()
        cdef uint8_t h[NUM_RANKS]
        cdef int64_t buf[STACK_MOVES]
        cdef int64_t* big
        cdef int64_t c
        cdef Py_ssize_t n
        load_counts(hand, h, &self.opts, self.opts.max_hand, "hand")
        c = self.checked_beat(h, to_beat_code)
        n = legal_codes(&self.opts, h, c, buf, STACK_MOVES)
        if n <= STACK_MOVES:
            return self.plays_of(buf, n)
        big = <int64_t*>malloc(n * sizeof(int64_t))
        if big == NULL:
            raise MemoryError()
        try:
            legal_codes(&self.opts, h, c, big, n)
            return self.plays_of(big, n)
        finally:
            free(big)

    def readings_codes(self, cards):
        """Codes of every reading of ``cards`` (15 counts within the deck), in move order.
        :raises HandError, ImpossibleHandError: bad ``cards``."""
        self.built()
        cdef uint8_t c[NUM_RANKS]
        cdef int64_t buf[MAX_READINGS]
        cdef int n, i
        load_counts(cards, c, &self.opts, -1, "cards")
        n = readings_codes(&self.opts, c, buf)
        return [buf[i] for i in range(n)]

    def readings(self, cards):
        """Every reading of ``cards`` as interned :class:`ddz.Play` objects, in move order.
        :raises HandError, ImpossibleHandError: bad ``cards``."""
        self.built()
        cdef uint8_t c[NUM_RANKS]
        cdef int64_t buf[MAX_READINGS]
        cdef int n
        load_counts(cards, c, &self.opts, -1, "cards")
        n = readings_codes(&self.opts, c, buf)
        return self.plays_of(buf, n)

    def beats(self, a, b):
        """Does the play of code ``a`` beat the play of code ``b``? (RULES.md §2.2.)
        :raises InvalidPlayError: either is not a play of these rules, or ``b`` is the pass."""
        self.built()
        cdef int64_t ca, cb
        for code, what in ((a, "play"), (b, "the play to beat")):
            if isinstance(code, bool) or not isinstance(code, (int, np.integer)) or not 0 <= code < (1 << 63) \
                    or not self.allowed_code(<int64_t>code):
                raise InvalidPlayError(f"{what}: {code!r} is not the code of a play under {self.rules!r}")
        ca, cb = a, b
        if cb == 0:
            raise InvalidPlayError("nothing beats the pass: give the last non-pass play of the trick")
        return beats_opts(&self.opts, ca, cb) != 0

    # -- batches (checked, then the GIL is released) --
    cdef int check_rows(self, const uint8_t[:, ::1] hands, const int64_t[::1] tbs) except -1:
        cdef Py_ssize_t b = hands.shape[0], i, bad = -1
        cdef int what = 0
        if hands.shape[1] != NUM_RANKS:
            raise HandError(f"hands must have shape (N, 15), got (N, {hands.shape[1]})")
        if tbs.shape[0] != b:
            raise HandError(f"hands ({b} rows) and to_beat_codes ({tbs.shape[0]}) differ in length")
        with nogil:
            for i in range(b):
                what = row_problem(&self.view, &hands[i, 0], self.index(tbs[i]), tbs[i])
                if what:
                    bad = i
                    break
        if what == ROW_NO_PLAY:
            raise InvalidPlayError(f"to_beat_codes[{bad}] = {tbs[bad]} is not a play under {self.rules!r}")
        if what == ROW_OVER_DECK:
            raise ImpossibleHandError(f"hands[{bad}] (alone or with its play to beat) holds more copies "
                                      "of a rank than the deck")
        if what == ROW_TOO_BIG:
            raise ImpossibleHandError(f"hands[{bad}] holds more than {self.opts.max_hand} cards")
        return 0

    def legal_codes_batch(self, hands, to_beat_codes):
        """Legal move codes of many positions in one call.

        :param hands: ``uint8[N, 15]`` C-contiguous possible hands.
        :param to_beat_codes: ``int64[N]`` codes of the plays to beat (0: leading).
        :returns: ``(codes, offsets)``: ``int64[M]`` all moves, position ``i``'s moves being
            ``codes[offsets[i]:offsets[i + 1]]``; ``offsets`` is ``int64[N + 1]``.
        :raises HandError, ImpossibleHandError, InvalidPlayError: a bad row (named), or
            arrays of the wrong shape or dtype (``ValueError`` from the buffer protocol).
        """
        self.built()
        cdef const uint8_t[:, ::1] h
        cdef const int64_t[::1] tb
        cdef Py_ssize_t n, i, m, used = 0, cap, per = self.max_moves
        cdef int64_t* buf
        cdef int64_t* grown
        cdef int64_t* off
        cdef int failed = 0
        cdef cnp.ndarray offsets, codes
        h, tb = batch_views(hands, to_beat_codes)
        self.check_rows(h, tb)
        n = h.shape[0]
        offsets = new_array(n + 1, cnp.NPY_INT64)
        off = <int64_t*>cnp.PyArray_DATA(offsets)
        cap = per * 2
        buf = <int64_t*>malloc(cap * sizeof(int64_t))
        if buf == NULL:
            raise MemoryError()
        with nogil:
            off[0] = 0
            for i in range(n):
                if used + per > cap:
                    cap = 2 * (used + per)
                    grown = <int64_t*>realloc(buf, cap * sizeof(int64_t))
                    if grown == NULL:
                        failed = 1
                        break
                    buf = grown
                m = legal_codes(&self.opts, &h[i, 0], tb[i], buf + used, cap - used)
                used += m if m < cap - used else cap - used
                off[i + 1] = used
        if failed:
            free(buf)
            raise MemoryError()
        codes = new_array(used, cnp.NPY_INT64)
        memcpy(cnp.PyArray_DATA(codes), buf, used * sizeof(int64_t))
        free(buf)
        return codes, offsets

    def count_legal_batch(self, hands, to_beat_codes):
        """``int64[N]``: the number of legal moves of each position (see
        :meth:`legal_codes_batch`, same arguments and errors)."""
        self.built()
        cdef const uint8_t[:, ::1] h
        cdef const int64_t[::1] tb
        cdef Py_ssize_t n, i
        cdef cnp.ndarray res
        cdef int64_t* r
        h, tb = batch_views(hands, to_beat_codes)
        self.check_rows(h, tb)
        n = h.shape[0]
        res = new_array(n, cnp.NPY_INT64)
        r = <int64_t*>cnp.PyArray_DATA(res)
        with nogil:
            for i in range(n):
                r[i] = count_legal(&self.opts, &h[i, 0], tb[i])
        return res


# -- the lazy views of a table's ids (RuleTable.plays, .notation, .index_of_play) ----------

cdef Py_ssize_t seq_index(object i, Py_ssize_t n) except -1:
    """``i`` as an index into ``n`` items (negative from the end), or IndexError/TypeError."""
    cdef Py_ssize_t j
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
        raise TypeError(f"indices must be integers or slices, not {type(i).__name__}")
    if not -n <= i < n:
        raise IndexError("id out of range")
    j = i
    return j + n if j < 0 else j


@cython.final
cdef class IdSeq:
    """``RuleTable.plays`` (the interned :class:`ddz.Play` of each id, ``plays[0]`` the
    pass) and ``RuleTable.notation`` (their canonical notation): read-only sequences
    (``len``, indexing, slices, iteration, ``in``, ``index``). Each Play and each string is
    made the first time it is asked for, then the same object is returned: a first call
    under a rule set makes only the plays it answers with."""
    cdef RuleTable t
    cdef bint text

    def __cinit__(self, RuleTable table, bint text=False):
        self.t = table
        self.text = text

    cdef inline object at(self, Py_ssize_t j):
        return self.t.text_at(j) if self.text else self.t.play_at(j)

    def __len__(self):
        return self.t.view.n_ids

    def __getitem__(self, i):
        cdef Py_ssize_t j
        if isinstance(i, slice):
            return tuple([self.at(j) for j in range(*i.indices(self.t.view.n_ids))])
        return self.at(seq_index(i, self.t.view.n_ids))

    def __iter__(self):
        cdef Py_ssize_t j
        for j in range(self.t.view.n_ids):
            yield self.at(j)

    def __reversed__(self):
        cdef Py_ssize_t j
        for j in range(self.t.view.n_ids - 1, -1, -1):
            yield self.at(j)

    def index(self, x):
        """The id of ``x`` (a play, or its canonical notation). :raises ValueError: none."""
        cdef Py_ssize_t j = -1
        if not self.text:
            j = self.t.index(x.code) if isinstance(x, Play) else -1
        elif x == "pass":
            j = 0
        elif isinstance(x, str):
            p = self.t.base.play_of_text(x)          # banned plays keep their ids and notation
            j = self.t.index(p.code) if p is not None else -1
            if j < 0 or self.t.text_at(j) != x:     # the same play, written otherwise
                j = -1
        if j < 0:
            raise ValueError(f"{x!r} is not in {self!r}")
        return j

    def __contains__(self, x):
        try:
            self.index(x)
        except ValueError:
            return False
        return True

    def count(self, x):
        return 1 if x in self else 0

    def __reduce__(self):
        raise TypeError("a table's plays and notation are not pickled: get the table with ddz.core.tables.table(rules)")

    def __repr__(self):
        return f"<the {'notation' if self.text else 'plays'} of the {self.t.view.n_ids} ids of {self.t!r}>"


@cython.final
cdef class PlayIds:
    """``RuleTable.index_of_play``: the id of a :class:`ddz.Play` (read-only, dict-like:
    ``get``, ``[]``, ``in``, ``len``, iteration over the plays), answered by the table's
    code -> id hash, so nothing is built for it."""
    cdef RuleTable t

    def __cinit__(self, RuleTable table):
        self.t = table

    def get(self, key, default=None):
        cdef Py_ssize_t j = self.t.index(key.code) if isinstance(key, Play) else -1
        return default if j < 0 else j

    def __getitem__(self, key):
        cdef Py_ssize_t j = self.t.index(key.code) if isinstance(key, Play) else -1
        if j < 0:
            raise KeyError(key)
        return j

    def __contains__(self, key):
        return isinstance(key, Play) and self.t.index(key.code) >= 0

    def __len__(self):
        return self.t.view.n_ids

    def __iter__(self):
        return iter(self.t.plays)

    def keys(self):
        return iter(self.t.plays)

    def values(self):
        return iter(range(self.t.view.n_ids))

    def items(self):
        cdef Py_ssize_t j
        for j in range(self.t.view.n_ids):
            yield self.t.play_at(j), j

    def __reduce__(self):
        raise TypeError("a table's ids are not pickled: get them with ddz.core.tables.table(rules).index_of_play")

    def __repr__(self):
        return f"<the ids of the {self.t.view.n_ids} plays of {self.t!r}>"


collections.abc.Sequence.register(IdSeq)
collections.abc.Mapping.register(PlayIds)
