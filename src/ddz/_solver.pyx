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

Search: fail-soft alpha-beta; a fixed-size, direct-mapped transposition table keyed by
a full 64-bit hash and verified against the stored state (hands, play to beat, seats,
spring flags), holding a bound and the best move; move ordering (the table's move, a
move that empties the hand; leading, the plays that leave the fewest plays to make by a
rough count, then longer plays; answering, the higher plays, then bombs, the pass last
unless the play to beat is a partner's). A search stopped by a node or
time limit (or :meth:`Searcher.stop`) unwinds at once and stores nothing on the way.

Move lists live in one growable arena per :class:`Searcher`, addressed by offsets (a
realloc never leaves a dangling pointer). One :class:`Searcher` is used by one thread at
a time; the root split of ``threads > 1`` (:mod:`ddz.solver`) gives each thread its own.
"""

cimport cython
from libc.stdint cimport INT64_MAX, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc, calloc, qsort
from libc.string cimport memcpy, memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from ddz._core cimport (Opts, RuleTable, legal_codes, code_counts, NUM_RANKS, T_BOMB,
                        T_ROCKET, T_PASS, CODE_TYPE_SHIFT, CODE_RANK_SHIFT,
                        CODE_LENGTH_SHIFT, CODE_WIDTH_SHIFT, KICK_BITS)

cdef enum:
    INF = 1 << 30
    B_EXACT = 1
    B_LOWER = 2
    B_UPPER = 3
    CHECK_EVERY = 1023     # limits are checked every 1024 nodes
    MAX_SEATS = 3


cdef struct Entry:
    uint64_t key
    uint64_t h[MAX_SEATS]
    int64_t tb
    int64_t best
    int32_t value
    uint16_t meta
    uint16_t gen
    uint8_t bound


cdef struct MoveK:
    int64_t sortkey
    int64_t code


cdef struct Ctx:
    const Opts* o
    int n                  # seats: 2 or 3
    int landlord
    int score              # score mode: bombs, spring and anti-spring count
    uint8_t hands[MAX_SEATS][NUM_RANKS]
    int left[MAX_SEATS]
    int64_t nodes
    int64_t node_stop      # stop when nodes reach this (INT64_MAX: no limit)
    double deadline        # monotonic seconds (0: none)
    int* stop              # set by another thread: stop now
    int aborted
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


cdef int cmp_moves(const void* a, const void* b) noexcept nogil:
    cdef int64_t x = (<const MoveK*>a).sortkey
    cdef int64_t y = (<const MoveK*>b).sortkey
    return (x < y) - (x > y)      # descending


cdef inline int is_landlord_side(Ctx* c, int seat) noexcept nogil:
    return seat == c.landlord


cdef Py_ssize_t gen_ordered(Ctx* c, int p, int64_t tb, int last, int64_t tt_best) noexcept nogil:
    """Write the legal moves of seat ``p`` at ``c.arena[c.top:]`` in search order and
    return how many (-1: out of memory). The caller moves ``c.top`` past them."""
    cdef Py_ssize_t n, i
    cdef int64_t code, key
    cdef int t, cards, rank, partner_play
    # legal_codes writes codes only; MoveK interleaves keys, so generate into the
    # second half of a scratch area and spread them
    if not grow(c, 2 * c.max_moves):
        return -1
    n = legal_codes(c.o, c.hands[p], tb, <int64_t*>(c.arena + c.top + c.max_moves), c.max_moves)
    if n > c.max_moves:
        return -1
    partner_play = last >= 0 and (is_landlord_side(c, last) == is_landlord_side(c, p))
    for i in range(n):
        code = (<int64_t*>(c.arena + c.top + c.max_moves))[i]
        t = code_type(code)
        cards = code_cards(code)
        rank = <int>((code >> CODE_RANK_SHIFT) & 15)
        if code == tt_best and tt_best != -1:
            key = 1 << 20
        elif cards == c.left[p]:
            key = 1 << 19
        elif t == T_PASS:
            key = (1 << 18) if partner_play else 0      # the pass last, unless on a partner's play
        elif t == T_BOMB or t == T_ROCKET:
            key = 1 + 16 - rank                         # bombs just before the pass, low first
        elif tb == 0:
            # leading: what leaves the fewest plays to make, then longer plays
            key = 1024 + (32 - split_after(c.hands[p], code)) * 64 + cards * 2
        else:
            key = 1024 + rank                           # answering: the higher first
        c.arena[c.top + i].code = code
        c.arena[c.top + i].sortkey = (key << 32) | (<int64_t>0xFFFFFFFF - <int64_t>i)
    qsort(c.arena + c.top, n, sizeof(MoveK), cmp_moves)
    return n


cdef int split_after(const uint8_t* h, int64_t code) noexcept nogil:
    """A rough count of the plays needed to empty the hand left after ``code``."""
    cdef uint8_t cc[NUM_RANKS]
    cdef int r, k, ranks = 0, trios = 0, small = 0, x
    code_counts(code, cc)
    for r in range(NUM_RANKS):
        k = h[r] - cc[r]
        if k:
            ranks += 1
            if k == 3:
                trios += 1
            elif k < 3 and r < 13:
                small += 1
    if h[13] - cc[13] and h[14] - cc[14]:
        ranks -= 1
    x = trios if trios < small else small
    return ranks - x


cdef inline int hit_limit(Ctx* c) noexcept nogil:
    if c.stop[0]:
        return 1
    if c.deadline > 0 and now() >= c.deadline:
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


cdef int search(Ctx* c, int p, int64_t tb, int last, int llp, int fp, int alpha, int beta) noexcept nogil:
    """Alpha-beta value (landlord's side, fail-soft) of the state with seat ``p`` to move."""
    cdef uint64_t h0, h1, h2, key
    cdef uint16_t meta
    cdef Entry* e
    cdef int64_t tt_best = -1, best_move = 0, code
    cdef int maxing = is_landlord_side(c, p)
    cdef int a0 = alpha, b0 = beta
    cdef int v, best, nlast, nllp, nfp, np_, cards, r, wa, wb
    cdef int64_t ntb
    cdef Py_ssize_t base, n, i
    cdef uint8_t cc[NUM_RANKS]

    c.nodes += 1
    if c.nodes >= c.node_stop or ((c.nodes & CHECK_EVERY) == 0 and hit_limit(c)):
        c.aborted = 1
        return 0
    if not c.score:
        llp = 0
        fp = 0
    h0 = pack(c.hands[0])
    h1 = pack(c.hands[1])
    h2 = pack(c.hands[2]) if c.n == 3 else 0
    meta = <uint16_t>(p | ((last + 1) << 2) | (llp << 4) | (fp << 6) | (1 << 7))
    key = mix(h0 ^ mix(h1 + <uint64_t>0x9E3779B97F4A7C15ULL) ^ mix(h2 + <uint64_t>0xD1B54A32D192ED03ULL)
              ^ mix(<uint64_t>tb + meta))
    e = c.tt + (key & c.tmask)
    if e.bound and e.gen == c.gen and e.key == key and e.h[0] == h0 and e.h[1] == h1 and e.h[2] == h2 \
            and e.tb == tb and e.meta == meta:
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
            nllp = llp
            nfp = fp
            if p == c.landlord:
                nllp = llp + 1 if llp < 2 else 2
            else:
                nfp = 1
            if cards == c.left[p]:
                v = terminal(c, p, nllp, nfp)
            else:
                code_counts(code, cc)
                for r in range(NUM_RANKS):
                    c.hands[p][r] -= cc[r]
                c.left[p] -= cards
                if c.score and is_bomb(code):
                    wa = floor_half(alpha)
                    wb = ceil_half(beta)
                    v = search(c, (p + 1) % c.n, code, p, nllp, nfp, wa, wb)
                else:
                    v = search(c, (p + 1) % c.n, code, p, nllp, nfp, alpha, beta)
                for r in range(NUM_RANKS):
                    c.hands[p][r] += cc[r]
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
    e.key = key
    e.gen = c.gen
    e.h[0] = h0
    e.h[1] = h1
    e.h[2] = h2
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
        self.c.tt = <Entry*>calloc(n, sizeof(Entry))
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
        free(self.c.tt)
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
        return 0

    def value(self, hands, int to_move, int64_t to_beat, int last, int landlord_plays,
              bint farmers_played, int alpha=-INF, int beta=INF, node_limit=None,
              double time_limit=0.0):
        """Search one state (every hand non-empty; trusted otherwise: :mod:`ddz.solver`
        validates positions).

        :param hands: one 15-count sequence per seat.
        :param to_move: the seat to move. :param to_beat: the play code to beat (0: lead).
        :param last: the seat that made it (-1 when leading).
        :param landlord_plays: plays the landlord has made (capped at 2 inside).
        :param alpha, beta: the window (fail-soft; default: everything).
        :param node_limit: stop after this many more nodes (``None``: no limit).
        :param time_limit: stop after this many seconds (0: no limit).
        :returns: ``(value, exact)``: ``exact`` is ``False`` when a limit or
            :meth:`stop` cut the search short (the value is then meaningless).
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
        with nogil:
            v = search(&self.c, to_move, to_beat, last, llp, farmers_played, alpha, beta)
        return v, not self.c.aborted

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

