# cython: language_level=3
"""C-level view of the play phase (``ddz.game._game``), for other .pyx files to ``cimport``:
the vectorised game (``ddz.envs._vector``) steps the same struct as ``ddz.Game``.

The play-phase state is the plain C struct :c:type:`PlayCore`, stepped by the ``nogil``
functions below; :class:`PlayState` is its Python wrapper (one ``PlayCore`` and the
``RuleTable`` that owns the table it reads). The deal's generator is likewise the struct
:c:type:`DealRng` wrapped by :class:`DealStream`; :c:type:`MTState` (``random.Random``'s
MT19937, wrapped by :class:`Twister`) deals the hands of old records and draws for bots.

Stable API (other modules depend on these signatures):

* ``core_init(c)`` (no buffers yet) / ``core_free(c)``: every ``PlayCore`` starts with
  ``core_init`` and ends with ``core_free``.
* ``core_start(c, v, seats, hands, to_move, bombs_rule)``: a leading position of
  ``seats`` hands (``hands``: ``seats * 15`` counts, trusted), history cleared.
* ``core_fill(c)``: the legal codes of the position into ``c.codes[0:n]`` (cached until
  the next step); ``n``, or -1 when out of memory. ``core_count(c)``: their number, nothing
  written. ``core_is_legal(c, id)``: a fit check and one comparison.
* ``core_apply(c, id)``: play the legal id ``id`` (trusted); 0, or -1 when out of memory
  (nothing changed then). ``core_pop(c)``: undo the last step; its id, or -1.
* ``dr_below(r, n)``: the deal stream (the deal's generator);
  ``mt_seed(m, key, n)``, ``mt_next(m)``, ``mt_below(m, n)``: ``random.Random``'s (the
  deals of records of version 4 and older, and the bots').

Read the fields of a ``PlayCore``; write them only through these functions.
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t

from ddz.core._core cimport NUM_RANKS, RuleTable, TableView

cdef extern from *:
    """
    #include <string.h>
    #include <stdint.h>
    /* 8 bytes at p as a little-endian word, and a word back as such bytes */
    static inline uint64_t ddz_load_le64(const uint8_t* p) {
        uint64_t w; memcpy(&w, p, 8);
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w);
    #endif
        return w;
    }
    static inline void ddz_store_le64(uint8_t* p, uint64_t w) {
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w);
    #endif
        memcpy(p, &w, 8);
    }
    """
    uint64_t ddz_load_le64(const uint8_t* p) noexcept nogil
    void ddz_store_le64(uint8_t* p, uint64_t w) noexcept nogil

cdef enum:
    MAX_SEATS = 4
    FIRST_CAP = 64        # legal-move buffer entries before the first growth
    FIRST_HIST = 64       # history entries before the first growth


cdef struct Entry:
    int32_t id             # the play (0: the pass)
    int32_t prev_beat      # the play to beat before it
    int8_t seat
    int8_t prev_beat_seat
    int8_t prev_passes


cdef struct PlayCore:
    const TableView* v     # the rule set's table (NULL: never started)
    int seats
    int current            # the seat to act; -1 once a seat has gone out
    uint8_t hands[MAX_SEATS][NUM_RANKS]
    int left[MAX_SEATS]
    int nplays[MAX_SEATS]
    int32_t to_beat        # the id of the play to beat (0: the seat to act leads)
    int to_beat_seat       # who made it (-1: leading)
    int passes             # passes since the last play of the trick
    int bombs              # played bombs that double the score under bombs_rule
    int rockets
    int bombs_rule         # Rules.doubling_bombs: 0 all, 1 beating, 2 six_plus
    int winner             # the seat that went out, -1 while playing
    Entry* hist
    Py_ssize_t nhist
    Py_ssize_t hcap
    int64_t* codes         # legal moves of this position (cached)
    Py_ssize_t ncodes      # -1: not computed
    Py_ssize_t cap


cdef void core_init(PlayCore* c) noexcept nogil
cdef void core_free(PlayCore* c) noexcept nogil
cdef void core_start(PlayCore* c, const TableView* v, int seats, const uint8_t* hands, int to_move,
                     int bombs_rule) noexcept nogil
cdef Py_ssize_t core_fill(PlayCore* c) noexcept nogil
cdef Py_ssize_t core_count(const PlayCore* c) noexcept nogil
cdef bint core_is_legal(const PlayCore* c, Py_ssize_t pid) noexcept nogil
cdef int core_apply(PlayCore* c, int32_t pid) noexcept nogil
cdef int32_t core_pop(PlayCore* c) noexcept nogil


cdef class PlayState:
    cdef readonly RuleTable table
    cdef PlayCore c

    cdef int ready(self) except -1
    cdef Py_ssize_t fill(self) except -1
    cdef long long perft_(self, int depth) except -1


cdef enum:
    MT_N = 624
    MT_M = 397


cdef struct MTState:
    uint32_t mt[MT_N]
    int mti                # the next word to output (MT_N: a new round first)
    int gen                # words of this round twisted so far (twisted in order, on demand)


cdef void mt_seed(MTState* m, const uint32_t* key, Py_ssize_t n) noexcept nogil
cdef uint32_t mt_next(MTState* m) noexcept nogil
cdef uint32_t mt_below(MTState* m, uint32_t n) noexcept nogil
cdef void mt_seed_u64(MTState* m, uint64_t seed) noexcept nogil


cdef class Twister:
    cdef MTState m


# the deal stream (``ddz.game.deal``): SplitMix64 keyed by the seed, counter-based
cdef struct DealRng:
    uint64_t seed          # the key: ``Game``'s seed, 0 .. 2**64 - 1
    uint64_t drawn         # 32-bit draws so far: draw i is half of word i // 2, a function of (seed, i)
    uint64_t word          # word (drawn - 1) // 2 (its low half is the next draw when drawn is odd)


cdef uint64_t mix64(uint64_t z) noexcept nogil
cdef uint32_t dr_below(DealRng* r, uint32_t n) noexcept nogil
cdef int64_t vector_hand_seed(uint64_t seed, uint64_t j) noexcept nogil


cdef class DealStream:
    cdef DealRng r


# -- the hand around the play phase (RULES.md §3, §4, §6, §7): _game.pyx --------------

cdef enum:
    MAX_DECK = 108
    PH_BIDDING = 0
    PH_DOUBLING = 1
    PH_OPENING = 2
    PH_PLAYING = 3
    PH_OVER = 4
    AU_ONCE = 0            # bid_rounds="once"
    AU_UNTIL = 1           # bid_rounds="until_passes"
    AU_ROB = 2             # bidding="rob"
    HAND_OVER = 1          # hand_apply: the hand ended, scored
    HAND_VOID = 2          # ... ended void (everybody passed, no redeal left)
    HAND_DEAL = 3          # ... everybody passed: the caller deals again (no generator)


cdef struct HandConf:
    const TableView* v     # the move rules' table
    int seats
    int hand_size
    int bottom_size
    int auction            # AU_*
    int doubling           # Rules.doubling (§4)
    int all_void           # Rules.all_pass="void"
    int max_redeals
    int bombs_rule         # Rules.doubling_bombs: 0 all, 1 beating, 2 six_plus
    int four               # the four-player game (§7): forced bid, open play
    int bonus              # Rules.bottom_bonus (§6)
    int face_up            # Rules.first_bidder="face_up" (§3)
    int32_t P              # env ids: plays 0..P-1, then bid 1..3, call/rob, double, open
    int ndeck
    uint8_t ranks[MAX_DECK]    # the rank of each deck position (full_deck order)
    uint8_t suits[MAX_DECK]    # ... and its suit (0..3; 4 for a joker)
    int bitdeal                # at most 64 cards, at most 4 of a rank: hand_deal counts by bits
    uint8_t bitpos[MAX_DECK]   # ... the bit of each deck position: 4 * rank + its copy so far


cdef struct Hand:
    PlayCore pc
    DealRng rng                 # the deal's generator (when ``dealer``)
    int dealer                  # 1: the hand deals its redeals; 0: the caller deals (HAND_DEAL)
    int64_t seed
    int phase                   # PH_*
    int current                 # the seat to act (-1 once over)
    int first                   # the first bidder of every deal of the hand
    int landlord                # -1 until known
    int ndeals                  # deals so far (redeals + 1)
    uint8_t hands[MAX_SEATS][NUM_RANKS]    # before the play phase, and its start
    uint8_t bottom[NUM_RANKS]
    uint8_t flush               # the bottom cards are of one suit (no joker)
    uint8_t forced[MAX_SEATS]   # four players: this seat may not pass while nobody bid (§7)
    int left[MAX_SEATS]
    int face_seat               # first_bidder="face_up": who received the face-up card (-1: none)
    int face_rank               # ... and its rank
    int bonus                   # the bottom bonus (1 until there is a landlord, §6)
    int8_t open                 # four players: -1 not chosen, 0 closed, 1 open play (×3, §7)
    # the auction of this deal
    int bid
    int robs
    int spoken
    int bidder
    int caller
    int final
    int passes
    int8_t word[MAX_SEATS]      # latest word per seat: 0 silent, 1 + value
    # doubling
    int8_t doubles[MAX_SEATS]   # -1 not chosen, 0 no, 1 yes
    int ndoubles
    int in_play                 # pc holds the play phase (from its start, also once over)
    # the score, once over (hand_score)
    int spring
    int anti
    int64_t multiplier
    int64_t scores[MAX_SEATS]


cdef void hand_deal(Hand* g, const HandConf* c) noexcept nogil
cdef uint8_t hand_must_bid(const uint8_t* hand) noexcept nogil
cdef int hand_bonus_factor(const uint8_t* b, bint flush) noexcept nogil
cdef void hand_start_deal(Hand* g, const HandConf* c) noexcept nogil
cdef void hand_new_hand(Hand* g, const HandConf* c, int64_t seed) noexcept nogil
cdef int hand_new_hand_to(Hand* g, const HandConf* c, int64_t seed, int* order) noexcept nogil
cdef void hand_deal_to(Hand* g, const HandConf* c, int* order) noexcept nogil
cdef int hand_next_seat(int s, const HandConf* c) noexcept nogil
cdef void hand_start_play(Hand* g, const HandConf* c) noexcept nogil
cdef void hand_set_landlord(Hand* g, const HandConf* c, int seat) noexcept nogil
cdef int hand_all_passed(Hand* g, const HandConf* c) noexcept nogil
cdef void hand_redealt(Hand* g, const HandConf* c) noexcept nogil
cdef int hand_bid_step(Hand* g, const HandConf* c, int value) noexcept nogil
cdef void hand_double_step(Hand* g, const HandConf* c, int value) noexcept nogil
cdef int hand_factor(const Hand* g) noexcept nogil
cdef void hand_score(Hand* g, const HandConf* c, const PlayCore* pc) noexcept nogil
cdef Py_ssize_t hand_count_ids(Hand* g, const HandConf* c) noexcept nogil
cdef int hand_forced(const Hand* g) noexcept nogil
cdef void hand_write_ids(Hand* g, const HandConf* c, int32_t* out) noexcept nogil
cdef bint hand_is_legal(Hand* g, const HandConf* c, int32_t a) noexcept nogil
cdef int hand_apply(Hand* g, const HandConf* c, int32_t a) noexcept nogil
cdef int hand_conf_from(HandConf* c, RuleTable table, dict settings, bytes ranks, bytes suits) except -1


cdef class HandRules:
    cdef HandConf c
    cdef readonly RuleTable table
    cdef int ready(self) except -1


cdef class CHand:
    cdef Hand h
    cdef int order[MAX_DECK]       # the deck positions of the last deal (hand_deal_to)
    cdef readonly HandRules rules
    cdef int32_t env_id(self, int value) except -2
