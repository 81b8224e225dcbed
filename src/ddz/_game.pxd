# cython: language_level=3
"""C-level view of the play phase (``ddz._game``), for other .pyx files to ``cimport``:
the vectorised game and the solver step the same struct as ``ddz.Game``.

Stable API: ``PlayState.is_legal(id)``, ``apply(id)`` (trusted: a legal id),
``fill()`` (the legal codes of the position into ``codes[0:n]``, cached), ``count_()``,
and the fields below (read them, never write them from outside).
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t

from ddz._core cimport NUM_RANKS, RuleTable, TableView

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


cdef class PlayState:
    cdef readonly RuleTable table
    cdef const TableView* v
    cdef readonly int seats
    cdef readonly int current        # the seat to act; -1 once a seat has gone out
    cdef uint8_t hands[MAX_SEATS][NUM_RANKS]
    cdef int left[MAX_SEATS]
    cdef int nplays[MAX_SEATS]
    cdef readonly int32_t to_beat    # the id of the play to beat (0: the seat to act leads)
    cdef readonly int to_beat_seat   # who made it (-1: leading)
    cdef readonly int passes         # passes since the last play of the trick
    cdef readonly int bombs, rockets # played ones that double the score under bombs_rule
    cdef int bombs_rule               # Rules.doubling_bombs: 0 all, 1 beating, 2 six_plus
    cdef readonly int winner         # the seat that went out, -1 while playing
    cdef Entry* hist
    cdef Py_ssize_t nhist, hcap
    cdef int64_t* codes              # legal moves of this position (cached)
    cdef Py_ssize_t ncodes           # -1: not computed
    cdef Py_ssize_t cap

    cdef int ready(self) except -1
    cdef Py_ssize_t fill(self) except -1
    cdef Py_ssize_t count_(self) noexcept
    cdef bint is_legal(self, Py_ssize_t pid) noexcept
    cdef int apply(self, int32_t pid) except -1
    cdef long long perft_(self, int depth) except -1


cdef enum:
    MT_N = 624
    MT_M = 397


cdef class Twister:
    cdef uint32_t mt[MT_N]
    cdef int mti
    cdef void init_genrand(self, uint32_t s) noexcept
    cdef void init_by_array(self, const uint32_t* key, Py_ssize_t n) noexcept
    cdef uint32_t genrand(self) noexcept
    cdef uint32_t below(self, uint32_t n) noexcept
