# cython: language_level=3
"""The endgame solver's search: exact perfect-information alpha-beta over the core's
kernels, ``nogil`` inside (issue 12; RULES.md §5 play, §6 score).

A state is the hands of two or three seats (15 counts each), the seat to move, the play
to beat (a ``Play.code``, 0 when leading) and the seat that made it (-1 when leading),
and, in score mode, how many plays the landlord has made (capped at 2) and whether a
farmer has played (they decide spring and anti-spring, RULES.md §6).

Values are from the landlord's side: in win mode +1 (the landlord wins) or -1; in score
mode ±2**k, the doublings still to come (each bomb or rocket played, spring,
anti-spring), so that the score of the hand is ``base * multiplier * value``. The
landlord maximises, the farmers minimise (two farmers are one side: RULES.md §5).

Search: fail-soft alpha-beta over packed hands (one 64-bit word a hand, 4 bits a rank);
a fixed-size, direct-mapped transposition table of 64-byte entries (64-byte aligned, on
transparent huge pages where Linux has them; the slots of the first children are
prefetched) keyed by a 64-bit hash and verified against the whole stored state (hands,
play to beat, seats, spring flags), holding a bound and the best move. A seat that surely
cannot answer (a cheap test: no bomb, no rocket, and too few cards or no higher rank of
the width) passes without a node or a probe; in win mode a seat whose whole hand is one
legal play wins before any move is generated. Move ordering: the table's move, a move
that empties the hand, then the plays that leave the fewest plays to make (a rough split
count) and the lower play first (answering: the higher first when the mover holds no
more cards than the shortest opposing hand), bombs late, the pass last unless the play
to beat is a partner's. The order depends on the state alone (no history), so the
reported move is the same for any thread count. A search stopped by a node or time
limit (or :meth:`Searcher.stop`, the cancel flag checked every 1,024 nodes) unwinds at
once and stores nothing on the way.

Move lists live in one growable arena per :class:`Searcher`, addressed by offsets (a
realloc never leaves a dangling pointer). One :class:`Searcher` is used by one thread at
a time; the root split of ``threads > 1`` (:mod:`ddz.solver`) gives each thread its own.
"""

cimport cython
import threading
from libc.stdint cimport INT64_MAX, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, realloc
from libc.string cimport memcpy, memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from ddz._core cimport (Opts, RuleTable, legal_codes, code_counts, readings_codes, beats_opts,
                        NUM_RANKS, T_BOMB, T_ROCKET, T_PASS, T_SINGLE, T_TRIO_PAIR,
                        CODE_TYPE_SHIFT, CODE_RANK_SHIFT, CODE_LENGTH_SHIFT, CODE_WIDTH_SHIFT,
                        KICK_BITS, MAX_READINGS)

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* The transposition table: 64-byte aligned (an entry never straddles two cache
       lines), on transparent huge pages where Linux has them (fewer TLB misses on a
       table probed at random). Zeroed. A table of DDZ_LAZY_BYTES or more comes from
       calloc (the C library maps it from the kernel, whose pages are zero until first
       touched), so a large table_mb costs no time up front and memory only as the
       search fills it; its own pointer is kept just before the aligned one. */
    #define DDZ_LAZY_BYTES ((size_t)256 << 20)
    static void* ddz_table_alloc(size_t bytes) {
        void* p = NULL;
    #if defined(_WIN32)
        p = _aligned_malloc(bytes, 64);
        if (p != NULL) memset(p, 0, bytes);
    #else
        if (bytes >= DDZ_LAZY_BYTES) {
            char* raw = (char*)calloc(bytes + 128, 1);
            char* a;
            if (raw == NULL) return NULL;
            a = (char*)((((size_t)raw) + 64 + 63) & ~(size_t)63);
            ((void**)a)[-1] = raw;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
            madvise((void*)((((size_t)a) + 4095) & ~(size_t)4095), bytes - 4096, MADV_HUGEPAGE);
    #endif
            return a;
        }
        size_t align = bytes >= ((size_t)2 << 20) ? ((size_t)2 << 20) : 64;
        if (posix_memalign(&p, align, bytes) != 0) p = NULL;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (p != NULL && align > 64) madvise(p, bytes, MADV_HUGEPAGE);
    #endif
        if (p != NULL) memset(p, 0, bytes);
    #endif
        return p;
    }
    static void ddz_table_free(void* p, size_t bytes) {
        if (p == NULL) return;
    #if defined(_WIN32)
        _aligned_free(p);
    #else
        if (bytes >= DDZ_LAZY_BYTES) free(((void**)p)[-1]);
        else free(p);
    #endif
    }
    #if defined(__GNUC__) || defined(__clang__)
    #define ddz_prefetch(p) __builtin_prefetch((p), 1, 1)
    #else
    #define ddz_prefetch(p) ((void)0)
    #endif
    """
    void* ddz_table_alloc(size_t bytes) nogil
    void ddz_table_free(void* p, size_t bytes) nogil
    void ddz_prefetch(const void* p) nogil

cdef extern from "Python.h":
    ctypedef struct PyThreadState:
        pass
    PyThreadState* PyEval_SaveThread() nogil
    void PyEval_RestoreThread(PyThreadState*) nogil
    int PyErr_CheckSignals() except -1


cdef enum:
    INF = 1 << 30
    B_EXACT = 1
    B_LOWER = 2
    B_UPPER = 3
    CHECK_EVERY = 1023     # limits are checked every 1024 nodes
    POLL_EVERY = 8191      # Ctrl-C, cancel and progress every 8192 nodes, under the GIL
    MAX_SEATS = 3


cdef struct Entry:
    # 64 bytes (one cache line): the full state, verified on a hit (h: the packed hands)
    uint64_t h[MAX_SEATS]
    int64_t tb
    int64_t best
    int32_t value
    uint16_t meta
    uint16_t gen
    uint8_t bound
    uint8_t pad[15]


cdef struct MoveK:
    int64_t sortkey
    int64_t code


cdef struct Ctx:
    const Opts* o
    int n                  # seats: 2 or 3
    int landlord
    int score              # score mode: bombs, spring and anti-spring count
    uint8_t hands[MAX_SEATS][NUM_RANKS]
    uint64_t packed[MAX_SEATS]   # the same hands, 4 bits a rank (rank r at bits 4r..4r+3)
    int left[MAX_SEATS]
    int64_t nodes
    int64_t node_stop      # stop when nodes reach this (INT64_MAX: no limit)
    double deadline        # monotonic seconds (0: none)
    int* stop              # set by another thread: stop now
    int aborted
    void* owner            # the Searcher (a borrowed PyObject*), for the poll
    int polls              # 1: poll Ctrl-C (and the Python poll function) under the GIL
    PyThreadState* ts      # the GIL released by this search (NULL: held)
    Entry* tt
    uint64_t tmask
    uint16_t gen           # entries of other generations are empty (reset() bumps it)
    MoveK* arena
    Py_ssize_t arena_cap
    Py_ssize_t top
    Py_ssize_t max_moves


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline uint64_t mix(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t pack(const uint8_t* h) noexcept nogil:
    cdef uint64_t x = 0
    cdef int r
    for r in range(NUM_RANKS):
        x |= (<uint64_t>h[r]) << (4 * r)
    return x


cdef inline uint64_t state_key(uint64_t h0, uint64_t h1, uint64_t h2, int64_t tb, uint16_t meta) noexcept nogil:
    return mix(h0 * <uint64_t>0x9E3779B97F4A7C15ULL ^ h1 * <uint64_t>0xD1B54A32D192ED03ULL
               ^ h2 * <uint64_t>0xAEF17502108EF2D9ULL ^ (<uint64_t>tb) * <uint64_t>0xDB4F0B9175AE2165ULL
               ^ meta)


cdef inline uint16_t state_meta(int p, int last, int llp, int fp) noexcept nogil:
    return <uint16_t>(p | ((last + 1) << 2) | (llp << 4) | (fp << 6) | (1 << 7))


cdef inline int code_type(int64_t code) noexcept nogil:
    return <int>((code >> CODE_TYPE_SHIFT) & 31)


cdef inline int code_cards(int64_t code) noexcept nogil:
    """Cards in a play code (0 for the pass)."""
    cdef int t = code_type(code)
    cdef int w = <int>((code >> CODE_WIDTH_SHIFT) & 15)
    cdef int n
    cdef uint64_t k
    if t == T_PASS:
        return 0
    if t == T_ROCKET:
        return 2 * w
    n = w * <int>((code >> CODE_LENGTH_SHIFT) & 15)
    k = <uint64_t>code & ((<uint64_t>1 << (KICK_BITS * NUM_RANKS)) - 1)
    while k:
        n += <int>(k & 7)
        k >>= KICK_BITS
    return n


cdef inline int is_bomb(int64_t code) noexcept nogil:
    cdef int t = code_type(code)
    return t == T_BOMB or t == T_ROCKET


cdef inline int floor_half(int x) noexcept nogil:
    return (x - (x & 1)) // 2


cdef inline int ceil_half(int x) noexcept nogil:
    return -floor_half(-x)


cdef int grow(Ctx* c, Py_ssize_t need) noexcept nogil:
    """Make room for ``need`` more moves on the arena; 0 if out of memory."""
    cdef Py_ssize_t cap = c.arena_cap
    cdef MoveK* p
    if c.top + need <= cap:
        return 1
    while cap < c.top + need:
        cap = cap * 2 if cap else 4096
    p = <MoveK*>realloc(c.arena, cap * sizeof(MoveK))
    if p == NULL:
        return 0
    c.arena = p
    c.arena_cap = cap
    return 1


cdef inline void sort_moves(MoveK* m, Py_ssize_t n) noexcept nogil:
    """Insertion sort by descending sortkey (move lists are short; keys are distinct)."""
    cdef Py_ssize_t i, j
    cdef MoveK x
    for i in range(1, n):
        x = m[i]
        j = i - 1
        while j >= 0 and m[j].sortkey < x.sortkey:
            m[j + 1] = m[j]
            j -= 1
        m[j + 1] = x


cdef inline int is_landlord_side(Ctx* c, int seat) noexcept nogil:
    return seat == c.landlord


cdef inline int fewest_opposing(Ctx* c, int p) noexcept nogil:
    """The fewest cards an opponent of seat ``p`` holds."""
    cdef int q, m = 99
    for q in range(c.n):
        if is_landlord_side(c, q) != is_landlord_side(c, p) and c.left[q] < m:
            m = c.left[q]
    return m


cdef Py_ssize_t gen_ordered(Ctx* c, int p, int64_t tb, int last, int64_t tt_best) noexcept nogil:
    """Write the legal moves of seat ``p`` at ``c.arena[c.top:]`` in search order and
    return how many (-1: out of memory). The caller moves ``c.top`` past them. The order
    depends on the state only (and the table's move), never on what was searched before:
    :meth:`Searcher.ordered_moves` decides the reported move with it."""
    cdef Py_ssize_t n, i
    cdef int64_t code, key
    cdef int t, cards, rank, partner_play, side = is_landlord_side(c, p)
    cdef uint64_t hp = c.packed[p]
    cdef int short = fewest_opposing(c, p) if tb else 0
    # legal_codes writes codes only; MoveK interleaves keys, so generate into the
    # second half of a scratch area and spread them
    if not grow(c, 2 * c.max_moves):
        return -1
    n = legal_codes(c.o, c.hands[p], tb, <int64_t*>(c.arena + c.top + c.max_moves), c.max_moves)
    if n > c.max_moves:
        return -1
    partner_play = last >= 0 and (is_landlord_side(c, last) == side)
    for i in range(n):
        code = (<int64_t*>(c.arena + c.top + c.max_moves))[i]
        t = code_type(code)
        cards = code_cards(code)
        rank = <int>((code >> CODE_RANK_SHIFT) & 15)
        if code == tt_best and tt_best != -1:
            key = 1 << 21
        elif cards == c.left[p]:
            key = 1 << 20
        elif t == T_PASS:
            key = (1 << 19) if partner_play else 0      # the pass last, unless on a partner's play
        elif t == T_BOMB or t == T_ROCKET:
            key = 1 + 16 - rank                         # bombs just before the pass, low first
        elif tb == 0:
            # leading: what leaves the fewest plays to make, then the lower plays
            key = 1024 + (32 - split_count(hp - pack_code(code))) * 64 + (16 - rank) * 2
        else:
            # answering: what leaves the fewest plays to make, then the higher answer
            # when the mover holds no more cards than the shortest opposing hand (to
            # keep the lead and go out), else the lower (to save the high cards)
            key = 1024 + (32 - split_count(hp - pack_code(code))) * 64 \
                + (rank * 2 if c.left[p] <= short else (16 - rank) * 2)
        c.arena[c.top + i].code = code
        c.arena[c.top + i].sortkey = (key << 32) | (<int64_t>0xFFFFFFFF - <int64_t>i)
    sort_moves(c.arena + c.top, n)
    return n


cdef inline uint64_t pack_code(int64_t code) noexcept nogil:
    """The card counts of a play code, packed like a hand (4 bits a rank; 0 for the pass)."""
    cdef int t = code_type(code), r = 0
    cdef int w = <int>((code >> CODE_WIDTH_SHIFT) & 15)
    cdef int length = <int>((code >> CODE_LENGTH_SHIFT) & 15)
    cdef int hi = <int>((code >> CODE_RANK_SHIFT) & 15)
    cdef uint64_t k = <uint64_t>code & ((<uint64_t>1 << (KICK_BITS * NUM_RANKS)) - 1)
    cdef uint64_t x = 0
    if t == T_PASS:
        return 0
    while k:
        x |= (k & 7) << (4 * r)
        k >>= KICK_BITS
        r += 1
    if t == T_ROCKET:
        return x + ((<uint64_t>w) << (4 * 13)) + ((<uint64_t>w) << (4 * 14))
    return x + (((<uint64_t>w) * ((((<uint64_t>1) << (4 * length)) - 1) // 15)) << (4 * (hi - length + 1)))


cdef inline int split_count(uint64_t y) noexcept nogil:
    """A rough count of the plays needed to empty the packed hand ``y``: its ranks, less
    one for the rocket, less the trios that can carry a single or pair of 3..2 along."""
    cdef uint64_t ones = <uint64_t>0x111111111111111ULL
    cdef uint64_t b1 = y >> 1, b2 = y >> 2, b3 = y >> 3
    cdef uint64_t nz = (y | b1 | b2 | b3) & ones
    cdef uint64_t trio = y & b1 & ~b2 & ~b3 & ones
    cdef uint64_t small = nz & ~(b2 | b3 | (y & b1)) & <uint64_t>0x1111111111111ULL
    cdef int ranks = nibble_count(nz), trios = nibble_count(trio), smalls = nibble_count(small)
    if (nz >> 52) == 0x11:
        ranks -= 1
    return ranks - (trios if trios < smalls else smalls)


cdef int poll(Ctx* c) noexcept:
    """Every 8192 nodes: take the GIL (the search runs holding it until the first poll,
    so a small search never releases it), check Ctrl-C and call the Searcher's poll
    function (cancel, progress), then release the GIL. 1: stop."""
    cdef int r = 0
    if c.ts != NULL:
        if not c.polls:
            return 0
        PyEval_RestoreThread(c.ts)
        c.ts = NULL
    if c.polls:
        r = (<Searcher>c.owner).poll_python()
    c.ts = PyEval_SaveThread()
    return r


cdef inline int hit_limit(Ctx* c) noexcept:
    if c.stop[0]:
        return 1
    if c.deadline > 0 and now() >= c.deadline:
        return 1
    if (c.nodes & POLL_EVERY) == 0 and poll(c):
        return 1
    return 0


cdef inline int terminal(Ctx* c, int winner, int llp, int fp) noexcept nogil:
    """The value once ``winner`` has played its last card (landlord's side)."""
    if winner == c.landlord:
        if c.score and not fp:
            return 2        # spring
        return 1
    if c.score and llp == 1:
        return -2           # anti-spring
    return -1


cdef inline int forced_pass(Ctx* c, int p, int64_t tb) noexcept nogil:
    """1 when seat ``p`` surely has no play that beats ``tb`` (a play, not the pass), by
    a cheap test that may answer 0 when it cannot tell: no four of a rank and not both
    jokers (no bomb or rocket), and too few cards or, for a single, pair or trio (with
    or without a kicker), no rank above with as many copies."""
    cdef const uint8_t* h = c.hands[p]
    cdef int t = code_type(tb), r, w
    if c.packed[p] & <uint64_t>0x0CCCCCCCCCCCCCULL:      # some rank of 3..2 has 4 or more
        return 0
    if h[13] and h[14]:
        return 0
    if t == T_BOMB or t == T_ROCKET:
        return 1
    if c.left[p] < code_cards(tb):
        return 1
    if T_SINGLE <= t <= T_TRIO_PAIR:
        w = <int>((tb >> CODE_WIDTH_SHIFT) & 15)
        for r in range(<int>((tb >> CODE_RANK_SHIFT) & 15) + 1, NUM_RANKS):
            if h[r] >= w:
                return 0
        return 1
    return 0


cdef inline int nibble_count(uint64_t m) noexcept nogil:
    """How many of the 15 rank slots of ``m`` are set (``m`` holds only the low bit of
    each 4-bit slot): the sum of the slots lands in the top slot (at most 15, no carry)."""
    return <int>((m * <uint64_t>0x1111111111111111ULL) >> 60)


cdef inline int maybe_one_play(uint64_t x) noexcept nogil:
    """0 when the packed hand ``x`` surely is no single play, 1 when it may be (the full
    test is ``readings_codes``). A play of no chain has at most three ranks: one rank;
    two with a trio or more (a trio or four with kickers) or the two jokers (the rocket);
    three with four of a rank (four with two). A chain needs five ranks in a row of
    3..A, three pairs or two trios in a row."""
    cdef uint64_t ones = <uint64_t>0x111111111111111ULL      # the low bit of each of 15 ranks
    cdef uint64_t chain = <uint64_t>0x111111111111ULL        # ranks 3..A
    cdef uint64_t nz = (x | (x >> 1) | (x >> 2) | (x >> 3)) & ones
    cdef uint64_t ge2 = ((x >> 1) | (x >> 2) | (x >> 3)) & ones
    cdef uint64_t ge3 = ((x & (x >> 1)) | (x >> 2) | (x >> 3)) & ones
    cdef uint64_t ge4 = ((x >> 2) | (x >> 3)) & ones
    cdef int d = nibble_count(nz)
    if d == 1:
        return 1
    if d == 2 and (ge3 or (nz >> 52) == 0x11):
        return 1
    if d == 3 and ge4:
        return 1
    ge2 &= chain
    ge3 &= chain
    nz &= chain
    if ge3 & (ge3 >> 4):
        return 1
    if ge2 & (ge2 >> 4) & (ge2 >> 8):
        return 1
    return (nz & (nz >> 4) & (nz >> 8) & (nz >> 12) & (nz >> 16)) != 0


cdef inline int goes_out(Ctx* c, int p, int64_t tb) noexcept nogil:
    """1 when seat ``p``'s whole hand is one legal play now (leading, or beating ``tb``)."""
    cdef int64_t out[MAX_READINGS]
    cdef int k, i
    if c.left[p] > c.o.max_hand or not maybe_one_play(c.packed[p]):
        return 0
    k = readings_codes(c.o, c.hands[p], out)
    for i in range(k):
        if out[i] and (tb == 0 or beats_opts(c.o, out[i], tb)):
            return 1
    return 0


cdef int search(Ctx* c, int p, int64_t tb, int last, int llp, int fp, int alpha, int beta) noexcept:
    """Alpha-beta value (landlord's side, fail-soft) of the state with seat ``p`` to move."""
    cdef uint64_t key, hp, ch
    cdef uint16_t meta
    cdef Entry* e
    cdef int64_t tt_best = -1, best_move = 0, code
    cdef int maxing, a0, b0
    cdef int v, best, nllp, nfp, np_, cards, r, wa, wb, side
    cdef Py_ssize_t base, n, i
    cdef uint8_t cc[NUM_RANKS]

    c.nodes += 1
    if c.nodes >= c.node_stop or ((c.nodes & CHECK_EVERY) == 0 and hit_limit(c)):
        c.aborted = 1
        return 0
    if not c.score:
        llp = 0
        fp = 0
    # forced passes: step through without a table probe
    while tb != 0 and forced_pass(c, p, tb):
        np_ = (p + 1) % c.n
        if np_ == last or c.n == 2:
            tb = 0
            last = -1
        p = np_
    if not c.score and goes_out(c, p, tb):
        return terminal(c, p, 0, 0)
    maxing = is_landlord_side(c, p)
    a0 = alpha
    b0 = beta
    meta = state_meta(p, last, llp, fp)
    key = state_key(c.packed[0], c.packed[1], c.packed[2], tb, meta)
    e = c.tt + (key & c.tmask)
    if e.bound and e.gen == c.gen and e.h[0] == c.packed[0] and e.h[1] == c.packed[1] \
            and e.h[2] == c.packed[2] and e.tb == tb and e.meta == meta:
        v = e.value
        if e.bound == B_EXACT:
            return v
        if e.bound == B_LOWER:
            if v >= beta:
                return v
            if v > alpha:
                alpha = v
        else:
            if v <= alpha:
                return v
            if v < beta:
                beta = v
        tt_best = e.best

    base = c.top
    n = gen_ordered(c, p, tb, last, tt_best)
    if n < 0:
        c.aborted = 1
        return 0
    c.top = base + n
    # prefetch the table slots of the first children
    hp = c.packed[p]
    nllp = llp + 1 if (c.score and p == c.landlord and llp < 2) else llp
    nfp = 1 if (c.score and p != c.landlord) else fp
    for i in range(n if n < 8 else 8):
        code = c.arena[base + i].code
        if code == 0:
            continue
        c.packed[p] = hp - pack_code(code)
        ddz_prefetch(c.tt + (state_key(c.packed[0], c.packed[1], c.packed[2], code,
                                       state_meta((p + 1) % c.n, p, nllp, nfp)) & c.tmask))
    c.packed[p] = hp
    best = -INF if maxing else INF
    for i in range(n):
        code = c.arena[base + i].code
        if code == 0:
            np_ = (p + 1) % c.n
            if np_ == last or c.n == 2:
                v = search(c, np_, 0, -1, llp, fp, alpha, beta)
            else:
                v = search(c, np_, tb, last, llp, fp, alpha, beta)
        else:
            cards = code_cards(code)
            if cards == c.left[p]:
                v = terminal(c, p, nllp, nfp)
            else:
                code_counts(code, cc)
                for r in range(NUM_RANKS):
                    c.hands[p][r] -= cc[r]
                c.packed[p] = hp - pack_code(code)
                c.left[p] -= cards
                if c.score and is_bomb(code):
                    wa = floor_half(alpha)
                    wb = ceil_half(beta)
                    v = search(c, (p + 1) % c.n, code, p, nllp, nfp, wa, wb)
                else:
                    v = search(c, (p + 1) % c.n, code, p, nllp, nfp, alpha, beta)
                for r in range(NUM_RANKS):
                    c.hands[p][r] += cc[r]
                c.packed[p] = hp
                c.left[p] += cards
            if c.aborted:
                c.top = base
                return 0
            if c.score and is_bomb(code):
                v *= 2
        if c.aborted:
            c.top = base
            return 0
        if maxing:
            if v > best:
                best = v
                best_move = code
                if v > alpha:
                    alpha = v
        else:
            if v < best:
                best = v
                best_move = code
                if v < beta:
                    beta = v
        if alpha >= beta:
            break
    c.top = base
    # store (never after an abort: the returns above left already)
    e.gen = c.gen
    e.h[0] = c.packed[0]
    e.h[1] = c.packed[1]
    e.h[2] = c.packed[2]
    e.tb = tb
    e.meta = meta
    e.value = best
    e.best = best_move
    if best <= a0:
        e.bound = B_UPPER
    elif best >= b0:
        e.bound = B_LOWER
    else:
        e.bound = B_EXACT
    return best


cdef class Searcher:
    """One search context: the options of a rule table, the transposition table
    (``table_mb`` MiB, allocated once, rounded down to a power of two of entries) and the
    move arena. :meth:`reset` sets the seats, the landlord and the mode of a problem.
    Used by one thread at a time (:mod:`ddz.solver` gives each thread its own).

    :param table: the :class:`ddz._core.RuleTable` of the rules (``ddz.tables.table``).
    :param table_mb: transposition table size in MiB (at least 1).
    """
    cdef Ctx c
    cdef RuleTable table
    cdef int stop_flag
    cdef readonly Py_ssize_t entries
    cdef object poll_fn
    cdef object pending

    def __cinit__(self, RuleTable table, double table_mb):
        cdef Py_ssize_t want, n = 1
        memset(&self.c, 0, sizeof(Ctx))
        if not table_mb >= 1:
            raise ValueError("table_mb must be at least 1")
        table.built()
        self.table = table
        want = <Py_ssize_t>(table_mb * 1048576.0 / sizeof(Entry))
        while n * 2 <= want:
            n *= 2
        self.c.tt = <Entry*>ddz_table_alloc(n * sizeof(Entry))
        if self.c.tt == NULL:
            raise MemoryError(f"cannot allocate a {table_mb} MiB transposition table")
        self.entries = n
        self.c.tmask = n - 1
        self.c.o = &table.opts
        self.c.n = 2
        self.c.max_moves = table.max_moves
        self.c.stop = &self.stop_flag
        self.stop_flag = 0
        self.c.gen = 1
        self.c.owner = <void*>self

    def set_poll(self, fn):
        """``fn()`` (or ``None``) is called under the GIL every 8192 nodes of a running
        :meth:`value`, after the check for Ctrl-C (in the main thread); a true result
        stops the search (``exact=False``), and an exception it raises stops it and is
        raised by :meth:`value`. Also polled: Ctrl-C, when :meth:`value` runs in the
        main thread."""
        if fn is not None and not callable(fn):
            raise TypeError("the poll function must be callable or None")
        self.poll_fn = fn

    cdef int poll_python(self) noexcept:
        try:
            PyErr_CheckSignals()
            if self.poll_fn is not None and self.poll_fn():
                return 1
        except BaseException as exc:
            self.pending = exc
            return 1
        return 0

    def reset(self, int seats, int landlord, bint score):
        """Start a new problem: the seats (2 or 3), the landlord's seat and the mode
        (score or win); forgets every stored position (a generation count: nothing is
        cleared) and clears :meth:`stop`."""
        if seats not in (2, 3) or not 0 <= landlord < seats:
            raise ValueError("seats must be 2 or 3 and the landlord one of them")
        self.c.n = seats
        self.c.landlord = landlord
        self.c.score = score
        self.stop_flag = 0
        self.c.nodes = 0
        self.c.gen += 1
        if self.c.gen == 0:
            memset(self.c.tt, 0, (self.c.tmask + 1) * sizeof(Entry))
            self.c.gen = 1

    def clear_stop(self):
        """Undo :meth:`stop`."""
        self.stop_flag = 0

    def __dealloc__(self):
        if self.c.tt != NULL:
            ddz_table_free(self.c.tt, (self.c.tmask + 1) * sizeof(Entry))
        free(self.c.arena)

    @property
    def nodes(self):
        """Nodes searched by this searcher so far (every call)."""
        return self.c.nodes

    def stop(self):
        """Ask a running :meth:`value` (in another thread) to stop at once; it then
        returns ``exact=False``, and so do later calls until :meth:`clear_stop` or
        :meth:`reset`."""
        self.stop_flag = 1

    cdef int load(self, hands) except -1:
        cdef int s, r, v
        if len(hands) != self.c.n:
            raise ValueError("one hand per seat")
        for s in range(self.c.n):
            h = hands[s]
            if len(h) != NUM_RANKS:
                raise ValueError("a hand is 15 counts")
            self.c.left[s] = 0
            for r in range(NUM_RANKS):
                v = h[r]
                if not 0 <= v <= self.c.o.limit[r]:
                    raise ValueError("a count beyond the deck")
                self.c.hands[s][r] = <uint8_t>v
                self.c.left[s] += v
        for s in range(self.c.n, MAX_SEATS):
            memset(self.c.hands[s], 0, NUM_RANKS)
            self.c.left[s] = 0
        for s in range(MAX_SEATS):
            self.c.packed[s] = pack(self.c.hands[s])
        return 0

    def value(self, hands, int to_move, int64_t to_beat, int last, int landlord_plays,
              bint farmers_played, int alpha=-INF, int beta=INF, node_limit=None,
              double time_limit=0.0, bint release=False):
        """Search one state (every hand non-empty; trusted otherwise: :mod:`ddz.solver`
        validates positions).

        :param hands: one 15-count sequence per seat.
        :param to_move: the seat to move. :param to_beat: the play code to beat (0: lead).
        :param last: the seat that made it (-1 when leading).
        :param landlord_plays: plays the landlord has made (capped at 2 inside).
        :param alpha, beta: the window (fail-soft; default: everything).
        :param node_limit: stop after this many more nodes (``None``: no limit).
        :param time_limit: stop after this many seconds (0: no limit).
        :param release: release the GIL at once (a helper thread of a parallel search);
            otherwise the search holds it until its first poll (8192 nodes), so that a
            small search never waits to take it back.
        :returns: ``(value, exact)``: ``exact`` is ``False`` when a limit,
            :meth:`stop` or the poll function cut the search short (the value is then
            meaningless).
        :raises KeyboardInterrupt: (or whatever the poll raised) Ctrl-C during the
            search, which stops at once.
        """
        cdef int v, llp = landlord_plays if landlord_plays < 2 else 2
        cdef int64_t limit = -1 if node_limit is None else node_limit
        self.load(hands)
        if not (0 <= to_move < self.c.n and -1 <= last < self.c.n):
            raise ValueError("seat out of range")
        self.c.aborted = 0
        self.c.top = 0
        self.c.node_stop = INT64_MAX if limit < 0 else self.c.nodes + limit
        self.c.deadline = now() + time_limit if time_limit > 0 else 0.0
        self.c.polls = self.poll_fn is not None or threading.current_thread() is threading.main_thread()
        self.c.ts = PyEval_SaveThread() if release else NULL
        v = search(&self.c, to_move, to_beat, last, llp, farmers_played, alpha, beta)
        if self.c.ts != NULL:
            PyEval_RestoreThread(self.c.ts)
            self.c.ts = NULL
        if self.pending is not None:
            exc, self.pending = self.pending, None
            raise exc
        return v, not self.c.aborted

    def cheap_tests(self, hands, int seat, int64_t to_beat):
        """Test hook: ``(forced_pass, goes_out)`` of the search's cheap tests for ``seat``
        (1: surely only the pass answers ``to_beat``; 1: the whole hand is one legal play
        now). The first must never say 1 when a play beats ``to_beat``."""
        self.load(hands)
        return (forced_pass(&self.c, seat, to_beat) if to_beat else 0), goes_out(&self.c, seat, to_beat)

    def ordered_moves(self, hands, int to_move, int64_t to_beat, int last):
        """The legal move codes of the seat to move, in the search's order (without the
        table's move). :returns: list of int codes."""
        cdef Py_ssize_t n, i
        self.load(hands)
        self.c.top = 0
        n = gen_ordered(&self.c, to_move, to_beat, last, -1)
        if n < 0:
            raise MemoryError("no room for the move list")
        return [self.c.arena[i].code for i in range(n)]



def _packed(int64_t code, hand):
    """Test hook: ``(pack(code_counts(code)), pack_code(code), split_count(pack(hand)),
    maybe_one_play(pack(hand)))`` for one play code and one 15-count hand: the packed
    counts of the search against the core's, and its cheap hand tests."""
    cdef uint8_t cc[NUM_RANKS]
    cdef uint8_t h[NUM_RANKS]
    cdef int r
    code_counts(code, cc)
    for r in range(NUM_RANKS):
        h[r] = hand[r]
    return pack(cc), pack_code(code), split_count(pack(h)), maybe_one_play(pack(h))
