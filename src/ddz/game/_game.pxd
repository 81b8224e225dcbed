# cython: language_level=3
"""C-level view of the play phase (``ddz.game._game``), for other .pyx files to ``cimport``:
the vectorised game (``ddz.envs._vector``) steps the same struct as ``ddz.Game``.

The play-phase state is the plain C struct :c:type:`PlayCore`, stepped by the ``nogil``
functions below; :class:`PlayState` is its Python wrapper (one ``PlayCore`` and the
``RuleTable`` that owns the table it reads). The deal's generator is likewise the struct
:c:type:`MTState` (``random.Random``'s MT19937) wrapped by :class:`Twister`.

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
* ``mt_seed(m, key, n)``, ``mt_next(m)``, ``mt_below(m, n)``: the generator.

Read the fields of a ``PlayCore``; write them only through these functions.
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t

from ddz.core._core cimport NUM_RANKS, RuleTable, TableView

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
    int mti


cdef void mt_seed(MTState* m, const uint32_t* key, Py_ssize_t n) noexcept nogil
cdef uint32_t mt_next(MTState* m) noexcept nogil
cdef uint32_t mt_below(MTState* m, uint32_t n) noexcept nogil


cdef class Twister:
    cdef MTState m
