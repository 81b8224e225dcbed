# cython: language_level=3
"""C-level kernels of the ddz core, for other .pyx files to ``cimport``.

Hands are 15-slot count vectors (``const uint8_t*``, rank index 0..14 as in
RULES.md §1). Moves are the compact int64 codes of :mod:`ddz.play` (``Play.code``);
the pass is 0. Every kernel trusts its input (the Python layer validates): counts must
be a possible hand, and a code must be a play under the rules in force.

Stable API (other modules depend on these signatures):

* ``legal_codes(hand, to_beat_code, repeat, out)``: writes every legal move code in
  move order and returns how many; ``to_beat_code == 0`` means leading (no pass),
  otherwise the pass (0) comes first. ``out`` needs room for ``MAX_MOVES`` entries.
* ``count_legal(hand, to_beat_code, repeat)``: the same count, writing nothing.
* ``readings_codes(cards, repeat, max_cards, out)``: every reading of a multiset
  (``out`` needs ``MAX_READINGS`` entries).
* ``beats_code(a, b)``: does play ``a`` beat play ``b`` (RULES.md §2.2).

``repeat`` is 1 for ``Rules(kickers="repeat")``, 0 for ``"distinct"``.
"""

from libc.stdint cimport uint8_t, int64_t

cdef enum:
    NUM_RANKS = 15
    CHAIN_RANKS = 12
    RANK_2 = 12
    SMALL_JOKER = 13
    BIG_JOKER = 14
    # the largest number of legal moves of any position (27,471 plays + the pass)
    MAX_MOVES = 27472
    MAX_READINGS = 8
    CODE_RANK_SHIFT = 30
    CODE_LENGTH_SHIFT = 34
    CODE_TYPE_SHIFT = 39

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

cdef Py_ssize_t legal_codes(const uint8_t* hand, int64_t to_beat_code, int repeat,
                            int64_t* out) noexcept nogil
cdef Py_ssize_t count_legal(const uint8_t* hand, int64_t to_beat_code, int repeat) noexcept nogil
cdef Py_ssize_t gen_moves(const uint8_t* hand, int64_t to_beat_code, int repeat,
                          int max_cards, int64_t* out) noexcept nogil
cdef int readings_codes(const uint8_t* cards, int repeat, int max_cards,
                        int64_t* out) noexcept nogil
cdef int beats_code(int64_t a, int64_t b) noexcept nogil
