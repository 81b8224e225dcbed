# cython: language_level=3
"""The endgame solver's search: exact perfect-information alpha-beta over the core's
kernels (issues 12 and 26; RULES.md §5 play, §6 score).

A state is the hands of two or three seats (15 counts each), the seat to move, the play
to beat (a ``Play.code``, 0 when leading) and the seat that made it (-1 when leading),
and, in score mode, how many plays the landlord has made (capped at 2) and whether a
farmer has played (they decide spring and anti-spring, RULES.md §6).

Values are from the landlord's side: in win mode +1 (the landlord wins) or -1; in score
mode ±2**k, the doublings still to come (each bomb or rocket played, spring,
anti-spring), so that the score of the hand is ``base * multiplier * value``. The
landlord maximises, the farmers minimise (two farmers are one side: RULES.md §5).

Search: fail-soft alpha-beta over packed hands (one 64-bit word a hand, 4 bits a rank);
a :class:`Table` (transposition table) of 64-byte entries, direct-mapped, keyed by a
64-bit hash and verified against the whole stored state (hands, play to beat, seats,
spring flags) and a checksum of the entry (when threads share the table, a torn entry is a
miss: lock-free). A seat that surely cannot answer passes without a node or a probe; in
win mode a seat whose whole hand is one legal play wins before any move is generated.
The move order depends on the state alone (no history). A search stopped by a node or
time limit, :meth:`Searcher.stop` or its poll unwinds at once and stores nothing on the
way.

The root (:meth:`Searcher.solve`): the value, then the reported moves and the principal
variation, both defined by the state's move order alone (the first move, in that order,
whose child has the root's value), so they are the same whatever the table held: for
any thread count and table size.

Threads: helpers (:meth:`Searcher.help`) search the same root on the same table
(simplified ABDADA: a thread defers a move, other than a node's first, that another
thread is searching, and comes back to it at the end), so the table fills faster; the
first thread to finish gives the value.

The search runs in the calling thread holding the GIL until its first poll (8,192
nodes), so a small search never releases it; from then on it runs without the GIL and
takes it back every 8,192 nodes for the poll (Ctrl-C in the main thread, and the poll
function: cancel, progress).
"""

cimport cython
import operator
import threading
from libc.stdint cimport INT64_MAX, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, realloc
from libc.string cimport memcpy, memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from ddz.core._core cimport (Opts, opts_from, legal_codes, count_legal, code_counts, readings_codes, beats_opts,
                        NUM_RANKS, T_BOMB, T_ROCKET, T_PASS, T_SINGLE, T_TRIO_PAIR,
                        CODE_TYPE_SHIFT, CODE_RANK_SHIFT, CODE_LENGTH_SHIFT, CODE_WIDTH_SHIFT,
                        KICK_BITS, MAX_READINGS)

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(_WIN32)
    #include <windows.h>
    #else
    #include <sys/mman.h>
    #endif
    /* The transposition table: mapped from the kernel, whose pages are zero until first
       touched, so a table costs no time up front and memory only as the search fills
       it (page-aligned, so no entry straddles two cache lines). Huge pages are asked
       for only past the first 64 MiB: on a small table, faulting them in (compacting
       memory for them) cost more than their fewer TLB misses saved. */
    static void* ddz_table_alloc(size_t bytes) {
    #if defined(_WIN32)
        return VirtualAlloc(NULL, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    #else
    #ifndef MAP_NORESERVE
    #define MAP_NORESERVE 0
    #endif
        /* no swap reserved: the table is a cap, touched only as far as a search grows it */
        void* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) return NULL;
    #if defined(MADV_HUGEPAGE)
        /* huge pages past the first 64 MiB, where only a long search reaches: 15-30%
           faster on searches of gigabytes (fewer TLB misses); a small search's first
           touch does not pay for compacting memory */
        if (bytes > ((size_t)64 << 20))
            madvise((char*)p + ((size_t)64 << 20), bytes - ((size_t)64 << 20), MADV_HUGEPAGE);
    #endif
        return p;
    #endif
    }
    static void ddz_table_free(void* p, size_t bytes) {
        if (p == NULL) return;
    #if defined(_WIN32)
        VirtualFree(p, 0, MEM_RELEASE);
    #else
        munmap(p, bytes);
    #endif
    }
    /* Bytes of memory the system can still give this process: Linux's MemAvailable,
       bounded by the room left under a cgroup (v2) memory limit where one is set
       (memory.max - memory.current); Windows' available physical memory; 0: unknown. */
    #include <stdio.h>
    static unsigned long long ddz_mem_available(void) {
    #if defined(_WIN32)
        MEMORYSTATUSEX m;
        m.dwLength = sizeof(m);
        return GlobalMemoryStatusEx(&m) ? (unsigned long long)m.ullAvailPhys : 0;
    #elif defined(__linux__)
        unsigned long long avail = 0, kb, lim, cur;
        char line[128];
        FILE* f = fopen("/proc/meminfo", "r");
        FILE* g;
        if (f != NULL) {
            while (fgets(line, sizeof line, f) != NULL)
                if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) { avail = kb * 1024; break; }
            fclose(f);
        }
        f = fopen("/sys/fs/cgroup/memory.max", "r");       /* "max" where there is no limit */
        if (f != NULL) {
            if (fscanf(f, "%llu", &lim) == 1 && (g = fopen("/sys/fs/cgroup/memory.current", "r")) != NULL) {
                if (fscanf(g, "%llu", &cur) == 1) {
                    unsigned long long room = lim > cur ? lim - cur : 1;
                    if (avail == 0 || room < avail) avail = room;
                }
                fclose(g);
            }
            fclose(f);
        }
        return avail;
    #else
        return 0;
    #endif
    }
    /* The processes that solve at once on this machine (DDZ_SOLVING_PROCESSES, set by
       the pools that start them; checked when ddz is imported): its decimal digits, at
       most 10**12; 1 when unset or anything else. */
    static unsigned long long ddz_solving_processes(void) {
        const char* v = getenv("DDZ_SOLVING_PROCESSES");
        unsigned long long n = 0;
        int digits = 0;
        if (v == NULL) return 1;
        for (; *v; v++) {           /* leading zeros count for nothing, as in Python's int() */
            if (*v < '0' || *v > '9') return 1;
            if (n == 0 && *v == '0') continue;
            if (++digits > 13) return 1;
            n = 10 * n + (unsigned long long)(*v - '0');
        }
        return n >= 1 && n <= 1000000000000ULL ? n : 1;
    }
    /* Zero a table: hand its pages back to the kernel (zero again when next touched). */
    static void ddz_table_zero(void* p, size_t bytes) {
    #if defined(__linux__) && defined(MADV_DONTNEED)
        if (madvise(p, bytes, MADV_DONTNEED) == 0) return;
    #endif
        memset(p, 0, bytes);
    }
    /* pext (gather the bits of x selected by m to the bottom): one instruction where the
       CPU has BMI2 (checked once at run time), a loop otherwise. */
    static unsigned long long ddz_pext_soft(unsigned long long x, unsigned long long m) {
        unsigned long long r = 0, bit = 1;
        while (m) {
            unsigned long long low = m & (0 - m);
            if (x & low) r |= bit;
            bit <<= 1;
            m ^= low;
        }
        return r;
    }
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    #include <immintrin.h>
    __attribute__((target("bmi2"))) static unsigned long long ddz_pext_bmi2(unsigned long long x, unsigned long long m) {
        return _pext_u64(x, m);
    }
    static int ddz_bmi2 = -1;
    static unsigned long long ddz_pext(unsigned long long x, unsigned long long m) {
        if (ddz_bmi2 < 0) { __builtin_cpu_init(); ddz_bmi2 = __builtin_cpu_supports("bmi2") ? 1 : 0; }
        return ddz_bmi2 ? ddz_pext_bmi2(x, m) : ddz_pext_soft(x, m);
    }
    #else
    #define ddz_pext ddz_pext_soft
    #endif
    /* The number of kicker cards of a play code (the sum of its 15 3-bit fields). */
    #if defined(__GNUC__) || defined(__clang__)
    #define DDZ_M1 0x49249249249ULL         /* bit 0 of each of the 15 kicker fields */
    #define ddz_kickers(x) (__builtin_popcountll((x) & DDZ_M1) + 2 * __builtin_popcountll((x) & (DDZ_M1 << 1)) \
                            + 4 * __builtin_popcountll((x) & (DDZ_M1 << 2)))
    #else
    static int ddz_kickers(unsigned long long x) {
        int n = 0;
        x &= 0x1FFFFFFFFFFFULL;
        while (x) { n += (int)(x & 7); x >>= 3; }
        return n;
    }
    #endif
    /* The highest set bit of x (not 0), as a value. */
    #if defined(__GNUC__) || defined(__clang__)
    #define ddz_hibit(x) (((unsigned long long)1) << (63 - __builtin_clzll(x)))
    #else
    static unsigned long long ddz_hibit(unsigned long long x) {
        while (x & (x - 1)) x &= x - 1;
        return x;
    }
    #endif
    #if defined(__GNUC__) || defined(__clang__)
    #define ddz_prefetch(p) __builtin_prefetch((p), 1, 1)
    #define ddz_load(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
    #define ddz_store(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
    #define ddz_store_mask(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
    static int ddz_claim(int* p, int from, int to) {     /* 1: *p was from and is now to */
        return __atomic_compare_exchange_n(p, &from, to, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
    #elif defined(_MSC_VER)
    #include <intrin.h>
    #define ddz_prefetch(p) ((void)0)
    #define ddz_load(p) (*(volatile long*)(p))
    #define ddz_store(p, v) _InterlockedExchange((volatile long*)(p), (v))
    #define ddz_store_mask(p, v) (*(volatile unsigned long long*)(p) = (v))
    static int ddz_claim(int* p, int from, int to) {
        return _InterlockedCompareExchange((volatile long*)p, to, from) == from;
    }
    #else
    #define ddz_prefetch(p) ((void)0)
    #define ddz_load(p) (*(volatile int*)(p))
    #define ddz_store(p, v) (*(volatile int*)(p) = (v))
    #define ddz_store_mask(p, v) (*(volatile unsigned long long*)(p) = (v))
    static int ddz_claim(int* p, int from, int to) {
        if (*(volatile int*)p != from) return 0;
        *(volatile int*)p = to;
        return 1;
    }
    #endif
    """
    void* ddz_table_alloc(size_t bytes) nogil
    void ddz_table_free(void* p, size_t bytes) nogil
    void ddz_table_zero(void* p, size_t bytes) nogil
    unsigned long long ddz_mem_available() nogil
    unsigned long long ddz_solving_processes() nogil
    void ddz_prefetch(const void* p) nogil
    uint64_t ddz_hibit(uint64_t x) nogil
    uint64_t ddz_pext(uint64_t x, uint64_t m) nogil
    int ddz_kickers(uint64_t x) nogil
    int ddz_load(int* p) nogil
    void ddz_store(int* p, int v) nogil
    void ddz_store_mask(uint64_t* p, uint64_t v) nogil
    int ddz_claim(int* p, int old, int new) nogil

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
    CHECK_EVERY = 1023     # the time limit is checked every 1024 nodes
    POLL_EVERY = 8191      # Ctrl-C, cancel and progress every 8192 nodes, under the GIL
    MAX_SEATS = 3
    BUSY_BITS = 14         # ABDADA: slots of the "being searched" table
    FIRST_CAP = 4096       # move list capacity to start with (grown when a hand has more)
    PV_MAX = 120
    SMALL_ENTRIES_LOG = 10 # a search of 16 cards or fewer starts on 2**10 entries (64 KiB: stays in cache)
    FEAT_CW = 1            # the control-win test at a lead (win mode)
    FEAT_CANON = 2         # states equal up to empty ranks share table entries
    FEAT_DEFAULT = 259     # FEAT_CW | FEAT_CANON | FEAT_WIN_IN_SCORE
    CW_SAFE_MAX = 48       # safe plays kept for the control-win test
    CW_STEPS = 4096        # its search steps
    PREFETCH_AHEAD = 4     # children whose table slots are prefetched ahead
    PREFETCH_ENTRIES = 1 << 15     # a table of fewer entries in use (2 MiB) stays in cache: no prefetching
    GROW_AT = 1            # the entries in use double when the nodes pass this many times them
    GROW_NS_PER_ENTRY = 200   # a doubling's cost, ns per entry in use (measured: 0.73 s from 4 Mi entries, loaded)
    FEAT_DFPN = 4          # win mode: depth-first proof-number search instead of alpha-beta
    FEAT_DFPN_H = 8        # df-pn: first proof and disproof numbers from the hands (else 1 and 1)
    FEAT_DFPN_MAX = 16     # df-pn: a sum over children counted as their largest plus one per other open child
    FEAT_DFPN_EPS = 32     # df-pn: the 1 + 1/4 threshold (fewer switches between siblings)
    FEAT_SW = 64           # win mode: an answer no opponent beats, then control-win (static_win)
    FEAT_FEED = 128        # win mode: a farmer's lead the partner goes out on (static_win)
    FEAT_WIN_IN_SCORE = 256  # score mode: the win-mode search where who wins decides the score
    WIN_IN_SCORE = 3       # the landlord-plays field of a win-mode state inside a score search
    SW_SPLIT_MAX = 3       # static_win tries an answer leaving a hand of at most this split_count
    SW_ANSWERS = 8         # safe answers tried by static_win
    PN_INF = 1 << 30       # df-pn: an infinite proof or disproof number
    DBUCKET = 4            # df-pn: entries per table bucket


cdef struct Entry:
    # 64 bytes (one cache line): the full state, verified on a hit (h: the packed hands)
    uint64_t h[MAX_SEATS]
    int64_t tb
    int64_t best
    uint64_t check         # a checksum of the other fields (a torn entry is a miss)
    int32_t value
    uint16_t meta
    uint16_t gen
    uint8_t bound
    uint8_t pad[7]


cdef struct Key:
    # what a state is stored under: its packed hands and play to beat, relabelled to a
    # canonical form when the rank relabelling is on (FEAT_CANON), and the seats
    uint64_t h[MAX_SEATS]
    int64_t tb
    uint16_t meta
    uint64_t hash


cdef struct Beaters:
    # what one opponent could beat with: per width w, the ranks it holds w or more of
    uint32_t m[5]
    int bombs              # its bombs' ranks (bit r), and 1 << 15 for the rocket


cdef struct DEntry:
    # a df-pn table entry (64 bytes, in the same table as Entry: a search uses one kind
    # per generation): the full state, its proof and disproof numbers, the nodes spent
    uint64_t h[MAX_SEATS]
    int64_t tb
    uint64_t work
    uint32_t pn
    uint32_t dn
    uint16_t meta
    uint16_t gen
    uint8_t used
    uint8_t pad[11]


cdef struct DChild:
    # a df-pn node's child: its key, its state after the forced passes (p -1: the hand
    # is decided, pn and dn say how) and its last known proof and disproof numbers
    Key k
    int64_t code
    int64_t tb
    int p
    int last
    uint32_t pn
    uint32_t dn


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
    int polls              # 1: poll Ctrl-C (and the Python poll function) under the GIL; -1: not known yet
    PyThreadState* ts      # the GIL released by this search (NULL: held)
    Entry* tt
    uint64_t tmask         # the entries in use, less one (a power of two)
    uint64_t* maskp        # where the search reads it: its own, or (a helper) the main search's
    uint64_t tfull         # the table's entries, less one
    uint16_t gen           # entries of other generations are empty
    int shared             # other threads use the table: ABDADA
    uint64_t* busy         # ABDADA: hashes of the moves being searched
    int features           # bit set of the optional prunings (FEAT_*), for measuring them
    int canon              # FEAT_CANON is on and the options allow it
    int64_t cw_budget      # control-win test: search steps left in this test
    MoveK* arena
    Py_ssize_t arena_cap
    Py_ssize_t top
    Py_ssize_t max_moves
    int dfpn               # win mode by df-pn (FEAT_DFPN)
    DChild* kids           # df-pn: the children of the nodes on the path
    Py_ssize_t kids_cap
    Py_ssize_t ktop


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


cdef inline uint64_t entry_check(const Entry* e) noexcept nogil:
    """The checksum of an entry's fields (never 0)."""
    return mix(e.h[0] ^ (e.h[1] * <uint64_t>0x9E3779B97F4A7C15ULL) ^ (e.h[2] * <uint64_t>0xC2B2AE3D27D4EB4FULL)
               ^ ((<uint64_t>e.tb) * <uint64_t>0x165667B19E3779F9ULL) ^ ((<uint64_t>e.best) << 1)
               ^ ((<uint64_t><uint32_t>e.value) << 32) ^ (<uint64_t>e.meta << 16) ^ e.gen
               ^ (<uint64_t>e.bound << 8)) | 1


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
        cap = cap * 2 if cap else 8192
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
    the reported move and line are decided with it."""
    cdef Py_ssize_t n, i
    cdef int64_t code, key
    cdef int t, cards, rank, partner_play, side = is_landlord_side(c, p)
    cdef uint64_t hp = c.packed[p]
    cdef int short = fewest_opposing(c, p) if tb else 0
    cdef int64_t* raw
    # legal_codes writes codes only; MoveK interleaves keys, so generate into the
    # second half of a scratch area and spread them
    while True:
        if not grow(c, 2 * c.max_moves):
            return -1
        raw = <int64_t*>(c.arena + c.top + c.max_moves)
        n = legal_codes(c.o, c.hands[p], tb, raw, c.max_moves)
        if n <= c.max_moves:
            break
        c.max_moves = n + 64          # a hand of more moves than ever: room, and again
    partner_play = last >= 0 and (is_landlord_side(c, last) == side)
    for i in range(n):
        code = raw[i]
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
    if c.polls < 0:         # the first poll (holding the GIL): is there anything to poll?
        c.polls = (<Searcher>c.owner).poll_fn is not None or \
            threading.current_thread() is threading.main_thread()
    if c.polls:
        r = (<Searcher>c.owner).poll_python()
    c.ts = PyEval_SaveThread()
    return r


cdef void grow_table(Ctx* c) noexcept nogil:
    """Use twice the entries: a search touches about as much of its table as it needs.
    The entries of this generation whose slot moves to the new half go there (a key's
    slot is its hash under the mask; the hash is that of the stored, canonical state)."""
    cdef uint64_t i, j, old = c.tmask + 1, mask = 2 * c.tmask + 1
    cdef Entry* e
    for i in range(old):
        e = c.tt + i
        if e.bound and e.gen == c.gen:
            j = state_key(e.h[0], e.h[1], e.h[2], e.tb, e.meta) & mask
            if j != i:
                memcpy(c.tt + j, e, sizeof(Entry))
                e.bound = 0
    ddz_store_mask(&c.tmask, mask)


cdef uint64_t share_free = 1 << 20    # entries in use (64 MiB) below which growth asks no memory check
cdef uint64_t keep_entries = 1 << 20  # entries (64 MiB) whose pages a table keeps between searches


def _memory_rule(uint64_t free_entries, uint64_t keep):
    """Set the entries in use below which the table grows without asking for memory
    (64 MiB of them) and the entries whose pages a table keeps between searches (64 MiB
    of them); returns the old pair. For tests, on small tables."""
    global share_free, keep_entries
    old = (share_free, keep_entries)
    share_free, keep_entries = free_entries, keep
    return old


cdef inline Py_ssize_t first_entries(int cards) noexcept:
    """The entries a search of ``cards`` cards starts on: 2**10 up to 16 cards, 2**12 up
    to 20 (2**10 cost 20-card searches 7% against 2**14: they grow past it), 2**14 up
    to 27, 2**(cards/2) from 28 on, at most the free size (64 MiB: past it the table
    grows only within its share of memory)."""
    cdef uint64_t e = (<uint64_t>1) << (SMALL_ENTRIES_LOG if cards <= 16 else (12 if cards <= 20 else (14 if cards < 28 else (cards // 2 if cards < 64 else 40))))
    return <Py_ssize_t>(e if e < share_free else share_free)


cdef int may_grow(Ctx* c) noexcept nogil:
    """1 when doubling the entries in use keeps the table within its share of memory:
    the bytes added at most the memory the system can still give divided by twice the
    processes that solve (``DDZ_SOLVING_PROCESSES``); unknown memory: 1."""
    cdef unsigned long long add = (c.tmask + 1) * sizeof(Entry), avail = ddz_mem_available()
    return avail == 0 or add <= avail // (2 * ddz_solving_processes())


cdef inline int hit_limit(Ctx* c) noexcept:
    """The checks of every 1024th node: the time limit, the table's growth and the poll.
    A doubling that would not end before the time limit (about GROW_NS_PER_ENTRY a
    present entry: the move and the new pages' first touch) is not made: the table
    stays that size for the rest of the search, which the limit ends soon."""
    cdef double t = 0.0
    if c.deadline > 0:
        t = now()
        if t >= c.deadline:
            return 1
    if c.maskp == &c.tmask and c.tmask < c.tfull and <uint64_t>c.nodes > GROW_AT * c.tmask:
        if c.deadline > 0 and t + (c.tmask + 1) * (GROW_NS_PER_ENTRY * 1e-9) >= c.deadline:
            c.tfull = c.tmask
        elif c.tmask + 1 < share_free or may_grow(c):
            grow_table(c)
        else:
            c.tfull = c.tmask       # no more memory for this search: the table stays this size
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


# -- the control-win test ----------------------------------------------------------------

cdef uint64_t NIB8 = <uint64_t>0x888888888888888ULL      # bit 3 of each of 15 rank slots


cdef inline int fits(uint64_t rem, uint64_t play) noexcept nogil:
    """The packed play is part of the packed hand (no rank slot goes below zero)."""
    return (((rem | NIB8) - play) & NIB8) == NIB8


cdef inline void beaters_of(const uint8_t* h, Beaters* b) noexcept nogil:
    cdef int r, w
    for w in range(5):
        b.m[w] = 0
    for r in range(NUM_RANKS):
        for w in range(1, 5):
            if h[r] >= w:
                b.m[w] |= 1u << r
    b.bombs = <int>b.m[4]
    if h[13] and h[14]:
        b.bombs |= 1 << 15


cdef inline int plain_options(const Opts* o) noexcept nogil:
    """The options under which :func:`surely_unbeatable` reasons (one deck, bombs of
    four, the usual comparisons)."""
    return o.decks == 1 and o.bomb_min == 4 and o.bomb_max == 4 and o.rocket_width == 1 \
        and not o.beat_cards and not o.airplane_trios and not o.bomb_on_rocket


cdef inline int canon_options(const Opts* o) noexcept nogil:
    """The options under which relabelling empty ranks keeps every value
    (:func:`make_key`): one deck, bombs of four, comparisons by rank alone."""
    return plain_options(o)


cdef inline int surely_unbeatable(const Beaters* b, int64_t code) noexcept nogil:
    """1 when a hand of these beaters surely has no play that beats ``code`` (RULES.md
    §2.2: a bomb or the rocket beats any other play; a higher bomb, a bomb; the same
    type and length with a higher top rank): no bomb or rocket that would beat it and no
    higher body of its shape (kickers aside). 0: it may."""
    cdef int t = code_type(code), w, length, hi, i
    cdef uint32_t runs
    hi = <int>((code >> CODE_RANK_SHIFT) & 15)
    if t == T_ROCKET:
        return 1
    if t == T_BOMB:
        return (b.bombs >> (hi + 1)) == 0
    if b.bombs:
        return 0
    w = <int>((code >> CODE_WIDTH_SHIFT) & 15)
    length = <int>((code >> CODE_LENGTH_SHIFT) & 15)
    if w < 1 or w > 4 or length < 1:
        return 0
    runs = b.m[w]
    for i in range(1, length):
        runs &= b.m[w] >> i           # bit s: ranks s..s+length-1 all held w times
    if length > 1:
        if length > 12:
            return 1
        runs &= (1u << (13 - length)) - 1      # a chain ends at A (rank 11) at the highest
    # a body whose top s + length - 1 is above hi: s >= hi - length + 2
    if hi - length + 2 < 0:
        return runs == 0
    return (runs >> (hi - length + 2)) == 0


cdef inline int safe_play(Ctx* c, int p, int64_t code, const Beaters* opp, int nopp, int plain) noexcept nogil:
    """No opponent of seat ``p`` can beat ``code`` (each could only pass). Sufficient:
    0 may mean "cannot tell"."""
    cdef int q, k = 0
    for q in range(c.n):
        if is_landlord_side(c, q) == is_landlord_side(c, p):
            continue
        if plain:
            if not surely_unbeatable(&opp[k], code):
                return 0
        elif not forced_pass(c, q, code) and count_legal(c.o, c.hands[q], code) > 1:
            return 0
        k += 1
    return 1


cdef int one_play(Ctx* c, uint64_t rem) noexcept nogil:
    """The packed hand ``rem`` (not empty) is one play (a legal lead)."""
    cdef uint8_t h[NUM_RANKS]
    cdef int64_t out[MAX_READINGS]
    cdef int r, k, i
    if not maybe_one_play(rem):
        return 0
    for r in range(NUM_RANKS):
        h[r] = <uint8_t>((rem >> (4 * r)) & 15)
    k = readings_codes(c.o, h, out)
    for i in range(k):
        if out[i]:
            return 1
    return 0


cdef int cw_dfs(Ctx* c, uint64_t rem, const uint64_t* safe, int ns, int start) noexcept nogil:
    """Can ``rem`` be played out as safe plays ``safe[start:]`` (each any number of
    times, in index order: the order of safe plays does not matter) and then one last
    play?"""
    cdef int i
    if rem == 0 or one_play(c, rem):
        return 1
    for i in range(start, ns):
        c.cw_budget -= 1
        if c.cw_budget < 0:
            return 0
        if fits(rem, safe[i]) and cw_dfs(c, rem - safe[i], safe, ns, i):
            return 1
    return 0


cdef inline int opponents_beaters(Ctx* c, int p, Beaters* opp) noexcept nogil:
    """Fill ``opp`` with the beaters of each opponent of seat ``p``; how many."""
    cdef int q, k = 0
    for q in range(c.n):
        if is_landlord_side(c, q) != is_landlord_side(c, p):
            beaters_of(c.hands[q], &opp[k])
            k += 1
    return k


cdef int control_win(Ctx* c, int p, Py_ssize_t base, Py_ssize_t n) noexcept nogil:
    """1 when seat ``p``, leading with the legal moves ``c.arena[base:base + n]``, surely
    wins: its hand splits into plays no opponent can beat (after each, everyone else
    passes and ``p`` leads again; the opponents' hands do not change) and one last play
    (RULES.md §5). A sufficient test (its search is capped): 0 may mean "cannot tell"."""
    cdef uint64_t safe[CW_SAFE_MAX]
    cdef Beaters opp[2]
    cdef int ns = 0, k, plain = plain_options(c.o)
    cdef Py_ssize_t i
    cdef int64_t code
    k = opponents_beaters(c, p, opp)
    for i in range(n):
        code = c.arena[base + i].code
        if code != 0 and safe_play(c, p, code, opp, k, plain):
            safe[ns] = pack_code(code)
            ns += 1
            if ns == CW_SAFE_MAX:
                break
    if ns == 0:
        return 0
    c.cw_budget = CW_STEPS
    return cw_dfs(c, c.packed[p], safe, ns, 0)


cdef inline int doubling_sides(Ctx* c) noexcept nogil:
    """The sides whose hands hold a bomb or the rocket (RULES.md §6: each played doubles
    the score): bit 1 the landlord, bit 2 the farmers; 3 ("cannot tell") but for one deck
    and bombs of four."""
    cdef int q, r = 0
    if not plain_options(c.o):
        return 3
    for q in range(c.n):
        if (c.packed[q] & <uint64_t>0x0CCCCCCCCCCCCCULL) or (c.hands[q][13] and c.hands[q][14]):
            r |= 1 if q == c.landlord else 2
    return r


cdef int sw_split = SW_SPLIT_MAX        # static_win's gate (a measuring hook may change it)


def _sw_params(int split):
    """Measuring hook: the largest split_count of the hand an answer leaves that static_win
    tries."""
    global sw_split
    sw_split = split


cdef int static_win(Ctx* c, int p, int64_t tb, Py_ssize_t base, Py_ssize_t n) noexcept nogil:
    """1 when seat ``p``'s side surely wins (win mode), ``p`` to move with the legal moves
    ``c.arena[base:base + n]`` (``c.top`` past them), by one of two sufficient tests
    beyond :func:`control_win` (RULES.md §5; 0 may mean "cannot tell"):

    * answering ``tb``: an answer no opponent can beat, after which ``p`` leads again
      (every opponent must pass; a partner may pass, and the farmers choose so) from a
      hand that the control-win test wins (safe leads, then one last play);
    * leading as a farmer of three: a play after which the partner's whole hand is one
      play that beats it, the partner moving next, or the landlord, who moves next,
      surely unable to beat it.
    """
    cdef Beaters opp[2]
    cdef uint64_t cand[SW_ANSWERS]
    cdef uint64_t safe[CW_SAFE_MAX]
    cdef int64_t outq[MAX_READINGS]
    cdef int64_t* raw
    cdef int64_t code
    cdef int q, k, nc = 0, ns = 0, kq, j, plain = plain_options(c.o)
    cdef Py_ssize_t i, m
    k = opponents_beaters(c, p, opp)
    if tb == 0:
        if c.n != 3 or p == c.landlord or not (c.features & FEAT_FEED):
            return 0
        q = 3 - p - c.landlord                       # the partner
        if c.left[q] > c.o.max_hand or not maybe_one_play(c.packed[q]):
            return 0
        kq = readings_codes(c.o, c.hands[q], outq)
        for i in range(n):
            code = c.arena[base + i].code
            if code == 0 or ((p + 1) % 3 != q and not safe_play(c, p, code, opp, k, plain)):
                continue
            for j in range(kq):
                if outq[j] and beats_opts(c.o, outq[j], code):
                    return 1
        return 0
    if not (c.features & FEAT_SW):
        return 0
    for i in range(n):
        code = c.arena[base + i].code
        if code != 0 and code_cards(code) < c.left[p] and split_count(c.packed[p] - pack_code(code)) <= sw_split \
                and safe_play(c, p, code, opp, k, plain):
            cand[nc] = pack_code(code)
            nc += 1
            if nc == SW_ANSWERS:
                break
    if nc == 0:
        return 0
    # p's leads from its whole hand, above this node's moves; the safe ones
    if not grow(c, c.max_moves):
        return 0
    raw = <int64_t*>(c.arena + c.top)
    m = legal_codes(c.o, c.hands[p], 0, raw, c.max_moves)
    if m > c.max_moves:
        return 0
    for i in range(m):
        if raw[i] != 0 and safe_play(c, p, raw[i], opp, k, plain):
            safe[ns] = pack_code(raw[i])
            ns += 1
            if ns == CW_SAFE_MAX:
                break
    for j in range(nc):
        c.cw_budget = CW_STEPS
        if cw_dfs(c, c.packed[p] - cand[j], safe, ns, 0):
            return 1
    return 0


# -- the transposition table ----------------------------------------------------------

cdef uint64_t ONES12 = <uint64_t>0x111111111111ULL      # the low bit of ranks 3..A
cdef uint64_t ONES13 = <uint64_t>0x1111111111111ULL     # the low bit of ranks 3..2


cdef inline int may_chain(uint64_t x, uint64_t nz) noexcept nogil:
    """The packed hand ``x`` (``nz``: its held ranks' low bits) holds a chain: five
    ranks in a row of 3..A, three pairs or two trios in a row (a hand that holds none
    never will: hands only shrink)."""
    cdef uint64_t ge2 = ((x >> 1) | (x >> 2) | (x >> 3)) & ONES12
    cdef uint64_t ge3 = ((x & (x >> 1)) | (x >> 2) | (x >> 3)) & ONES12
    nz &= ONES12
    return ((nz & (nz >> 4) & (nz >> 8) & (nz >> 12) & (nz >> 16))
            | (ge2 & (ge2 >> 4) & (ge2 >> 8)) | (ge3 & (ge3 >> 4))) != 0


cdef inline void make_key(Ctx* c, int64_t tb, uint16_t meta, Key* k) noexcept nogil:
    """The key of the state of ``c`` with the play to beat ``tb`` and seats ``meta``.
    With ``c.canon``, ranks 3..A are relabelled: the ranks no hand holds (and the play
    to beat does not use) below the lowest held one are dropped, and each run of them
    further up shrinks to one. The relabelling keeps the order of ranks and which held
    ranks are next to each other (so every chain, and every comparison), while 2 and
    the jokers keep their ranks (they never chain): states equal up to it have the same
    value (RULES.md §2), and share an entry. The play to beat is kept by its type,
    length, width, relabelled top rank and its number of kicker cards (which kickers
    it carried changes nothing)."""
    cdef uint64_t occ = 0, x, m, drop, keep, nz, span, low12
    cdef uint64_t ones = <uint64_t>0x111111111111111ULL
    cdef int s, hi = 0, length, t = 0, kick, b, chains, last, below = -1
    cdef uint64_t others = 0
    k.h[0] = c.packed[0]
    k.h[1] = c.packed[1]
    k.h[2] = c.packed[2]
    k.tb = tb
    k.meta = meta
    if c.canon:
        chains = 0
        last = ((meta >> 2) & 3) - 1
        for s in range(MAX_SEATS):
            x = k.h[s]
            nz = (x | (x >> 1) | (x >> 2) | (x >> 3)) & ones
            occ |= nz
            if s != last:
                others |= nz
            chains |= may_chain(x, nz)
        if tb != 0:
            t = code_type(tb)
            hi = <int>((tb >> CODE_RANK_SHIFT) & 15)
            length = <int>((tb >> CODE_LENGTH_SHIFT) & 15)
            if length > 1 and not chains:
                # no hand can ever form a chain again: only a bomb beats this one, and
                # its ranks no longer matter
                k.tb = tb = (tb & ~((<int64_t>15) << CODE_RANK_SHIFT)) | ((<int64_t>11) << CODE_RANK_SHIFT)
            elif length > 1:
                if 1 <= length <= hi + 1 and hi < 12:
                    occ |= ((((<uint64_t>1) << (4 * length)) - 1) // 15) << (4 * (hi - length + 1))
            elif t != T_ROCKET:
                # one rank: what counts is which cards of the seats that may answer it
                # (all but its maker's) lie above it, so it stands just above the
                # highest of their ranks at or below its own (-1: none)
                x = others & (((<uint64_t>1) << (4 * hi + 4)) - 1)
                if x:
                    below = 0
                    x = ddz_hibit(x)
                    while x > 1:
                        x >>= 4
                        below += 1
        # chains possible: relabel ranks 3..A, keeping one empty rank between held ones;
        # none: ranks 3..2, keeping none (and the key says which)
        span = ONES12 if chains else ONES13
        if not chains:
            k.meta = meta | (1 << 8)
        occ &= span
        if occ:
            x = ddz_hibit(occ)              # the highest held rank
            m = ~occ & span                 # the empty ranks of the span
            # drop an empty rank at the bottom, right above another empty one (chains
            # possible) or anywhere (no chains), below the highest held rank
            drop = (m & ((m << 4) | 1) & (x - 1)) if chains else (m & (x - 1))
            if drop:
                if tb != 0 and length > 1 and hi < 12:
                    b = nibble_count(drop & ((<uint64_t>1 << (4 * hi)) - 1))
                    k.tb = k.tb - ((<int64_t>b) << CODE_RANK_SHIFT)
                if below >= 0 and below < (12 if chains else 13):
                    below -= nibble_count(drop & ((<uint64_t>1 << (4 * below)) - 1))
                low12 = span * 15               # the nibbles of the span
                keep = low12 & ~(drop * 15)     # ... less the dropped ones (empty in every hand)
                for s in range(MAX_SEATS):
                    k.h[s] = (k.h[s] & ~low12) | ddz_pext(k.h[s], keep)
        if tb != 0:
            if length == 1 and t != T_ROCKET:
                k.tb = (k.tb & ~((<int64_t>15) << CODE_RANK_SHIFT)) | ((<int64_t>(below + 1)) << CODE_RANK_SHIFT)
            kick = ddz_kickers(<uint64_t>tb)
            k.tb = (k.tb & ~((<int64_t>1 << (KICK_BITS * NUM_RANKS)) - 1)) | kick
    k.hash = state_key(k.h[0], k.h[1], k.h[2], k.tb, k.meta)


cdef inline int probe(Ctx* c, Entry* slot, const Key* k, Entry* out) noexcept nogil:
    """Copy the entry of this state into ``out``: 1 if there is one (of this generation,
    the same state, and an intact checksum: a shared table's entry may be torn)."""
    memcpy(out, slot, sizeof(Entry))
    if not out.bound or out.gen != c.gen or out.h[0] != k.h[0] or out.h[1] != k.h[1] \
            or out.h[2] != k.h[2] or out.tb != k.tb or out.meta != k.meta:
        return 0
    if out.check != entry_check(out):
        return 0
    return 1


cdef inline void store(Ctx* c, Entry* slot, const Key* k, int value, int64_t best,
                       int bound) noexcept nogil:
    cdef Entry e
    e.h[0] = k.h[0]
    e.h[1] = k.h[1]
    e.h[2] = k.h[2]
    e.tb = k.tb
    e.best = best
    e.value = value
    e.meta = k.meta
    e.gen = c.gen
    e.bound = <uint8_t>bound
    e.check = entry_check(&e)
    memset(e.pad, 0, sizeof(e.pad))
    memcpy(slot, &e, sizeof(Entry))


# -- the search -----------------------------------------------------------------------

cdef inline int child_value(Ctx* c, int p, int64_t tb, int last, int llp, int fp, int nllp, int nfp,
                            int64_t code, int alpha, int beta) noexcept:
    """The value of the child after seat ``p`` plays ``code`` (the pass: 0), searched in
    the window; doubled after a bomb in score mode. Check ``c.aborted`` after."""
    cdef int v, np_, cards, r
    cdef uint64_t hp
    cdef uint8_t cc[NUM_RANKS]
    if code == 0:
        np_ = (p + 1) % c.n
        if np_ == last or c.n == 2:
            return search(c, np_, 0, -1, llp, fp, alpha, beta)
        return search(c, np_, tb, last, llp, fp, alpha, beta)
    cards = code_cards(code)
    if cards == c.left[p]:
        v = terminal(c, p, nllp, nfp)
    else:
        hp = c.packed[p]
        code_counts(code, cc)
        for r in range(NUM_RANKS):
            c.hands[p][r] -= cc[r]
        c.packed[p] = hp - pack_code(code)
        c.left[p] -= cards
        if c.score and is_bomb(code):
            v = search(c, (p + 1) % c.n, code, p, nllp, nfp, floor_half(alpha), ceil_half(beta))
        else:
            v = search(c, (p + 1) % c.n, code, p, nllp, nfp, alpha, beta)
        for r in range(NUM_RANKS):
            c.hands[p][r] += cc[r]
        c.packed[p] = hp
        c.left[p] += cards
    if c.score and is_bomb(code):
        v *= 2
    return v


cdef inline void prefetch_child(Ctx* c, int p, uint64_t hp, int64_t tb, int last, int llp, int fp,
                                int nllp, int nfp, int64_t code) noexcept nogil:
    """Prefetch the table slot of the state after seat ``p`` (packed hand ``hp``) plays
    ``code`` (0: passes), the forced passes that follow stepped through as
    :func:`search` does."""
    cdef Key k
    cdef int q = (p + 1) % c.n
    if code == 0:
        if q == last or c.n == 2:
            tb = 0
            last = -1
    else:
        c.packed[p] = hp - pack_code(code)
        tb = code
        last = p
        llp = nllp
        fp = nfp
    while tb != 0 and forced_pass(c, q, tb):
        if (q + 1) % c.n == last or c.n == 2:
            tb = 0
            last = -1
        q = (q + 1) % c.n
    make_key(c, tb, state_meta(q, last, llp, fp), &k)
    ddz_prefetch(c.tt + (k.hash & c.maskp[0]))
    c.packed[p] = hp


cdef int search(Ctx* c, int p, int64_t tb, int last, int llp, int fp, int alpha, int beta) noexcept:
    """Alpha-beta value (landlord's side, fail-soft) of the state with seat ``p`` to move."""
    cdef uint64_t key, hp, mkey = 0
    cdef Key kk
    cdef Entry* slot
    cdef Entry e
    cdef int64_t tt_best = -1, best_move = 0, code
    cdef int maxing, a0, b0, pass_
    cdef int v, best, nllp, nfp, deferred = 0, prefetching, sides
    cdef Py_ssize_t base, n, i
    cdef uint64_t* bslot = NULL

    c.nodes += 1
    if c.nodes >= c.node_stop or c.stop[0] or ((c.nodes & CHECK_EVERY) == 0 and hit_limit(c)):
        c.aborted = 1
        return 0
    if not c.score:
        if llp != WIN_IN_SCORE:
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
    if c.score and llp == 2 and fp and (c.features & FEAT_WIN_IN_SCORE):
        # neither spring can happen any more (the landlord played twice, a farmer once):
        # the score is +1 or -1 times 2 for each bomb or rocket played from here, and a
        # side that loses never plays one (it would only double its loss). So when no
        # hand holds one, the score is who wins (+1 or -1), which the win-mode search
        # (its static tests on) answers; when only one side holds some, who wins still
        # decides the node whenever the window is on that side's far side of +1 or -1
        # (the landlord's bombs and beta <= 1: a landlord's win is a value >= beta, a
        # farmers' win exactly -1; the farmers' bombs and alpha >= -1, the mirror). The
        # win-mode states are stored apart (the meta's landlord plays WIN_IN_SCORE),
        # valued in the same units.
        sides = doubling_sides(c)
        if sides == 0 or (sides == 1 and beta <= 1) or (sides == 2 and alpha >= -1):
            if sides == 0 and alpha >= 1:
                return 1             # nothing can double: the value is at most 1
            if sides == 0 and beta <= -1:
                return -1
            c.score = 0
            v = search(c, p, tb, last, WIN_IN_SCORE, 0, -1, 1)
            c.score = 1
            if c.aborted:
                return 0
            return 1 if v > 0 else -1
    maxing = is_landlord_side(c, p)
    a0 = alpha
    b0 = beta
    make_key(c, tb, state_meta(p, last, llp, fp), &kk)
    key = kk.hash
    slot = c.tt + (key & c.maskp[0])
    if probe(c, slot, &kk, &e):
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
    # prefetch the table slots of the first children (and, in the loop, of the child
    # PREFETCH_AHEAD moves on)
    hp = c.packed[p]
    nllp = llp + 1 if (c.score and p == c.landlord and llp < 2) else llp
    nfp = 1 if (c.score and p != c.landlord) else fp
    prefetching = c.maskp[0] >= PREFETCH_ENTRIES
    if prefetching:
        for i in range(n if n < PREFETCH_AHEAD else PREFETCH_AHEAD):
            prefetch_child(c, p, hp, tb, last, llp, fp, nllp, nfp, c.arena[base + i].code)
    if not c.score and (((c.features & FEAT_CW) and tb == 0 and control_win(c, p, base, n))
                        or ((c.features & (FEAT_SW | FEAT_FEED)) and static_win(c, p, tb, base, n))):
        c.top = base
        best = terminal(c, p, 0, 0)
        store(c, slot, &kk, best, 0, B_EXACT)
        return best
    best = -INF if maxing else INF
    # two passes: the second takes the moves deferred in the first (ABDADA: another
    # thread was searching them); without other threads there is one pass
    for pass_ in range(2):
        for i in range(n):
            code = c.arena[base + i].code
            if pass_ == 1:
                if c.arena[base + i].sortkey != -1:
                    continue
            elif prefetching and i + PREFETCH_AHEAD < n:
                prefetch_child(c, p, hp, tb, last, llp, fp, nllp, nfp, c.arena[base + i + PREFETCH_AHEAD].code)
            if pass_ == 0 and c.shared and i > 0:
                mkey = mix(key ^ (<uint64_t>code * <uint64_t>0xA24BAED4963EE407ULL))
                bslot = c.busy + (mkey & ((1 << BUSY_BITS) - 1))
                if bslot[0] == mkey:
                    c.arena[base + i].sortkey = -1
                    deferred += 1
                    continue
                bslot[0] = mkey
            v = child_value(c, p, tb, last, llp, fp, nllp, nfp, code, alpha, beta)
            if bslot != NULL:
                if bslot[0] == mkey:
                    bslot[0] = 0
                bslot = NULL
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
        if alpha >= beta or not deferred:
            break
    c.top = base
    # store (never after an abort: the returns above left already)
    store(c, slot, &kk, best, best_move,
          B_UPPER if best <= a0 else (B_LOWER if best >= b0 else B_EXACT))
    return best


# -- depth-first proof-number search (win mode) ------------------------------------------
#
# The AND/OR mapping (docs/DESIGN.md): what is proved is "the landlord wins". A node with
# the landlord to move is an OR node (one winning move proves it), a node with either
# farmer to move an AND node (every move must lose for the farmers): the two farmers
# are one side, so "the farmers win if either goes out" is the disproof of the landlord's
# win, and a farmer's node is refuted by one move of that farmer. The proof number of a
# node is the fewest leaves to prove still (OR: the least of its children's, AND: their
# sum), the disproof number the fewest to disprove (OR: the sum, AND: the least); a hand
# that ends is proved (the landlord went out) or disproved (a farmer did), and so is a
# node the static tests decide (a seat whose whole hand is one legal play; the
# control-win test at a lead). Forced passes are stepped through as alpha-beta does, so
# a node is a position where the seat to move has a real choice.

cdef int dfpn_eps_shift = 3      # the 1 + 2**-k threshold's k (FEAT_DFPN_EPS)
cdef int dfpn_hmode = 0          # the first numbers' formula (FEAT_DFPN_H), for measuring


def _dfpn_params(int eps_shift, int hmode):
    """Measuring hook: df-pn's threshold factor 1 + 2**-eps_shift and first-number formula."""
    global dfpn_eps_shift, dfpn_hmode
    dfpn_eps_shift = eps_shift
    dfpn_hmode = hmode


cdef inline uint32_t sat_add(uint32_t a, uint32_t b) noexcept nogil:
    """a + b, infinite if either is, else at most PN_INF - 1."""
    cdef uint64_t s
    if a >= PN_INF or b >= PN_INF:
        return PN_INF
    s = <uint64_t>a + b
    return <uint32_t>(s if s < PN_INF - 1 else PN_INF - 1)


cdef inline DEntry* dfind(Ctx* c, const Key* k) noexcept nogil:
    """The df-pn entry of the state of key ``k`` (NULL: none)."""
    cdef DEntry* b = (<DEntry*>c.tt) + (k.hash & c.tfull & ~(<uint64_t>(DBUCKET - 1)))
    cdef int i
    for i in range(DBUCKET):
        if b[i].used and b[i].gen == c.gen and b[i].h[0] == k.h[0] and b[i].h[1] == k.h[1] \
                and b[i].h[2] == k.h[2] and b[i].tb == k.tb and b[i].meta == k.meta:
            return b + i
    return NULL


cdef inline void dstore(Ctx* c, const Key* k, uint32_t pn, uint32_t dn, uint64_t work) noexcept nogil:
    """Store a state's numbers: in its own entry, else in place of the entry of its
    bucket that cost the least work (an empty one or another generation's first)."""
    cdef DEntry* b = (<DEntry*>c.tt) + (k.hash & c.tfull & ~(<uint64_t>(DBUCKET - 1)))
    cdef DEntry* e = NULL
    cdef int i
    cdef uint64_t least = <uint64_t>-1
    for i in range(DBUCKET):
        if not b[i].used or b[i].gen != c.gen:
            if least != 0:
                e = b + i
                least = 0
            continue
        if b[i].h[0] == k.h[0] and b[i].h[1] == k.h[1] and b[i].h[2] == k.h[2] \
                and b[i].tb == k.tb and b[i].meta == k.meta:
            e = b + i
            work += e.work
            break
        if b[i].work < least:
            least = b[i].work
            e = b + i
    e.h[0] = k.h[0]
    e.h[1] = k.h[1]
    e.h[2] = k.h[2]
    e.tb = k.tb
    e.meta = k.meta
    e.gen = c.gen
    e.used = 1
    e.pn = pn
    e.dn = dn
    e.work = work


cdef inline void apply_code(Ctx* c, int p, int64_t code, uint8_t* cc) noexcept nogil:
    """Seat ``p`` plays ``code`` (not the pass) on the context; ``cc``: its counts, kept
    for :func:`undo_code`."""
    cdef int r
    code_counts(code, cc)
    for r in range(NUM_RANKS):
        c.hands[p][r] -= cc[r]
    c.packed[p] -= pack_code(code)
    c.left[p] -= code_cards(code)


cdef inline void undo_code(Ctx* c, int p, int64_t code, const uint8_t* cc) noexcept nogil:
    cdef int r
    for r in range(NUM_RANKS):
        c.hands[p][r] += cc[r]
    c.packed[p] += pack_code(code)
    c.left[p] += code_cards(code)


cdef inline void decided(Ctx* c, int winner, uint32_t* pn, uint32_t* dn) noexcept nogil:
    """The numbers of a hand that ``winner`` (a seat) has won."""
    if winner == c.landlord:
        pn[0] = 0
        dn[0] = PN_INF
    else:
        pn[0] = PN_INF
        dn[0] = 0


cdef inline void first_numbers(Ctx* c, uint32_t* pn, uint32_t* dn) noexcept nogil:
    """The numbers of a state not searched yet: 1 and 1, or (FEAT_DFPN_H) the plays the
    landlord needs to empty its hand and the fewest a farmer needs (by split_count)."""
    cdef int q, f = 99, s
    if not (c.features & FEAT_DFPN_H):
        pn[0] = 1
        dn[0] = 1
        return
    for q in range(c.n):
        if q != c.landlord:
            s = split_count(c.packed[q])
            if s < f:
                f = s
    s = split_count(c.packed[c.landlord])
    if dfpn_hmode == 1:
        s = s * s
        f = f * f
    elif dfpn_hmode == 2:
        s = (s + 1) // 2
        f = (f + 1) // 2
    elif dfpn_hmode == 3:
        s = 1 << (s if s < 20 else 20) >> 1
        f = 1 << (f if f < 20 else 20) >> 1
    pn[0] = <uint32_t>(1 + s)
    dn[0] = <uint32_t>(1 + f)


cdef void settle(Ctx* c, int* p, int64_t* tb, int* last) noexcept nogil:
    """Step through the forced passes (as :func:`search` does)."""
    cdef int q
    while tb[0] != 0 and forced_pass(c, p[0], tb[0]):
        q = (p[0] + 1) % c.n
        if q == last[0] or c.n == 2:
            tb[0] = 0
            last[0] = -1
        p[0] = q


cdef void make_child(Ctx* c, int p, int64_t tb, int last, int64_t code, DChild* ch) noexcept nogil:
    """The child of seat ``p``'s move ``code`` (0: the pass), its forced passes stepped
    through, decided (``ch.p`` -1) when a seat goes out or can at once."""
    cdef uint8_t cc[NUM_RANKS]
    cdef int q = (p + 1) % c.n
    ch.code = code
    if code != 0 and code_cards(code) == c.left[p]:
        ch.p = -1
        decided(c, p, &ch.pn, &ch.dn)
        return
    if code != 0:
        apply_code(c, p, code, cc)
        tb = code
        last = p
    elif q == last or c.n == 2:
        tb = 0
        last = -1
    settle(c, &q, &tb, &last)
    if goes_out(c, q, tb):
        ch.p = -1
        decided(c, q, &ch.pn, &ch.dn)
    else:
        ch.p = q
        ch.tb = tb
        ch.last = last
        make_key(c, tb, state_meta(q, last, 0, 0), &ch.k)
        first_numbers(c, &ch.pn, &ch.dn)
    if code != 0:
        undo_code(c, p, code, cc)


cdef int grow_kids(Ctx* c, Py_ssize_t need) noexcept nogil:
    cdef Py_ssize_t cap = c.kids_cap
    cdef DChild* k
    if c.ktop + need <= cap:
        return 1
    while cap < c.ktop + need:
        cap = cap * 2 if cap else 4096
    k = <DChild*>realloc(c.kids, cap * sizeof(DChild))
    if k == NULL:
        return 0
    c.kids = k
    c.kids_cap = cap
    return 1


cdef void mid(Ctx* c, int p, int64_t tb, int last, const Key* kk, uint32_t thpn, uint32_t thdn,
              uint32_t* opn, uint32_t* odn) noexcept:
    """df-pn's multiple iterative deepening at a node (seat ``p`` to move with a choice,
    not going out at once; key ``kk``): search below until its proof number reaches
    ``thpn`` or its disproof number ``thdn`` (or it is solved); its numbers in ``opn``,
    ``odn`` and the table. Check ``c.aborted`` after."""
    cdef int64_t nodes0 = c.nodes, code
    cdef Py_ssize_t base, n, i, kb, best
    cdef int or_node = p == c.landlord, cp, clast
    cdef int maxsum = (c.features & FEAT_DFPN_MAX) != 0, eps = (c.features & FEAT_DFPN_EPS) != 0
    cdef uint32_t smax, sopen
    cdef int64_t sec
    cdef uint32_t pn, dn, cpn, cdn, second, bpn = 0, bdn = 0
    cdef int64_t cthpn, cthdn, ctb
    cdef DEntry* e
    cdef DChild* ch
    cdef Key ck
    cdef uint8_t cc[NUM_RANKS]
    c.nodes += 1
    if c.nodes >= c.node_stop or c.stop[0] or ((c.nodes & CHECK_EVERY) == 0 and hit_limit(c)):
        c.aborted = 1
        return
    base = c.top
    n = gen_ordered(c, p, tb, last, -1)
    if n < 0:
        c.aborted = 1
        return
    c.top = base + n
    if ((c.features & FEAT_CW) and tb == 0 and control_win(c, p, base, n)) or \
            ((c.features & (FEAT_SW | FEAT_FEED)) and static_win(c, p, tb, base, n)):
        c.top = base
        decided(c, p, opn, odn)
        dstore(c, kk, opn[0], odn[0], 1)
        return
    kb = c.ktop
    if not grow_kids(c, n):
        c.top = base
        c.aborted = 1
        return
    c.ktop = kb + n
    for i in range(n):
        make_child(c, p, tb, last, c.arena[base + i].code, c.kids + kb + i)
    c.top = base
    while True:
        if or_node:
            pn = PN_INF
            dn = 0
        else:
            pn = 0
            dn = PN_INF
        second = PN_INF
        best = 0
        smax = 0
        sopen = 0
        for i in range(n):
            ch = c.kids + kb + i
            if ch.p >= 0:
                e = dfind(c, &ch.k)
                if e != NULL:
                    ch.pn = e.pn
                    ch.dn = e.dn
            cpn = ch.pn
            cdn = ch.dn
            if maxsum and cpn != 0 and cdn != 0:
                sopen += 1
                if (cdn if or_node else cpn) > smax:
                    smax = cdn if or_node else cpn
            if or_node:
                dn = sat_add(dn, cdn)
                if cpn < pn:
                    second = pn
                    pn = cpn
                    best = i
                    bdn = cdn
                elif cpn < second:
                    second = cpn
                if pn == 0:
                    dn = PN_INF
                    break
            else:
                pn = sat_add(pn, cpn)
                if cdn < dn:
                    second = dn
                    dn = cdn
                    best = i
                    bpn = cpn
                elif cdn < second:
                    second = cdn
                if dn == 0:
                    pn = PN_INF
                    break
        if maxsum and pn != 0 and dn != 0 and smax < PN_INF:
            # the sum's stand-in: the largest open child's number and one for each other
            if or_node:
                dn = sat_add(smax, sopen - 1)
            else:
                pn = sat_add(smax, sopen - 1)
        if pn == 0 or dn == 0 or pn >= thpn or dn >= thdn:
            break
        sec = <int64_t>second + 1
        if eps and second < PN_INF:
            sec = <int64_t>second + (second >> dfpn_eps_shift) + 1
        if or_node:
            cthpn = thpn if thpn < sec else sec
            cthdn = <int64_t>thdn - dn + bdn
        else:
            cthdn = thdn if thdn < sec else sec
            cthpn = <int64_t>thpn - pn + bpn
        if cthpn > PN_INF:
            cthpn = PN_INF
        if cthdn > PN_INF:
            cthdn = PN_INF
        ch = c.kids + kb + best
        code = ch.code
        cp = ch.p
        ctb = ch.tb
        clast = ch.last
        ck = ch.k
        if code != 0:
            apply_code(c, p, code, cc)
        mid(c, cp, ctb, clast, &ck, <uint32_t>cthpn, <uint32_t>cthdn, &cpn, &cdn)
        if code != 0:
            undo_code(c, p, code, cc)
        if c.aborted:
            c.ktop = kb
            return
        ch = c.kids + kb + best          # the array may have moved
        ch.pn = cpn
        ch.dn = cdn
    c.ktop = kb
    opn[0] = pn
    odn[0] = dn
    dstore(c, kk, pn, dn, <uint64_t>(c.nodes - nodes0))


cdef int dfpn_value(Ctx* c, int p, int64_t tb, int last) noexcept:
    """The win-mode value (+1: the landlord wins, -1) of the state with seat ``p`` to
    move, by df-pn on the table (kept across calls of one generation). Check
    ``c.aborted`` after."""
    cdef Key k
    cdef uint32_t pn, dn
    settle(c, &p, &tb, &last)
    if goes_out(c, p, tb):
        return 1 if p == c.landlord else -1
    make_key(c, tb, state_meta(p, last, 0, 0), &k)
    mid(c, p, tb, last, &k, PN_INF, PN_INF, &pn, &dn)
    if c.aborted:
        return 0
    return 1 if pn == 0 else -1


cdef int child_dfpn(Ctx* c, int p, int64_t tb, int last, int64_t code) noexcept:
    """The win-mode value of the child after seat ``p`` plays ``code`` (0: passes), by
    df-pn. Check ``c.aborted`` after."""
    cdef uint8_t cc[NUM_RANKS]
    cdef int q = (p + 1) % c.n, v
    if code != 0 and code_cards(code) == c.left[p]:
        return 1 if p == c.landlord else -1
    if code != 0:
        apply_code(c, p, code, cc)
        v = dfpn_value(c, q, code, p)
        undo_code(c, p, code, cc)
        return v
    if q == last or c.n == 2:
        return dfpn_value(c, q, 0, -1)
    return dfpn_value(c, q, tb, last)


# -- the root: value, reported moves, principal variation --------------------------------

cdef int reaches(Ctx* c, int p, int64_t tb, int last, int llp, int fp, int64_t code, int target) noexcept:
    """1 when the child after ``code`` has the value ``target`` (exactly), 0 when not,
    -1 when the search was stopped."""
    cdef int nllp = llp + 1 if (c.score and p == c.landlord and llp < 2) else llp
    cdef int nfp = 1 if (c.score and p != c.landlord) else fp
    cdef int v, alpha, beta
    if c.score:
        alpha = target - 1
        beta = target + 1
        if is_bomb(code):
            if target % 2:
                return 0
            alpha = target - 2       # child_value doubles: the child's window is (t/2 - 1, t/2 + 1)
            beta = target + 2
    else:
        alpha = -1
        beta = 1
    if c.dfpn:
        v = child_dfpn(c, p, tb, last, code)
        if c.aborted:
            return -1
        return v == target
    v = child_value(c, p, tb, last, llp, fp, nllp, nfp, code, alpha, beta)
    if c.aborted:
        return -1
    return v == target


cdef Py_ssize_t best_moves(Ctx* c, int p, int64_t tb, int last, int llp, int fp, int target,
                           int first_only, int64_t* out, Py_ssize_t cap) noexcept:
    """Write the moves of the state that reach ``target``, in search order, at ``out``
    (room for ``cap``); returns how many, -1 when stopped or out of memory. In win mode
    every move of the losing side reaches the value: the first in order is reported
    without a search."""
    cdef Py_ssize_t base = c.top, n, i, k = 0
    cdef int hit
    cdef int64_t code
    n = gen_ordered(c, p, tb, last, -1)
    if n < 0:
        c.aborted = 1
        return -1
    c.top = base + n
    for i in range(n):
        code = c.arena[base + i].code
        if not c.score and (target > 0) != is_landlord_side(c, p):
            hit = 1              # win mode, the side to move loses: every move does
        else:
            hit = reaches(c, p, tb, last, llp, fp, code, target)
        if hit < 0:
            c.top = base
            return -1
        if hit and k < cap:
            out[k] = code
            k += 1
            if first_only:
                break
    c.top = base
    return k


cdef int play_move(Ctx* c, int* p, int64_t* tb, int* last, int* llp, int* fp, int64_t code) noexcept nogil:
    """Play ``code`` for the seat to move on ``c`` (the state in the pointers moves on);
    1 when the hand ended."""
    cdef int np_ = (p[0] + 1) % c.n, r, cards
    cdef uint8_t cc[NUM_RANKS]
    if code == 0:
        if np_ == last[0] or c.n == 2:
            tb[0] = 0
            last[0] = -1
        p[0] = np_
        return 0
    cards = code_cards(code)
    code_counts(code, cc)
    for r in range(NUM_RANKS):
        c.hands[p[0]][r] -= cc[r]
    c.packed[p[0]] -= pack_code(code)
    c.left[p[0]] -= cards
    if c.left[p[0]] == 0:
        return 1
    if c.score:
        if p[0] == c.landlord:
            if llp[0] < 2:
                llp[0] += 1
        else:
            fp[0] = 1
    tb[0] = code
    last[0] = p[0]
    p[0] = np_
    return 0


# -- Python-facing classes ------------------------------------------------------------

cdef object _Solution = None       # ddz.Solution, set by _configure
cdef tuple _FIELDS = ()
cdef dict _PLAYS = None            # code -> ddz.Play
cdef object _play_fn = None        # code -> ddz.Play for a code not cached yet
cdef object _order_key = None      # the move order's key (sorting all_moves)
cdef object _Position = None
cdef object _perf_counter = None


def _configure(solution, fields, plays, play_fn, order_key, position, perf_counter):
    """Set what :meth:`Searcher.solve_position` builds its answer with (called once by
    ddz.search.solver): the Solution class and its field names, the play cache and its
    filler, the move order's key, the Position class and the clock."""
    global _Solution, _FIELDS, _PLAYS, _play_fn, _order_key, _Position, _perf_counter
    _Solution, _FIELDS, _PLAYS, _play_fn = solution, tuple(fields), plays, play_fn
    _order_key, _Position, _perf_counter = order_key, position, perf_counter


cdef inline object _play_of(object code):
    p = _PLAYS.get(code)
    if p is None:
        p = _play_fn(code)
    return p


cdef object _make_solution(object pos, bint score, bint all_moves, int v, int exact, list codes,
                           list line, int64_t nodes, double t0, double search_seconds, int seats,
                           int landlord, int to_move):
    cdef dict d
    sol = _Solution.__new__(_Solution)
    d = sol.__dict__
    if not exact:
        d.update(zip(_FIELDS, (False, None, None, [], [], None, nodes, _perf_counter() - t0, seats,
                               landlord, search_seconds)))
        return sol
    moves = [_play_of(c) for c in codes]
    if all_moves and len(moves) > 1:
        moves.sort(key=_order_key)
    lw = v > 0
    d.update(zip(_FIELDS, (True, lw, lw == (to_move == landlord), moves, [_play_of(c) for c in line],
                           v * pos.base * pos.multiplier if score else None, nodes,
                           _perf_counter() - t0, seats, landlord, search_seconds)))
    return sol


cdef class Table:
    """A transposition table of ``table_mb`` MiB (rounded down to a power of two of
    64-byte entries), mapped from the kernel (its pages are zero until first touched:
    no cost up front), with the generation count that empties it in O(1)
    (:meth:`new_generation`). One search at a time, or several threads of one search
    (entries are lock-free: verified and checksummed).

    :param table_mb: size in MiB, 1 to 2**20.
    :raises ValueError: a size out of range. :raises MemoryError: the kernel refused it.
    """
    cdef Entry* tt
    cdef uint64_t* busy
    cdef readonly Py_ssize_t entries
    cdef uint16_t gen

    def __cinit__(self, double table_mb):
        cdef Py_ssize_t want, n = 1
        if not 1 <= table_mb <= 1048576:
            raise ValueError("table_mb must be 1 to 2**20")
        want = <Py_ssize_t>(table_mb * 1048576.0 / sizeof(Entry))
        while n * 2 <= want:
            n *= 2
        self.tt = <Entry*>ddz_table_alloc(n * sizeof(Entry))
        if self.tt == NULL:
            raise MemoryError(f"cannot allocate a {table_mb} MiB transposition table")
        self.busy = <uint64_t*>ddz_table_alloc(sizeof(uint64_t) << BUSY_BITS)
        if self.busy == NULL:
            raise MemoryError("cannot allocate the table's busy marks")
        self.entries = n
        self.gen = 1

    def __dealloc__(self):
        ddz_table_free(self.tt, self.entries * sizeof(Entry))
        ddz_table_free(self.busy, sizeof(uint64_t) << BUSY_BITS)

    def new_generation(self):
        """Forget every stored position (the generation count; on its wrap, every 65,535
        calls, the pages go back to the kernel)."""
        self.gen += 1
        if self.gen == 0:
            ddz_table_zero(self.tt, self.entries * sizeof(Entry))
            self.gen = 1

    cdef void give_back(self, uint64_t used) noexcept:
        """The pages of the first ``used`` entries past the first ``keep_entries`` (64
        MiB) go back to the kernel (zero again when next touched: empty entries)."""
        if used > <uint64_t>self.entries:
            used = self.entries
        if used > keep_entries:
            ddz_table_zero(self.tt + keep_entries, (used - keep_entries) * sizeof(Entry))

    cdef void fresh(self, uint64_t used) noexcept:
        """:meth:`new_generation` after a search that used ``used`` entries: the pages
        beyond the first ``keep_entries`` (64 MiB) go back to the kernel (a search that grew
        the table to gigabytes does not keep them from the processes that come after)."""
        self.new_generation()
        self.give_back(used)


cdef int landlord_plays_arg(object value) except -1:
    """The landlord's plays as the search keeps them: 0, 1, or 2 for two or more (any
    integer; below 0 counts as 0)."""
    value = operator.index(value)
    return 2 if value >= 2 else (1 if value == 1 else 0)


cdef int check_seat(int seat, int seats, str what, bint allow_none) except -1:
    if not (-1 if allow_none else 0) <= seat < seats:
        raise ValueError(f"{what} {seat} is not a seat of {seats}")
    return 0


cdef class Searcher:
    """One thread's search context: the kernel options of a rule set, a :class:`Table`
    (its own, or a main searcher's while it helps), the move arena, and the limits of
    the running search. Used by one thread at a time.

    :param table_mb: the size of its own table in MiB (1 to 2**20), or 0 for none (a
        helper, which searches on the table of the searcher it helps).
    :raises ValueError: a bad size. :raises MemoryError: the table cannot be allocated.
    """
    cdef Ctx c
    cdef Opts opts
    cdef object rules
    cdef readonly Table table
    cdef Table using
    cdef int stop_flag
    cdef int helper_stop       # set when the search is over: its helpers stop
    cdef int root_claimed      # 1 once a thread (this one or a helper) finished the root
    cdef int helper_done       # a helper finished the root first (its value is written)...
    cdef int helper_value      # ... with this value
    cdef object poll_fn
    cdef object pending
    # the root of the running search (what a helper copies)
    cdef uint8_t root_hands[MAX_SEATS][NUM_RANKS]
    cdef int root_p, root_last, root_llp, root_fp, root_alpha, root_beta
    cdef int score_mode        # the mode of reset (c.score flips to 0 inside a score search's
                               # win-mode states: FEAT_WIN_IN_SCORE; helpers read this)
    cdef int64_t root_tb
    cdef int has_root
    cdef int auto_entries      # size the entries in use by the first search's cards
    cdef readonly int busy     # a search runs (perhaps without the GIL): no other call
    cdef readonly double search_seconds   # the last solve's own time (search and line), seconds

    def __cinit__(self, double table_mb=0):
        memset(&self.c, 0, sizeof(Ctx))
        if table_mb != 0:
            self.table = Table(table_mb)
        self.c.o = &self.opts
        self.c.n = 2
        self.c.max_moves = FIRST_CAP
        self.c.stop = &self.stop_flag
        self.c.owner = <void*>self
        self.c.node_stop = INT64_MAX

    def __dealloc__(self):
        free(self.c.arena)
        free(self.c.kids)

    @property
    def entries(self):
        """Entries of the table searched (its own, or the one it helps on)."""
        return self.using.entries if self.using is not None else 0

    def release(self):
        """After a search (its helpers joined): the pages of its own table past the
        first 64 MiB go back to the kernel and the entries in use drop to them, so a
        process that solved a whole deal does not keep gigabytes while it waits.
        :func:`ddz.solve` calls it after every search; a search that follows starts anew
        either way."""
        self.idle()
        self.drop_pages()

    cdef void drop_pages(self) noexcept:
        if self.table is not None and self.using is self.table and self.c.tmask + 1 > keep_entries:
            self.table.give_back(self.c.tmask + 1)
            self.c.tmask = keep_entries - 1

    @property
    def entries_in_use(self):
        """Entries of that table the last search used (the table grows by doubling them)."""
        return self.c.tmask + 1 if self.using is not None else 0

    cdef int attach(self, Table t, Py_ssize_t used) except -1:
        cdef Py_ssize_t e = t.entries
        while e > used and e > 1:
            e //= 2
        self.using = t
        self.c.tt = t.tt
        self.c.tmask = e - 1
        self.c.maskp = &self.c.tmask
        self.c.tfull = t.entries - 1
        self.c.gen = t.gen
        self.c.busy = t.busy
        return 0

    def reset(self, rules, int seats, int landlord, bint score, Py_ssize_t entries=0,
              int features=FEAT_DEFAULT):
        """Start a new problem on this searcher's own table: the rule set (a
        :class:`ddz.Rules`; its move options), the seats (2 or 3), the landlord's seat
        and the mode (score or win); forgets every stored position (a new generation),
        clears :meth:`stop` and the poll function. ``entries`` > 0: use only that many
        entries (rounded down to a power of two) of the table to begin with; 0: as many
        as the card count of the first search suggests (a small search touches fewer
        pages and stays in cache; the entries in use grow with the search).
        ``features``: the optional prunings (:meth:`set_features`).

        :raises ValueError: seats or landlord out of range, no table of its own, a rule
            set of two decks.
        :raises TypeError: ``rules`` is not a ddz.Rules.
        """
        cdef Opts o
        self.idle()
        if seats != 2 and seats != 3:
            raise ValueError("seats must be 2 or 3")
        check_seat(landlord, seats, "landlord", False)
        if self.table is None:
            raise ValueError("a helper Searcher (table_mb=0) has no table of its own")
        if rules is not self.rules:
            from ddz.core.rules import Rules
            if not isinstance(rules, Rules):
                raise TypeError(f"rules must be a ddz.Rules, not {type(rules).__name__}")
            if rules.decks != 1:
                raise ValueError("the solver plays the one-deck game only")
            opts_from(rules.move_options, &o)      # raises on inconsistent options
            self.opts = o
            self.rules = rules
        self.c.n = seats
        self.c.landlord = landlord
        self.c.score = score
        self.score_mode = score
        self.c.shared = 0
        self.stop_flag = 0
        self.helper_stop = 0
        self.helper_done = 0
        self.root_claimed = 0
        self.has_root = 0
        self.c.nodes = 0
        self.poll_fn = None
        self.auto_entries = entries <= 0
        self.table.fresh(self.c.tmask + 1 if self.using is self.table else 0)
        self.attach(self.table, entries if entries > 0 else self.table.entries)
        self.set_features(features)

    def set_features(self, int features):
        """The optional prunings to use (a bit set; for measuring them)."""
        self.idle()
        self.c.features = features
        self.c.canon = (features & FEAT_CANON) != 0 and canon_options(&self.opts)
        self.c.dfpn = (features & FEAT_DFPN) != 0 and not self.c.score

    def set_poll(self, fn):
        """``fn()`` (or ``None``) is called under the GIL every 8192 nodes of a running
        search, after the check for Ctrl-C (in the main thread); a true result stops the
        search (not exact), and an exception it raises stops it and is raised by the
        search call."""
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

    def clear_stop(self):
        """Undo :meth:`stop`."""
        self.stop_flag = 0

    def stop(self):
        """Ask a running search (in another thread) to stop at once; it then answers
        not exact, and so do later calls until :meth:`clear_stop` or :meth:`reset`."""
        self.stop_flag = 1

    @property
    def nodes(self):
        """Nodes searched by this searcher since its last :meth:`reset` (or
        :meth:`help`)."""
        return self.c.nodes

    cdef int idle(self) except -1:
        if self.busy:
            raise RuntimeError("this Searcher is searching (in another thread): one search at a time")
        return 0

    cdef int load(self, hands) except -1:
        cdef int s, r, v, n = self.c.n
        cdef int total[NUM_RANKS]
        self.idle()
        if self.using is None:
            raise ValueError("reset() the Searcher first")
        if len(hands) != n:
            raise ValueError(f"{n} hands expected, one per seat")
        memset(total, 0, sizeof(total))
        for s in range(n):
            h = hands[s]
            if len(h) != NUM_RANKS:
                raise ValueError("a hand is 15 counts")
            self.c.left[s] = 0
            for r in range(NUM_RANKS):
                v = h[r]
                total[r] += v if v > 0 else 0
                if not 0 <= v <= self.opts.limit[r] or total[r] > self.opts.limit[r]:
                    raise ValueError("a count beyond the deck")
                self.c.hands[s][r] = <uint8_t>v
                self.c.left[s] += v
            if self.c.left[s] > self.opts.max_hand:
                raise ValueError("a hand of more cards than a player holds")
        for s in range(n, MAX_SEATS):
            memset(self.c.hands[s], 0, NUM_RANKS)
            self.c.left[s] = 0
        for s in range(MAX_SEATS):
            self.c.packed[s] = pack(self.c.hands[s])
        if self.auto_entries:
            self.auto_entries = 0
            r = self.c.left[0] + self.c.left[1] + self.c.left[2]
            self.attach(self.using, first_entries(r))
        if self.c.dfpn:
            self.c.tmask = self.c.tfull      # df-pn's entries are not moved: the whole table
        return 0

    cdef int check_state(self, int to_move, int64_t to_beat, int last, bint playing) except -1:
        """Seats in range, the play to beat a play of the rule set (its own reading) or
        0, ``last`` given exactly when there is a play to beat; ``playing``: every hand
        holds cards."""
        cdef uint8_t cc[NUM_RANKS]
        cdef int64_t out[MAX_READINGS]
        cdef int k, i, ok = 0, s
        check_seat(to_move, self.c.n, "to_move", False)
        check_seat(last, self.c.n, "last", True)
        if (to_beat == 0) != (last == -1) or last == to_move:
            raise ValueError("last is the seat of the play to beat (not the seat to move), "
                             "-1 exactly when leading (to_beat 0)")
        if to_beat != 0:
            code_counts(to_beat, cc)
            k = readings_codes(&self.opts, cc, out)
            for i in range(k):
                ok |= out[i] == to_beat and out[i] != 0
            if not ok:
                raise ValueError(f"to_beat {to_beat} is not the code of a play")
        if playing:
            for s in range(self.c.n):
                if self.c.left[s] == 0:
                    raise ValueError("every hand must hold cards")
        return 0

    cdef int start(self, node_limit, double time_limit) except -1:
        cdef int64_t limit = INT64_MAX
        if node_limit is not None:
            if node_limit < 0:
                raise ValueError("node_limit must be >= 0 or None")
            if node_limit < INT64_MAX - self.c.nodes:
                limit = self.c.nodes + <int64_t>node_limit
        if not time_limit >= 0:
            raise ValueError("time_limit must be >= 0 (0: none)")
        self.c.aborted = 0
        self.c.top = 0
        self.c.node_stop = limit
        self.c.deadline = now() + time_limit if 0 < time_limit < 1e12 else 0.0
        self.c.polls = -1           # decided at the first poll
        return 0

    cdef inline void regain(self) noexcept:
        """Take the GIL back after a search that released it."""
        if self.c.ts != NULL:
            PyEval_RestoreThread(self.c.ts)
            self.c.ts = NULL

    cdef int finish(self) except -1:
        """After a search: take the GIL back, and raise what the poll raised."""
        self.regain()
        if self.pending is not None:
            exc, self.pending = self.pending, None
            raise exc
        return 0

    cdef int root_search(self, int p, int64_t tb, int last, int llp, int fp, int alpha, int beta,
                         int* exact) noexcept:
        """The value of the root (a helper may finish it first); ``exact[0]`` 0 when
        stopped."""
        cdef int v
        memcpy(self.root_hands, self.c.hands, sizeof(self.root_hands))
        self.root_p = p
        self.root_tb = tb
        self.root_last = last
        self.root_llp = llp
        self.root_fp = fp
        self.root_alpha = alpha
        self.root_beta = beta
        self.has_root = 1
        self.root_claimed = 0
        self.helper_done = 0
        if self.c.dfpn:
            self.has_root = 0           # no helpers: df-pn runs on one thread
            v = dfpn_value(&self.c, p, tb, last)
        else:
            v = search(&self.c, p, tb, last, llp, fp, alpha, beta)
        self.has_root = 0
        if not ddz_claim(&self.root_claimed, 0, 1):
            # a helper finished the root first (and may have stopped this search): its
            # value, searched in the same window
            while not ddz_load(&self.helper_done):
                pass
            self.c.aborted = 0
            ddz_claim(&self.stop_flag, 2, 0)
            v = self.helper_value
        ddz_store(&self.helper_stop, 1)
        exact[0] = not self.c.aborted
        return v

    def share(self):
        """The table is about to be shared with helpers (:meth:`help`): defer moves being
        searched elsewhere (ABDADA) from now on. The entries in use still grow (this
        searcher moves them; a helper reads the size this searcher uses, and an entry
        looked for at a stale slot is a miss, never a wrong value)."""
        self.c.shared = 1

    def value(self, hands, int to_move, int64_t to_beat, int last, landlord_plays,
              bint farmers_played, int alpha=-INF, int beta=INF, node_limit=None,
              double time_limit=0.0, bint release=False):
        """Search one state (see :meth:`solve`) in the window ``(alpha, beta)``:
        ``(value, exact)``; ``exact`` is ``False`` when a limit, :meth:`stop` or the poll
        cut the search short (the value is then meaningless)."""
        cdef int v, exact, llp
        self.load(hands)
        self.check_state(to_move, to_beat, last, True)
        llp = landlord_plays_arg(landlord_plays)
        if not alpha < beta:
            raise ValueError("the window must have alpha < beta")
        self.start(node_limit, time_limit)
        self.busy = 1
        try:
            self.c.ts = PyEval_SaveThread() if release else NULL
            v = self.root_search(to_move, to_beat, last, llp, farmers_played, alpha, beta, &exact)
            self.finish()
        finally:
            self.regain()
            self.busy = 0
        return v, bool(exact)

    def solve(self, hands, int to_move, int64_t to_beat, int last, landlord_plays,
              bint farmers_played, bint all_moves=False, node_limit=None,
              double time_limit=0.0):
        """Solve one state: its value, the moves that reach it and a principal variation.

        :param hands: one 15-count sequence per seat (every hand non-empty, within the
            deck together).
        :param to_move: the seat to move. :param to_beat: the play code to beat (0:
            lead). :param last: the seat that made it (-1 when leading).
        :param landlord_plays: plays the landlord has made (only 0, 1 and 2 or more
            differ). :param farmers_played: whether a farmer has played.
        :param all_moves: every move that reaches the value, not only the first (in win
            mode the losing side reports none).
        :param node_limit: stop after this many more nodes (``None``: no limit; at most
            2**63 - 1 counts). :param time_limit: seconds (0, or 1e12 or more: no limit).
        :returns: ``(value, exact, moves, pv)``: the value (landlord's side: ±1 in win
            mode, ±2**k in score mode), ``exact`` (``False``: stopped, the rest
            meaningless), the move codes that reach it (in search order) and the codes
            of a principal variation (passes included) to the end of the hand.
        :raises ValueError: a bad hand, seat, play code, window or limit.
        :raises KeyboardInterrupt: Ctrl-C (or what the poll raised).
        """
        cdef int llp
        self.load(hands)
        self.check_state(to_move, to_beat, last, True)
        llp = landlord_plays_arg(landlord_plays)
        if not self.c.score:
            llp = 0
            farmers_played = 0
        self.start(node_limit, time_limit)
        return self.run_solve(to_move, to_beat, last, llp, farmers_played, all_moves, PV_MAX)

    cdef tuple run_solve(self, int to_move, int64_t to_beat, int last, int llp, int farmers_played,
                         bint all_moves, int pv_max):
        """The body of :meth:`solve` once the state is loaded and checked and the
        limits set: ``(value, exact, moves, pv)``, the line cut at ``pv_max`` plies
        (its first move is still found when ``pv_max`` is 0: the reported move);
        :attr:`search_seconds` its own time."""
        cdef int v, root_v, exact = 1, p, last_, fp
        cdef int64_t tb, first
        cdef Py_ssize_t m, i, n
        cdef int64_t* buf = NULL
        cdef double t0 = now()
        cdef int pv_cap
        if not 0 <= pv_max <= PV_MAX:
            raise ValueError(f"pv_max must be 0 to {PV_MAX}")
        pv_cap = pv_max if pv_max > 1 else 1
        self.c.ts = NULL
        moves = []
        pv = []
        self.busy = 1
        try:
            v = self.root_search(to_move, to_beat, last, llp, farmers_played,
                                 -INF if self.c.score else -1, INF if self.c.score else 1, &exact)
            self.regain()
            root_v = v
            if exact and all_moves:
                n = gen_ordered(&self.c, to_move, to_beat, last, -1)
                buf = <int64_t*>realloc(NULL, sizeof(int64_t) * (n + 1 if n > 0 else 1))
                if n < 0 or buf == NULL:
                    raise MemoryError("no room for the move list")
                m = best_moves(&self.c, to_move, to_beat, last, llp, farmers_played, v, 0, buf, n + 1)
                self.regain()
                if m < 0:
                    exact = 0
                else:
                    moves = [buf[i] for i in range(m)]
            # the principal variation: the first move reaching the value, ply by ply (its
            # first move is the reported one)
            p, tb, last_, fp = to_move, to_beat, last, farmers_played
            while exact and len(pv) < pv_cap:
                m = best_moves(&self.c, p, tb, last_, llp, fp, v, 1, &first, 1)
                self.regain()
                if m < 0:
                    exact = 0
                if m <= 0:
                    break
                pv.append(first)
                if self.c.score and is_bomb(first):
                    v //= 2
                if play_move(&self.c, &p, &tb, &last_, &llp, &fp, first):
                    break
        finally:
            self.regain()
            free(buf)
            self.restore_root()       # the line was played out on the context
            self.busy = 0
        self.search_seconds = now() - t0
        self.finish()
        if not exact:
            return 0, False, [], []
        if not all_moves:
            moves = pv[:1]
        if not self.c.score and (root_v > 0) != is_landlord_side(&self.c, to_move):
            moves = []
        if len(pv) > pv_max:
            del pv[pv_max:]
        return root_v, True, moves, pv

    cdef int reset_fast(self, object rules, int seats, int landlord, int score, int features) except -1:
        """:meth:`reset` for a trusted caller (a :class:`ddz.Position`'s fields)."""
        if self.busy or self.table is None or rules is not self.rules:
            self.reset(rules, seats, landlord, score, 0, features)
            return 0
        self.c.n = seats
        self.c.landlord = landlord
        self.c.score = score
        self.score_mode = score
        self.c.shared = 0
        self.stop_flag = 0
        self.helper_stop = 0
        self.helper_done = 0
        self.root_claimed = 0
        self.has_root = 0
        self.c.nodes = 0
        self.poll_fn = None
        self.auto_entries = 1
        self.table.fresh(self.c.tmask + 1 if self.using is self.table else 0)
        self.attach(self.table, self.table.entries)
        self.c.features = features
        self.c.canon = (features & FEAT_CANON) != 0 and canon_options(&self.opts)
        self.c.dfpn = (features & FEAT_DFPN) != 0 and not score
        return 0

    cdef int load_trusted(self, tuple hands) except -1:
        """Load a :class:`ddz.Position`'s hands (tuples of 15 ints, checked when the
        position was built)."""
        cdef int s, r, n = self.c.n
        cdef tuple h
        for s in range(n):
            h = <tuple>hands[s]
            self.c.left[s] = 0
            for r in range(NUM_RANKS):
                self.c.hands[s][r] = <uint8_t><int>h[r]
                self.c.left[s] += self.c.hands[s][r]
        for s in range(n, MAX_SEATS):
            memset(self.c.hands[s], 0, NUM_RANKS)
            self.c.left[s] = 0
        for s in range(MAX_SEATS):
            self.c.packed[s] = pack(self.c.hands[s])
        if self.auto_entries:
            self.auto_entries = 0
            r = self.c.left[0] + self.c.left[1] + self.c.left[2]
            self.attach(self.using, first_entries(r))
        if self.c.dfpn:
            self.c.tmask = self.c.tfull
        return 0

    cdef object solve_one(self, object pos, bint score, bint all_moves, object node_limit,
                          double time_limit, int features, int pv_max, double t0):
        """Solve a :class:`ddz.Position` (not over; its fields trusted) into a
        :class:`ddz.Solution` (see :func:`_configure`); ``t0``: the call's start
        (``perf_counter``)."""
        cdef tuple hands = pos.hands
        cdef int seats = len(hands), landlord = pos.landlord, to_move = pos.to_move, llp = 0, fp = 0
        cdef int v, exact
        cdef int64_t tb = 0
        cdef int last = -1
        beat = pos.to_beat
        if beat is not None:
            tb = beat.code
            last = pos.last_player
        self.reset_fast(pos.rules, seats, landlord, score, features)
        self.load_trusted(hands)
        if score:
            llp = pos.landlord_plays
            llp = 2 if llp >= 2 else llp
            fp = pos.farmers_played
        self.start(node_limit, time_limit)
        v, exact, codes, line = self.run_solve(to_move, tb, last, llp, fp, all_moves, pv_max)
        self.drop_pages()
        return _make_solution(pos, score, all_moves, v, exact, codes, line, self.c.nodes, t0,
                              self.search_seconds, seats, landlord, to_move)

    def solve_position(self, pos, bint score, bint all_moves, node_limit, double time_limit,
                       int features, int pv_max, double t0):
        """Solve a :class:`ddz.Position` that is not over (its fields are trusted: checked
        when it was built) into a :class:`ddz.Solution` (``ddz.solve``'s path without a
        poll, after ``_configure``). ``pv_max``: plies of the line (0..120)."""
        self.idle()
        if _Position is None or not isinstance(pos, _Position):
            raise TypeError(f"solve_position takes a ddz.Position, not {type(pos).__name__}")
        if pos.over:
            raise ValueError("the position is over: nothing to search")
        return self.solve_one(pos, score, all_moves, node_limit, time_limit, features, pv_max, t0)

    def batch(self, positions, bint score, bint all_moves, node_limit, double time_limit,
              int features, int pv_max, over_fn):
        """Solve each :class:`ddz.Position` of the sequence ``positions`` in turn (one
        C loop: no Python per position but ``over_fn(pos)`` for one that is over);
        a list of :class:`ddz.Solution`. A position that is not a Position is a
        TypeError naming its index."""
        cdef Py_ssize_t i, n = len(positions)
        cdef list out = [None] * n
        cdef object pos
        self.idle()
        if _Position is None:
            raise TypeError("ddz.search.solver is not loaded")
        if not callable(over_fn):
            raise TypeError("over_fn must be callable")
        for i in range(n):
            pos = positions[i]
            if type(pos) is not _Position and not isinstance(pos, _Position):
                raise TypeError(f"positions[{i}] is not a ddz.Position: {type(pos).__name__}")
            if pos.over:
                out[i] = over_fn(pos)
            else:
                out[i] = self.solve_one(pos, score, all_moves, node_limit, time_limit, features, pv_max,
                                        _perf_counter())
        return out

    cdef void restore_root(self) noexcept:
        """Put the root's hands (saved by :meth:`root_search`) back on the context."""
        self.put_hands(self.root_hands)

    cdef void put_hands(self, const uint8_t[MAX_SEATS][NUM_RANKS] hands) noexcept:
        """Set the context's hands (and their card counts and packed forms)."""
        cdef int s, r
        memcpy(self.c.hands, hands, sizeof(self.root_hands))
        for s in range(MAX_SEATS):
            self.c.left[s] = 0
            for r in range(NUM_RANKS):
                self.c.left[s] += self.c.hands[s][r]
            self.c.packed[s] = pack(self.c.hands[s])

    def help(self, Searcher main not None):
        """Search ``main``'s running root on its table, without the GIL, until the root
        is solved or ``main`` tells its helpers to stop (a helper thread of a parallel
        search; ``main`` must have called :meth:`share`); a helper that finishes first
        hands its value to ``main`` and stops it. Returns the nodes searched."""
        if main is self:
            raise ValueError("a Searcher cannot help itself")
        self.idle()
        if not main.has_root or main.using is None or not main.c.shared:
            return 0
        self.busy = 1
        try:
            return self.help_search(main)
        finally:
            self.busy = 0

    cdef int64_t help_search(self, Searcher main) except -1:
        cdef int v, p, last, llp, fp, alpha, beta
        cdef int64_t tb
        self.opts = main.opts
        self.c.o = &self.opts
        self.c.n = main.c.n
        self.c.landlord = main.c.landlord
        self.c.score = main.score_mode
        self.c.features = main.c.features
        self.c.canon = main.c.canon
        self.c.tt = main.c.tt
        self.c.tmask = main.c.tmask
        self.c.maskp = &main.c.tmask
        self.c.tfull = main.c.tfull
        self.c.gen = main.c.gen
        self.c.busy = main.c.busy
        self.c.shared = 1
        self.c.stop = &main.helper_stop
        self.c.node_stop = INT64_MAX
        self.c.deadline = 0.0
        self.c.polls = 0
        self.c.nodes = 0
        self.c.aborted = 0
        self.c.top = 0
        self.put_hands(main.root_hands)
        p, tb, last, llp, fp = main.root_p, main.root_tb, main.root_last, main.root_llp, main.root_fp
        alpha, beta = main.root_alpha, main.root_beta
        self.c.ts = PyEval_SaveThread()
        v = search(&self.c, p, tb, last, llp, fp, alpha, beta)
        if not self.c.aborted and ddz_claim(&main.root_claimed, 0, 1):
            main.helper_value = v
            ddz_store(&main.helper_stop, 1)
            ddz_claim(&main.stop_flag, 0, 2)       # main: stop, and take the helper's value
            ddz_store(&main.helper_done, 1)
        PyEval_RestoreThread(self.c.ts)
        self.c.ts = NULL
        self.c.stop = &self.stop_flag
        return self.c.nodes

    def cheap_tests(self, hands, int seat, int64_t to_beat):
        """Test hook: ``(forced_pass, goes_out)`` of the search's cheap tests for ``seat``
        (1: surely only the pass answers ``to_beat``; 1: the whole hand is one legal play
        now). The first must never say 1 when a play beats ``to_beat``."""
        self.load(hands)
        check_seat(seat, self.c.n, "seat", False)
        if to_beat:
            self.check_state((seat + 1) % self.c.n, to_beat, seat, False)
        return (forced_pass(&self.c, seat, to_beat) if to_beat else 0), goes_out(&self.c, seat, to_beat)

    def ordered_moves(self, hands, int to_move, int64_t to_beat, int last):
        """The legal move codes of the seat to move, in the search's order (without the
        table's move). :returns: list of int codes."""
        cdef Py_ssize_t n, i
        self.load(hands)
        self.check_state(to_move, to_beat, last, False)
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
    cdef int r, v, t = code_type(code)
    cdef int length = <int>((code >> CODE_LENGTH_SHIFT) & 15), hi = <int>((code >> CODE_RANK_SHIFT) & 15)
    if len(hand) != NUM_RANKS:
        raise ValueError("a hand is 15 counts")
    for r in range(NUM_RANKS):
        v = hand[r]
        if not 0 <= v <= 4:
            raise ValueError("a count beyond the deck")
        h[r] = <uint8_t>v
    if code < 0 or t > T_ROCKET or (code != 0 and (length < 1 or hi >= NUM_RANKS or length > hi + 1)):
        raise ValueError("not the code of a play")
    code_counts(code, cc)
    return pack(cc), pack_code(code), split_count(pack(h)), maybe_one_play(pack(h))
