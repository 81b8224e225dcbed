# cython: language_level=3
"""C-level kernels of the ddz core, for other .pyx files to ``cimport``.

Hands are 15-slot count vectors (``const uint8_t*``, rank index 0..14 as in
RULES.md §1). Moves are the compact int64 codes of :mod:`ddz.core.play` (``Play.code``);
the pass is 0. Every rule option reaches the kernels through one ``Opts`` struct,
derived from :attr:`ddz.Rules.move_options` in one place (``opts_from``) and held by the
rule set's :class:`RuleTable`.

The ``cdef`` kernels trust their input (the table's Python-callable methods and
``ddz.game.actions`` validate it): counts must be a possible hand under the options, and a
play to beat must be a play of them. Even so they never write past the capacity they
are given, and they refuse a to-beat code of no known shape (only the pass is legal).

Stable API (other modules depend on these signatures):

* ``opts_from(rules.move_options, &o)``: fill the kernel options of a rule set (no
  table needed).
* ``legal_codes(o, hand, to_beat_code, out, cap)``: writes the legal move codes in move
  order (at most ``cap``) and returns how many there are (possibly more than ``cap``:
  then only the first ``cap`` were written). ``to_beat_code == 0`` means leading (no
  pass), otherwise the pass (0) comes first. ``RuleTable.max_moves`` entries always
  suffice for a possible hand.
* ``count_legal(o, hand, to_beat_code)``: the same count, writing nothing.
* ``readings_codes(o, cards, out)``: every reading of a multiset (``out`` needs
  ``MAX_READINGS`` entries).
* ``beats_code(a, b)``: does play ``a`` beat play ``b`` (RULES.md §2.2, §7) under the
  comparison every rule set shares; ``beats_opts(o, a, b)`` under the rule set's options
  (``airplane_rank``, ``beat_reading``, ``bomb_on_rocket``, RULES.md §2.5).
* ``fits_opts(o, code, hand)``: whether the options let ``hand`` (which holds the play)
  play ``code`` (``chain_from_four``, RULES.md §2.5).
* ``RuleTable.index(code)``: the action id of a code, -1 if it is none (nogil).
"""

from libc.stdint cimport uint8_t, int32_t, int64_t, uint32_t, uint64_t

cdef enum:
    NUM_RANKS = 15
    CHAIN_RANKS = 12
    RANK_2 = 12
    SMALL_JOKER = 13
    BIG_JOKER = 14
    NUM_TYPES = 15
    MAX_WIDTH = 8
    MAX_READINGS = 8
    KICK_BITS = 3
    CODE_RANK_SHIFT = 45
    CODE_LENGTH_SHIFT = 49
    CODE_WIDTH_SHIFT = 53
    CODE_TYPE_SHIFT = 57

cdef enum PlayTypeC:
    T_PASS = 0
    T_SINGLE = 1
    T_PAIR = 2
    T_TRIO = 3
    T_TRIO_SINGLE = 4
    T_TRIO_PAIR = 5
    T_STRAIGHT = 6
    T_PAIR_STRAIGHT = 7
    T_AIRPLANE = 8
    T_AIRPLANE_SINGLES = 9
    T_AIRPLANE_PAIRS = 10
    T_FOUR_TWO_SINGLES = 11
    T_FOUR_TWO_PAIRS = 12
    T_BOMB = 13
    T_ROCKET = 14

cdef struct Opts:
    int decks              # 1 or 2
    int max_hand           # the most cards one player holds
    int kickers_repeat     # single kickers may share a rank (kickers="repeat")
    uint32_t allowed       # bit t: play type t may be played
    int bomb_min           # bomb sizes bomb_min..bomb_max
    int bomb_max
    int rocket_width       # copies of each joker in the rocket
    int joker_pairs        # BB and RR are pairs (and pair kickers)
    int wing_trios         # a trio next to an airplane's chain may be a wing (wings="trios"/"any")
    int wing_bombs         # single kickers may hold four of a rank and both jokers (wings="any")
    int airplane_trios     # AIRPLANE_SINGLES compare by their highest trio (airplane_rank="trios")
    int beat_cards         # the play to beat is read from its cards as DouZero reads them (beat_reading="cards")
    int chain_four         # a plain chain may start at a rank the hand holds in full (chain_from_four)
    int bomb_on_rocket     # any bomb may be played on the rocket (bomb_on_rocket)
    uint8_t limit[NUM_RANKS]   # copies of each rank in the deck(s)

cdef struct TableView:
    # what nogil code needs of a RuleTable: its options, id -> code, and the code -> id hash
    const Opts* opts
    const int64_t* codes      # id -> code (codes[0] == 0: the pass)
    const int64_t* keys       # hash slots: a code, or -1 when empty
    const int32_t* vals       # hash slots: the id of keys[s]
    const uint8_t* counts     # id -> the play's 15 card counts (row-major, n_ids x 15)
    uint64_t hmask
    int hshift
    Py_ssize_t n_ids          # len(plays): the pass and the universe
    Py_ssize_t max_moves      # most legal moves of one position (capacity of a buffer)


cdef inline Py_ssize_t view_index(const TableView* v, int64_t code) noexcept nogil:
    """The id of ``code``, or -1 if it is no play of the universe."""
    cdef uint64_t s = ((<uint64_t>code) * <uint64_t>0x9E3779B97F4A7C15ULL) >> v.hshift
    while v.keys[s] != code:
        if v.keys[s] == -1:
            return -1
        s = (s + 1) & v.hmask
    return v.vals[s]


cdef enum:
    ROW_OK = 0
    ROW_NO_PLAY = 1      # the play to beat is no play of the table, or a banned one
    ROW_OVER_DECK = 2    # a count beyond the deck, alone or with the play to beat
    ROW_TOO_BIG = 3      # more cards than one player holds


cdef inline int row_problem(const TableView* v, const uint8_t* h, Py_ssize_t tb_id,
                            int64_t tb_code) noexcept nogil:
    """What is wrong with one position (``ROW_OK`` if nothing): the play to beat ``tb_id``
    (its id, -1 if its code is no play) must be a play that may be played, and the hand
    alone and with it within the deck and at most ``max_hand`` cards. One branch-free pass
    over the 15 counts."""
    cdef const uint8_t* p
    cdef int r, total = 0, over = 0
    if tb_id < 0 or (tb_code and not ((v.opts.allowed >> ((tb_code >> CODE_TYPE_SHIFT) & 31)) & 1)):
        return ROW_NO_PLAY
    p = v.counts + tb_id * NUM_RANKS
    for r in range(NUM_RANKS):
        total += h[r]
        over |= (h[r] + p[r]) > v.opts.limit[r]
    if over:
        return ROW_OVER_DECK
    if total > v.opts.max_hand:
        return ROW_TOO_BIG
    return ROW_OK


cdef int opts_from(object options, Opts* o) except -1
cdef Py_ssize_t legal_codes(const Opts* o, const uint8_t* hand, int64_t to_beat_code,
                            int64_t* out, Py_ssize_t cap) noexcept nogil
cdef Py_ssize_t count_legal(const Opts* o, const uint8_t* hand, int64_t to_beat_code) noexcept nogil
cdef int readings_codes(const Opts* o, const uint8_t* cards, int64_t* out) noexcept nogil
cdef int beats_code(int64_t a, int64_t b) noexcept nogil
cdef int beats_opts(const Opts* o, int64_t a, int64_t b) noexcept nogil
cdef int fits_opts(const Opts* o, int64_t code, const uint8_t* hand) noexcept nogil
cdef void code_counts(int64_t code, uint8_t* dst) noexcept nogil
cdef const uint8_t[:, ::1] hands_view(object hands) except *


cdef class RuleTable:
    cdef Opts opts
    cdef readonly object rules
    cdef readonly object plays            # IdSeq: the interned Play of each id, made on first use
    cdef readonly object codes
    cdef readonly object counts
    cdef readonly object notation         # IdSeq: str() of each id's play, made on first use
    cdef readonly object index_of_play    # PlayIds: Play -> id, through the code -> id hash
    cdef list play_slots                  # id -> its Play, or None until first asked (shared with base)
    cdef list text_slots                  # id -> its notation, or None (shared with base)
    cdef readonly Py_ssize_t max_moves
    cdef readonly RuleTable base
    cdef readonly dict derived
    cdef readonly dict texts_read         # notation -> Play that play_of_text has read (this rule set's)
    cdef object _all_plays
    cdef object _lock
    cdef TableView view
    cdef int64_t* keys
    cdef int32_t* vals
    cdef bint owner
    cdef Py_ssize_t index(self, int64_t code) noexcept nogil
    cdef bint allowed_code(self, int64_t code) noexcept nogil
    cdef int built(self) except -1
    cdef int64_t checked_beat(self, const uint8_t* h, object code) except -1
    cdef list plays_of(self, const int64_t* codes, Py_ssize_t n)
    cdef object play_at(self, Py_ssize_t j)
    cdef object text_at(self, Py_ssize_t j)
    cdef int check_rows(self, const uint8_t[:, ::1] hands, const int64_t[::1] tbs) except -1
