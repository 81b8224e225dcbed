# cython: language_level=3
"""The play phase stepped in C (RULES.md §5, §6): one implementation of the rules of play.

A :class:`PlayState` holds a play-phase position of any number of seats (2..4): every
hand as 15 counts, the play to beat as an action id of the rule set's table (0 when the
seat to act leads), who made it, the passes since, and the counters the score needs
(plays per seat, bombs, rockets). Plays are action ids of the table (``ddz.core.tables``), so
stepping is a few array reads: legality of one id is a fit check and one ``beats_opts``,
the legal ids of a position are one kernel call, cached until the next step.

The rules of play, for ``n`` seats: the seat to act leads (any play, not the pass) or
responds (the pass, or a play that beats the play to beat, RULES.md §2.2, §7); after
``n - 1`` passes in a row the trick ends and the seat that made the last play leads; the
hand ends when a seat plays its last card. Every step is kept (seat, id, and what it
replaced), so :meth:`PlayState.pop` undoes any number of steps.

:class:`ddz.Game` wraps one for its play phase; the pure-Python twin with the same
methods is :class:`ddz.game.playstate.PyPlayState` (``DDZ_NO_EXTENSIONS=1``), and the test
suite steps both through the same games.

The Python-callable methods check what they are given (``step`` returns ``False`` for an
illegal or unknown id and changes nothing); ``PlayState(...)`` checks the hands against
the table's deck.
"""

cimport cython
cimport numpy as cnp
from cpython.ref cimport Py_INCREF
from cpython.long cimport PyLong_FromLong
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

from ddz.core._core cimport (NUM_RANKS, T_BOMB, T_ROCKET, CODE_TYPE_SHIFT, CODE_WIDTH_SHIFT, RuleTable, TableView,
                        beats_opts, count_legal, fits_opts, legal_codes, view_index)

import operator

import numpy as np

cnp.import_array()

_BOMBS_RULES = {"all": 0, "beating": 1, "six_plus": 2}
_BOMBS_NAMES = {v: k for k, v in _BOMBS_RULES.items()}


cdef inline bint doubles_score(int rule, int64_t code, int32_t beat) noexcept nogil:
    """Whether a BOMB or ROCKET of ``code`` played on ``beat`` (0: leading) doubles the
    score under ``Rules.doubling_bombs`` (RULES.md §6)."""
    if rule == 0:
        return True
    if rule == 1:
        return beat != 0
    return ((code >> CODE_TYPE_SHIFT) & 31) == T_ROCKET or ((code >> CODE_WIDTH_SHIFT) & 15) >= 6


cdef tuple int_tuple(const int* values, Py_ssize_t n):
    """A tuple of ``n`` Python ints (built directly: a list comprehension costs twice)."""
    cdef tuple t = PyTuple_New(n)
    cdef Py_ssize_t i
    cdef object v
    for i in range(n):
        v = PyLong_FromLong(values[i])
        Py_INCREF(v)
        PyTuple_SET_ITEM(t, i, v)
    return t


cdef inline cnp.ndarray new_array(Py_ssize_t n, int typenum):
    cdef cnp.npy_intp dims[1]
    dims[0] = n
    return cnp.PyArray_EMPTY(1, dims, typenum, 0)


# -- the play-phase state as a C struct, stepped without the GIL ---------------------

cdef void core_init(PlayCore* c) noexcept nogil:
    memset(c, 0, sizeof(PlayCore))
    c.v = NULL
    c.hist = NULL
    c.codes = NULL
    c.ncodes = -1
    c.current = -1
    c.winner = -1
    c.to_beat_seat = -1


cdef void core_free(PlayCore* c) noexcept nogil:
    free(c.hist)
    free(c.codes)
    c.hist = NULL
    c.codes = NULL
    c.hcap = c.cap = c.nhist = 0
    c.ncodes = -1


cdef void core_start(PlayCore* c, const TableView* v, int seats, const uint8_t* hands, int to_move,
                     int bombs_rule) noexcept nogil:
    cdef int s, r, total
    c.v = v
    c.seats = seats
    memset(c.hands, 0, sizeof(c.hands))
    for s in range(seats):
        total = 0
        for r in range(NUM_RANKS):
            c.hands[s][r] = hands[s * NUM_RANKS + r]
            total += hands[s * NUM_RANKS + r]
        c.left[s] = total
        c.nplays[s] = 0
    c.current = to_move
    c.to_beat, c.to_beat_seat, c.passes = 0, -1, 0
    c.bombs = c.rockets = 0
    c.bombs_rule = bombs_rule
    c.winner = -1
    c.nhist = 0
    c.ncodes = -1
    for s in range(seats):
        if c.left[s] == 0:
            c.winner = s
            c.current = -1


cdef Py_ssize_t core_fill(PlayCore* c) noexcept nogil:
    cdef Py_ssize_t n
    cdef int64_t* grown
    if c.ncodes >= 0:
        return c.ncodes
    if c.current < 0:
        c.ncodes = 0
        return 0
    if c.codes == NULL:
        c.codes = <int64_t*>malloc(FIRST_CAP * sizeof(int64_t))
        if c.codes == NULL:
            return -1
        c.cap = FIRST_CAP
    n = legal_codes(c.v.opts, c.hands[c.current], c.v.codes[c.to_beat], c.codes, c.cap)
    if n > c.cap:
        grown = <int64_t*>realloc(c.codes, n * sizeof(int64_t))
        if grown == NULL:
            return -1
        c.codes, c.cap = grown, n
        legal_codes(c.v.opts, c.hands[c.current], c.v.codes[c.to_beat], c.codes, c.cap)
    c.ncodes = n
    return n


cdef Py_ssize_t core_count(const PlayCore* c) noexcept nogil:
    if c.ncodes >= 0:
        return c.ncodes
    if c.current < 0:
        return 0
    return count_legal(c.v.opts, c.hands[c.current], c.v.codes[c.to_beat])


cdef bint core_is_legal(const PlayCore* c, Py_ssize_t pid) noexcept nogil:
    cdef const uint8_t* p
    cdef const uint8_t* h
    cdef int64_t code
    cdef int r
    if c.current < 0 or pid < 0 or pid >= c.v.n_ids:
        return False
    if pid == 0:
        return c.to_beat != 0
    code = c.v.codes[pid]
    if not ((c.v.opts.allowed >> ((code >> CODE_TYPE_SHIFT) & 31)) & 1):
        return False
    p = c.v.counts + pid * NUM_RANKS
    h = c.hands[c.current]
    for r in range(NUM_RANKS):
        if p[r] > h[r]:
            return False
    if not fits_opts(c.v.opts, code, h):
        return False
    return c.to_beat == 0 or beats_opts(c.v.opts, code, c.v.codes[c.to_beat])


cdef int core_apply(PlayCore* c, int32_t pid) noexcept nogil:
    cdef Entry* e
    cdef Entry* grown
    cdef int seat = c.current, r, t
    cdef const uint8_t* p
    cdef Py_ssize_t cap
    if c.nhist == c.hcap:
        cap = FIRST_HIST if c.hcap == 0 else 2 * c.hcap
        grown = <Entry*>realloc(c.hist, cap * sizeof(Entry))
        if grown == NULL:
            return -1
        c.hist, c.hcap = grown, cap
    e = &c.hist[c.nhist]
    c.nhist += 1
    e.id = pid
    e.seat = <int8_t>seat
    e.prev_beat = c.to_beat
    e.prev_beat_seat = <int8_t>c.to_beat_seat
    e.prev_passes = <int8_t>c.passes
    c.ncodes = -1
    if pid == 0:
        c.passes += 1
        if c.passes == c.seats - 1:
            c.to_beat, c.to_beat_seat, c.passes = 0, -1, 0
        c.current = seat + 1 if seat + 1 < c.seats else 0
        return 0
    p = c.v.counts + pid * NUM_RANKS
    for r in range(NUM_RANKS):
        c.hands[seat][r] -= p[r]
        c.left[seat] -= p[r]
    c.nplays[seat] += 1
    t = <int>((c.v.codes[pid] >> CODE_TYPE_SHIFT) & 31)
    if (t == T_BOMB or t == T_ROCKET) and doubles_score(c.bombs_rule, c.v.codes[pid], c.to_beat):
        if t == T_BOMB:
            c.bombs += 1
        else:
            c.rockets += 1
    c.to_beat, c.to_beat_seat, c.passes = pid, seat, 0
    if c.left[seat] == 0:
        c.winner = seat
        c.current = -1
    else:
        c.current = seat + 1 if seat + 1 < c.seats else 0
    return 0


cdef int32_t core_pop(PlayCore* c) noexcept nogil:
    cdef Entry* e
    cdef int seat, r, t
    cdef const uint8_t* p
    if c.nhist == 0:
        return -1
    c.nhist -= 1
    e = &c.hist[c.nhist]
    seat = e.seat
    if e.id:
        p = c.v.counts + e.id * NUM_RANKS
        for r in range(NUM_RANKS):
            c.hands[seat][r] += p[r]
            c.left[seat] += p[r]
        c.nplays[seat] -= 1
        t = <int>((c.v.codes[e.id] >> CODE_TYPE_SHIFT) & 31)
        if (t == T_BOMB or t == T_ROCKET) and doubles_score(c.bombs_rule, c.v.codes[e.id], e.prev_beat):
            if t == T_BOMB:
                c.bombs -= 1
            else:
                c.rockets -= 1
    c.to_beat, c.to_beat_seat, c.passes = e.prev_beat, e.prev_beat_seat, e.prev_passes
    c.current = seat
    c.winner = -1
    c.ncodes = -1
    return e.id


cdef class PlayState:
    """A play-phase position, stepped by action id (RULES.md §5).

    :param table: the rule set's table (``ddz.core.tables.table(rules)``, a ``RuleTable``).
    :param hands: one 15-count sequence (or ``uint8[15]`` array) per seat, 2 to 4 seats.
    :param to_move: the seat to act (leading, unless ``to_beat`` is given).
    :param to_beat: the id of the play to beat (0: the seat to act leads).
    :param beat_seat: the seat that made it (required with ``to_beat``).
    :param passes: passes since it was made (``0 .. seats - 2``).
    :param doubling_bombs: which bombs :attr:`bombs` and :attr:`rockets` count
        (``Rules.doubling_bombs``, RULES.md §6): ``"all"``, ``"beating"`` (played on
        another play) or ``"six_plus"`` (the rocket and bombs of 6+ cards).
    :raises ValueError: fewer than 2 or more than 4 hands, a count beyond the table's deck
        (alone or all hands together), a hand larger than the rule set allows, a seat out
        of range, or a play to beat that is no play of the table.

    Read-only attributes: ``seats``; ``current`` (the seat to act, -1 once a seat has gone
    out); ``to_beat`` (the id of the play to beat, 0 when the seat to act leads) and
    ``to_beat_seat`` (who made it, -1); ``passes`` (since the last play of the trick);
    ``winner`` (the seat that went out, -1 while playing); ``bombs`` and ``rockets``
    (played ones that double the score: all of them with ``doubling_bombs="all"``).

    The state itself is the C struct ``PlayCore`` of ``ddz/_game.pxd``, which
    ``ddz.envs._vector`` steps without the GIL through the same functions.
    """

    def __cinit__(self, *args, **kwargs):
        core_init(&self.c)

    def __dealloc__(self):
        core_free(&self.c)

    def __init__(self, RuleTable table not None, hands, int to_move, int to_beat=0, int beat_seat=-1,
                 int passes=0, doubling_bombs="all"):
        cdef int s, r, n, total
        cdef int sums[NUM_RANKS]
        cdef uint8_t counts[MAX_SEATS * NUM_RANKS]
        table.built()
        self.c.v = NULL             # unusable until the checks below pass
        self.c.ncodes = -1
        self.c.nhist = 0
        hands = list(hands)
        n = len(hands)
        if n < 2 or n > MAX_SEATS:
            raise ValueError(f"a play-phase position has 2 to {MAX_SEATS} hands, got {n}")
        memset(sums, 0, sizeof(sums))
        memset(counts, 0, sizeof(counts))
        for s in range(n):
            h = hands[s]
            if isinstance(h, np.ndarray):
                if h.dtype.kind not in "iu":
                    raise ValueError(f"hand {s} is not 15 integer counts")
                h = h.reshape(-1).tolist()
            elif not isinstance(h, (tuple, list)):
                raise ValueError(f"hand {s} is not 15 counts")
            if len(h) != NUM_RANKS:
                raise ValueError(f"hand {s} is not 15 counts")
            total = 0
            for r in range(NUM_RANKS):
                c = h[r]
                if type(c) is not int:
                    if isinstance(c, bool) or not isinstance(c, (int, np.integer)):
                        raise ValueError(f"hand {s}: {c!r} is not a count")
                    c = int(c)
                if c < 0 or c > table.opts.limit[r]:
                    raise ValueError(f"hand {s}: count {c} of rank {r} is beyond the deck")
                counts[s * NUM_RANKS + r] = <uint8_t>c
                sums[r] += c
                total += c
            if total > table.opts.max_hand:
                raise ValueError(f"hand {s} holds {total} cards, more than {table.opts.max_hand}")
        for r in range(NUM_RANKS):
            if sums[r] > table.opts.limit[r]:
                raise ValueError(f"the hands together hold {sums[r]} cards of rank {r}, more than the deck")
        if not 0 <= to_move < n:
            raise ValueError(f"to_move {to_move} is not a seat of {n}")
        if doubling_bombs not in _BOMBS_RULES:
            raise ValueError(f"doubling_bombs must be one of {tuple(_BOMBS_RULES)}, got {doubling_bombs!r}")
        if to_beat:
            if not 0 < to_beat < table.view.n_ids or not table.allowed_code(table.view.codes[to_beat]):
                raise ValueError(f"to_beat {to_beat} is no play of the table")
            if not 0 <= beat_seat < n or beat_seat == to_move:
                raise ValueError(f"beat_seat {beat_seat} is not another seat of {n}")
            if not 0 <= passes <= n - 2:
                raise ValueError(f"passes {passes} is not 0..{n - 2}")
        self.table = table
        core_start(&self.c, &table.view, n, counts, to_move, _BOMBS_RULES[doubling_bombs])
        if to_beat:
            self.c.to_beat, self.c.to_beat_seat, self.c.passes = to_beat, beat_seat, passes

    cdef int ready(self) except -1:
        if self.c.v == NULL:
            raise ValueError("this PlayState was never built: make one with PlayState(table, hands, to_move)")
        return 0

    # -- the position --
    @property
    def seats(self):
        """How many seats (hands) the position has."""
        return self.c.seats

    @property
    def current(self):
        """The seat to act; -1 once a seat has gone out."""
        return self.c.current

    @property
    def to_beat(self):
        """The id of the play to beat (0: the seat to act leads)."""
        return self.c.to_beat

    @property
    def to_beat_seat(self):
        """The seat that made :attr:`to_beat` (-1: leading)."""
        return self.c.to_beat_seat

    @property
    def passes(self):
        """Passes since the last play of the trick."""
        return self.c.passes

    @property
    def bombs(self):
        """Played bombs that double the score (``doubling_bombs``)."""
        return self.c.bombs

    @property
    def rockets(self):
        """Played rockets that double the score (``doubling_bombs``)."""
        return self.c.rockets

    @property
    def winner(self):
        """The seat that went out; -1 while playing."""
        return self.c.winner

    @property
    def cards_left(self):
        """Cards left per seat (tuple of ints)."""
        return int_tuple(self.c.left, self.c.seats)

    @property
    def plays_made(self):
        """Plays (not passes) made per seat (tuple of ints)."""
        return int_tuple(self.c.nplays, self.c.seats)

    @property
    def doubling_bombs(self):
        """The ``doubling_bombs`` rule the counters follow."""
        return _BOMBS_NAMES[self.c.bombs_rule]

    def hand(self, int seat):
        """The 15 counts of ``seat`` (tuple of ints). :raises IndexError: not a seat."""
        self.ready()
        cdef int c[NUM_RANKS]
        cdef int r
        if not 0 <= seat < self.c.seats:
            raise IndexError(f"seat {seat} of {self.c.seats}")
        for r in range(NUM_RANKS):
            c[r] = self.c.hands[seat][r]
        return int_tuple(c, NUM_RANKS)

    def hand_array(self, int seat):
        """The 15 counts of ``seat`` as a new read-only ``uint8[15]`` array."""
        self.ready()
        if not 0 <= seat < self.c.seats:
            raise IndexError(f"seat {seat} of {self.c.seats}")
        cdef cnp.ndarray a = new_array(NUM_RANKS, cnp.NPY_UINT8)
        memcpy(cnp.PyArray_DATA(a), self.c.hands[seat], NUM_RANKS)
        a.setflags(write=False)
        return a

    def history(self, Py_ssize_t start=0):
        """The steps from number ``start`` on (all by default), in order, as a list of
        ``(seat, id)``."""
        if start < 0:
            start = 0
        return [(self.c.hist[i].seat, self.c.hist[i].id) for i in range(start, self.c.nhist)]

    def __len__(self):
        return self.c.nhist

    # -- legal moves --
    cdef Py_ssize_t fill(self) except -1:
        """Fill the cache with the legal codes of the position; their number."""
        cdef Py_ssize_t n = core_fill(&self.c)
        if n < 0:
            raise MemoryError()
        return n

    def legal_ids(self):
        """The legal plays of the seat to act as action ids: a new ``int32`` array in move
        order (ascending; the pass, id 0, first when responding); empty once over."""
        self.ready()
        cdef Py_ssize_t i, n = self.fill()
        cdef cnp.ndarray a = new_array(n, cnp.NPY_INT32)
        cdef int32_t* out = <int32_t*>cnp.PyArray_DATA(a)
        for i in range(n):
            out[i] = <int32_t>view_index(self.c.v, self.c.codes[i])
        return a

    def legal_plays(self):
        """The legal plays as a new list of the table's interned :class:`ddz.Play` objects."""
        self.ready()
        cdef Py_ssize_t n = self.fill()
        return self.table.plays_of(self.c.codes, n)

    def count(self):
        """How many legal moves the seat to act has (0 once over); nothing is listed."""
        self.ready()
        return core_count(&self.c)

    def legal(self, Py_ssize_t pid):
        """Whether id ``pid`` is a legal play of the seat to act (``False`` for ids out of
        range and once over): a fit check and one comparison, nothing generated."""
        self.ready()
        return core_is_legal(&self.c, pid)

    # -- stepping --
    def step(self, Py_ssize_t pid):
        """Play id ``pid`` if it is legal: ``True`` when played, ``False`` (and nothing
        changed) for an id out of range, a pass when leading, a play the seat does not
        hold, one that does not beat, a banned one, or any id once the hand is over."""
        self.ready()
        if not core_is_legal(&self.c, pid):
            return False
        if core_apply(&self.c, <int32_t>pid) < 0:
            raise MemoryError()
        return True

    def advance(self, Py_ssize_t pid):
        """:meth:`step` answering what the game loop needs next: the seat to act now
        (``>= 0``), ``-1`` when the play ended the hand (see :attr:`winner`), ``-2`` when
        ``pid`` was not legal (nothing changed)."""
        self.ready()
        if not core_is_legal(&self.c, pid):
            return -2
        if core_apply(&self.c, <int32_t>pid) < 0:
            raise MemoryError()
        return self.c.current

    def pop(self):
        """Undo the last step; returns its id, or -1 when there is nothing to undo."""
        self.ready()
        return core_pop(&self.c)

    # -- whole-tree counting (perft) --
    cdef long long perft_(self, int depth) except -1:
        cdef Py_ssize_t n, i
        cdef long long total = 0
        cdef int64_t* mine
        if self.c.current < 0:
            return 0
        if depth == 1:
            return core_count(&self.c)
        n = self.fill()
        mine = <int64_t*>malloc(n * sizeof(int64_t) + 1)
        if mine == NULL:
            raise MemoryError()
        memcpy(mine, self.c.codes, n * sizeof(int64_t))
        try:
            for i in range(n):
                if core_apply(&self.c, <int32_t>view_index(self.c.v, mine[i])) < 0:
                    raise MemoryError()
                total += self.perft_(depth - 1)
                core_pop(&self.c)
        finally:
            free(mine)
        return total

    def perft(self, int depth):
        """Leaves of the legal-move tree of ``depth`` plies (passes count) from here; the
        state is restored. ``depth`` 0 counts 1."""
        self.ready()
        if depth < 0:
            raise ValueError("depth must be >= 0")
        if depth == 0:
            return 1
        return self.perft_(depth)

    # -- copies --
    def copy(self):
        """An independent copy (history included)."""
        self.ready()
        cdef PlayState c = PlayState.__new__(PlayState)
        c.table = self.table
        memcpy(&c.c, &self.c, sizeof(PlayCore))
        c.c.hist = NULL
        c.c.codes = NULL
        c.c.hcap = c.c.cap = c.c.nhist = 0
        c.c.ncodes = -1
        if self.c.nhist:
            c.c.hist = <Entry*>malloc(self.c.nhist * sizeof(Entry))
            if c.c.hist == NULL:
                raise MemoryError()
            memcpy(c.c.hist, self.c.hist, self.c.nhist * sizeof(Entry))
            c.c.nhist = c.c.hcap = self.c.nhist
        return c

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        # rebuilt from the start of the recorded steps: the hands before them, replayed
        cdef PlayState c = self.copy()
        while c.c.nhist:
            core_pop(&c.c)
        start = (c.table.rules, [c.hand(s) for s in range(c.c.seats)], c.c.current, c.c.to_beat, c.c.to_beat_seat,
                 c.c.passes, c.c.bombs, c.c.rockets, c.plays_made, c.doubling_bombs)
        return (_rebuild, (start, [self.c.hist[i].id for i in range(self.c.nhist)]))

    def __repr__(self):
        return (f"<ddz.game._game.PlayState seats={self.c.seats} current={self.c.current} to_beat={self.c.to_beat} "
                f"cards_left={self.cards_left}>")


def _rebuild(start, ids):
    cdef PlayState s
    cdef int i
    from ddz.core.tables import table
    rules, hands, cur, beat, beat_seat, passes, nbombs, nrockets, nplays, bombs_rule = start
    s = PlayState(table(rules), hands, cur, beat, beat_seat, passes, bombs_rule)
    s.c.bombs, s.c.rockets = nbombs, nrockets
    for i in range(s.c.seats):
        s.c.nplays[i] = nplays[i]
    for pid in ids:
        if not s.step(pid):
            raise ValueError(f"a pickled PlayState replays an illegal id {pid}")
    return s


# -- the deal: Python's Mersenne Twister in C ---------------------------------------

cdef void mt_init_genrand(MTState* m, uint32_t s) noexcept nogil:
    cdef int i
    m.mt[0] = s
    for i in range(1, MT_N):
        m.mt[i] = <uint32_t>(1812433253u * (m.mt[i - 1] ^ (m.mt[i - 1] >> 30)) + <uint32_t>i)
    m.mti = m.gen = MT_N


cdef MTState MT_INIT          # init_genrand(19650218), where every init_by_array starts


cdef void mt_init_table() noexcept:
    mt_init_genrand(&MT_INIT, 19650218u)


mt_init_table()


cdef void mt_seed(MTState* m, const uint32_t* key, Py_ssize_t n) noexcept nogil:
    """``init_by_array``: the state ``random.Random(seed)`` has, for the 32-bit words
    ``key[0:n]`` of ``abs(seed)`` (least significant first). Its first step,
    ``init_genrand(19650218)``, is the same for every seed: copied from a table."""
    cdef Py_ssize_t i = 1, j = 0, k
    memcpy(m.mt, MT_INIT.mt, sizeof(m.mt))
    m.mti = m.gen = MT_N
    k = MT_N if MT_N > n else n
    while k:
        m.mt[i] = <uint32_t>((m.mt[i] ^ ((m.mt[i - 1] ^ (m.mt[i - 1] >> 30)) * 1664525u))
                             + key[j] + <uint32_t>j)
        i += 1
        j += 1
        if i >= MT_N:
            m.mt[0] = m.mt[MT_N - 1]
            i = 1
        if j >= n:
            j = 0
        k -= 1
    k = MT_N - 1
    while k:
        m.mt[i] = <uint32_t>((m.mt[i] ^ ((m.mt[i - 1] ^ (m.mt[i - 1] >> 30)) * 1566083941u))
                             - <uint32_t>i)
        i += 1
        if i >= MT_N:
            m.mt[0] = m.mt[MT_N - 1]
            i = 1
        k -= 1
    m.mt[0] = 0x80000000u


cdef inline void mt_twist(MTState* m, int kk) noexcept nogil:
    """Twist word ``kk`` of a new round (the words before it twisted already, those after
    it not): MT19937's generation, one word at a time, in order."""
    cdef uint32_t y = (m.mt[kk] & 0x80000000u) | (m.mt[kk + 1 if kk + 1 < MT_N else 0] & 0x7fffffffu)
    m.mt[kk] = m.mt[kk + MT_M if kk + MT_M < MT_N else kk + MT_M - MT_N] ^ (y >> 1) ^ (0x9908b0dfu if y & 1 else 0u)


cdef void mt_complete(MTState* m) noexcept nogil:
    """Twist the rest of the round now (for ``getstate``: the whole array, as CPython has it)."""
    while m.gen < MT_N:
        mt_twist(m, m.gen)
        m.gen += 1


cdef uint32_t mt_next(MTState* m) noexcept nogil:
    """``genrand_uint32``: the next 32 random bits. A new round's words are twisted as
    they are drawn, in order (the same words as twisting all 624 at once: word ``kk`` reads
    words ``kk + 1`` and ``kk + 397``, untwisted yet, or ``kk - 227``, twisted already), so
    a deal that draws 60 words does not pay for 624."""
    cdef uint32_t y
    if m.mti >= MT_N:
        m.mti = m.gen = 0
    if m.mti >= m.gen:
        mt_twist(m, m.mti)
        m.gen = m.mti + 1
    y = m.mt[m.mti]
    m.mti += 1
    y ^= (y >> 11)
    y ^= (y << 7) & 0x9d2c5680u
    y ^= (y << 15) & 0xefc60000u
    y ^= (y >> 18)
    return y


cdef void mt_seed_u64(MTState* m, uint64_t seed) noexcept nogil:
    """Seed ``m`` as ``random.Random(seed)`` seeds itself from an int below 2**64 (its
    32-bit words, least significant first)."""
    cdef uint32_t key[2]
    key[0] = <uint32_t>(seed & 0xFFFFFFFFu)
    key[1] = <uint32_t>(seed >> 32)
    mt_seed(m, key, 2 if key[1] else 1)


cdef uint32_t mt_below(MTState* m, uint32_t n) noexcept nogil:
    """``Random._randbelow(n)`` for ``1 <= n < 2**32``: rejection sampling on
    ``getrandbits(n.bit_length())``."""
    cdef int k = 0
    cdef uint32_t b = n, r
    while b:
        k += 1
        b >>= 1
    r = mt_next(m) >> (32 - k)
    while r >= n:
        r = mt_next(m) >> (32 - k)
    return r


cdef class Twister:
    """The random generator of the deal: ``random.Random``'s MT19937 in C, bit for bit.

    ``Twister(seed)`` holds the same state as ``random.Random(seed)`` for any int seed
    (CPython seeds with the 32-bit words of ``abs(seed)``); :meth:`randrange` and
    :meth:`deal` draw exactly what ``Random.randrange`` and ``Random.shuffle`` would, so
    ``ddz.Game(seed=...)`` deals the same cards with or without the core (the module
    docstring of :mod:`ddz.game` defines the deal through ``random.Random``).
    :meth:`getstate` / :meth:`setstate` use ``random.Random``'s state format.
    """


    def __init__(self, seed=0):
        cdef Py_ssize_t i, nkey
        cdef uint32_t* key
        if isinstance(seed, bool) or not hasattr(seed, "__index__"):
            raise TypeError(f"a Twister seed is an int, not {type(seed).__name__}")
        n = abs(operator.index(seed))
        words = []
        while True:
            words.append(n & 0xFFFFFFFF)
            n >>= 32
            if not n:
                break
        nkey = len(words)
        key = <uint32_t*>malloc(nkey * sizeof(uint32_t))
        if key == NULL:
            raise MemoryError()
        for i in range(nkey):
            key[i] = <uint32_t>words[i]
        mt_seed(&self.m, key, nkey)
        free(key)

    def randrange(self, Py_ssize_t n):
        """``Random.randrange(n)`` for ``1 <= n < 2**32``."""
        if not 0 < n < 4294967296:
            raise ValueError(f"randrange({n}): n must be 1 .. 2**32 - 1")
        return mt_below(&self.m, <uint32_t>n)

    def deal(self, ranks, sizes):
        """Shuffle positions ``0 .. len(ranks) - 1`` as ``Random.shuffle`` would and cut
        them into consecutive parts of ``sizes``.

        :param ranks: the rank (0..14) of each card of the deck, in deck order (bytes or a
            sequence of ints).
        :param sizes: the size of each part, summing to ``len(ranks)``.
        :returns: ``(positions, counts)``: per part, its deck positions in ascending order
            (a tuple of ints) and its 15 rank counts (a tuple of ints).
        """
        return _cut_deal(ranks, sizes, None, self)

    def getstate(self):
        """The state in ``random.Random.getstate()``'s format (``Random().setstate`` takes it)."""
        mt_complete(&self.m)
        return (3, tuple([self.m.mt[i] for i in range(MT_N)]) + (self.m.mti,), None)

    def setstate(self, state):
        """Take a state of :meth:`getstate` or ``random.Random.getstate()``.
        :raises ValueError: not such a state."""
        cdef int i
        try:
            version, internal, gauss = state
            words = [int(w) for w in internal]
        except (TypeError, ValueError):
            raise ValueError("not a random.Random state") from None
        if version != 3 or len(words) != MT_N + 1 or not 0 <= words[MT_N] <= MT_N \
                or any(not 0 <= w < 4294967296 for w in words):
            raise ValueError("not a random.Random state of version 3")
        for i in range(MT_N):
            self.m.mt[i] = <uint32_t>words[i]
        self.m.mti = words[MT_N]
        self.m.gen = MT_N              # the array is this round's, whole

    def __reduce__(self):
        from ddz.game.deal import restored_rng      # portable: pure Python unpickles it too
        return (restored_rng, ("legacy", self.getstate()))


def _twister(state):
    t = Twister()
    t.setstate(state)
    return t


# -- the deal stream: SplitMix64 keyed by the seed (ddz.game.deal) ---------------------

cdef uint64_t mix64(uint64_t z) noexcept nogil:
    """SplitMix64's output function (Steele, Lea and Flood, 2014)."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t dr_word(uint64_t seed, uint64_t k) noexcept nogil:
    """Word ``k`` of the stream of ``seed``: ``mix64(seed + (k + 1) * 0x9E3779B97F4A7C15)``
    (mod 2**64), SplitMix64 started at the seed, a function of (seed, k) alone."""
    return mix64(seed + (k + 1) * <uint64_t>0x9E3779B97F4A7C15ULL)


cdef inline uint64_t dr_draw(DealRng* r) noexcept nogil:
    """The next 32-bit draw ``i = r.drawn``: the high half of word ``i // 2`` when ``i`` is
    even (the word kept in ``r.word``), its low half when odd."""
    r.drawn += 1
    if r.drawn & 1:
        r.word = dr_word(r.seed, (r.drawn - 1) >> 1)
        return r.word >> 32
    return r.word & 0xFFFFFFFFu


cdef void dr_set(DealRng* r, uint64_t seed, uint64_t drawn) noexcept nogil:
    """The stream of ``seed`` after ``drawn`` draws (the half-used word kept when odd)."""
    r.seed = seed
    r.drawn = drawn
    r.word = dr_word(seed, (drawn - 1) >> 1) if drawn & 1 else 0


cdef uint32_t dr_below(DealRng* r, uint32_t n) noexcept nogil:
    """Uniform in ``0 .. n - 1`` (``1 <= n < 2**32``): :func:`below_inline`."""
    return below_inline(r, n)


cdef inline uint32_t below_inline(DealRng* r, uint32_t n) noexcept nogil:
    """Uniform in ``0 .. n - 1`` (``1 <= n < 2**32``): Lemire's multiply-and-shift on the
    next draw ``x``, ``m = x * n``, drawn again while the low half of ``m`` is below
    ``2**32 mod n`` (so exactly uniform; with n <= 108 that is once in 40 million). Inline:
    the shuffle draws 53 or 107 of them in a row."""
    cdef uint64_t m = dr_draw(r) * <uint64_t>n
    cdef uint32_t t
    if <uint32_t>m < n:
        t = <uint32_t>(-n) % n
        while <uint32_t>m < t:
            m = dr_draw(r) * <uint64_t>n
    return <uint32_t>(m >> 32)


ctypedef fused deal_gen:       # the deal's generators: the stream, random.Random's for old records
    DealRng
    MTState


cdef void shuffle_positions(deal_gen* g, int* order, Py_ssize_t n) noexcept nogil:
    """``order[0:n]`` = ``0 .. n - 1`` shuffled by Fisher and Yates: for ``i`` from ``n - 1``
    down to 1, swap ``order[i]`` with ``order[below(i + 1)]``, ``below`` the generator's
    (``random.shuffle``'s order; with a Twister, ``random.Random.shuffle`` itself)."""
    cdef Py_ssize_t i, j
    cdef int t
    for i in range(n):
        order[i] = <int>i
    i = n - 1
    while i >= 1:
        if deal_gen is DealRng:
            j = below_inline(g, <uint32_t>(i + 1))
        else:
            j = mt_below(g, <uint32_t>(i + 1))
        t = order[i]
        order[i] = order[j]
        order[j] = t
        i -= 1


cdef int64_t vector_hand_seed(uint64_t seed, uint64_t j) noexcept nogil:
    """The seed of hand ``j`` of ``VectorGame(n, rules, seed)``:
    ``mix64(seed + (j + 1) * 0xD1B54A32D192ED03) >> 1`` (0 .. 2**63 - 1)."""
    return <int64_t>(mix64(seed + (j + 1) * <uint64_t>0xD1B54A32D192ED03ULL) >> 1)


cdef class DealStream:
    """The deal's generator (``ddz.game.deal``): SplitMix64 keyed by the seed, in C; the
    pure twin is ``ddz.game.deal.PyDealStream``, number for number.

    ``DealStream(seed)`` for ``0 <= seed < 2**64``; :meth:`randrange` and :meth:`deal`
    draw as the module docstring of :mod:`ddz.game.deal` says; :meth:`getstate` is
    ``("splitmix64", seed, 32-bit draws so far)`` and :meth:`setstate` takes it back.
    """

    def __init__(self, seed=0):
        if isinstance(seed, bool) or not hasattr(seed, "__index__"):
            raise TypeError(f"a DealStream seed is an int, not {type(seed).__name__}")
        seed = operator.index(seed)
        if not 0 <= seed < 2 ** 64:
            raise ValueError(f"a DealStream seed is 0 .. 2**64 - 1, not {seed}")
        dr_set(&self.r, <uint64_t>seed, 0)

    def randrange(self, Py_ssize_t n):
        """Uniform in ``0 .. n - 1`` for ``1 <= n < 2**32`` (the module's ``below``)."""
        if not 0 < n < 4294967296:
            raise ValueError(f"randrange({n}): n must be 1 .. 2**32 - 1")
        return dr_below(&self.r, <uint32_t>n)

    def deal(self, ranks, sizes):
        """Shuffle positions ``0 .. len(ranks) - 1`` and cut them into consecutive parts of
        ``sizes``: as :meth:`Twister.deal`, with this stream's shuffle.

        :returns: ``(positions, counts)``: per part, its deck positions ascending (a tuple
            of ints) and its 15 rank counts (a tuple of ints).
        """
        return _cut_deal(ranks, sizes, self, None)

    def getstate(self):
        """``("splitmix64", seed, 32-bit draws so far)``."""
        return ("splitmix64", self.r.seed, self.r.drawn)

    def setstate(self, state):
        """Take a state of :meth:`getstate`. :raises ValueError: not such a state."""
        try:
            kind, seed, drawn = state
        except (TypeError, ValueError):
            raise ValueError("not a DealStream state") from None
        if kind != "splitmix64" or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2 ** 64
                                           for v in (seed, drawn)):
            raise ValueError("not a DealStream state")
        dr_set(&self.r, <uint64_t>seed, <uint64_t>drawn)

    def __reduce__(self):
        from ddz.game.deal import restored_rng      # portable: pure Python unpickles it too
        return (restored_rng, ("stream", self.getstate()))


cdef object _cut_deal(ranks, sizes, DealStream ds, Twister tw):
    """Shuffle with ``ds`` or ``tw`` and cut (``DealStream.deal``, ``Twister.deal``)."""
    cdef Py_ssize_t n = len(ranks), i, lo, hi, p
    cdef int* order
    cdef bytes rk = bytes(ranks)
    cdef const unsigned char* r = rk
    cdef int cnt[NUM_RANKS]
    cdef char* seen
    if sum(sizes) != n or n < 1:
        raise ValueError("the parts must add up to the deck")
    order = <int*>malloc(n * sizeof(int))
    seen = <char*>malloc(n)
    if order == NULL or seen == NULL:
        free(order)
        free(seen)
        raise MemoryError()
    try:
        for i in range(n):
            if r[i] >= NUM_RANKS:
                raise ValueError(f"rank {r[i]} at deck position {i}")
        if ds is not None:
            shuffle_positions(&ds.r, order, n)
        else:
            shuffle_positions(&tw.m, order, n)
        positions, counts = [], []
        lo = 0
        for size in sizes:
            hi = lo + size
            memset(seen, 0, n)
            memset(cnt, 0, sizeof(cnt))
            for i in range(lo, hi):
                seen[order[i]] = 1
                cnt[r[order[i]]] += 1
            positions.append(tuple([p for p in range(n) if seen[p]]))
            counts.append(tuple([cnt[i] for i in range(NUM_RANKS)]))
            lo = hi
    finally:
        free(order)
        free(seen)
    return positions, counts


# -- the hand around the play phase (RULES.md §3, §4, §6, §7) ---------------------------
#
# One hand in C: the deal, the auction, doubling, open play, redeals and the score, around
# a PlayCore. The vectorised game (ddz.envs._vector) holds an array of Hand structs and
# steps them by env action id (ddz.envs.core's table); ddz.Game wraps one as a ``CHand``
# (below) for everything before and after its play phase. The pure-Python twin is
# ddz.game.hand.PyHand (ddz.game.auction, ddz.game.deal), the oracle of the lockstep test.

cdef inline uint64_t spread8(uint64_t x) noexcept nogil:
    """Eight 4-bit fields (bits ``0..31``) as eight bytes, field ``i`` in byte ``i``."""
    x = (x | (x << 16)) & 0x0000FFFF0000FFFFULL
    x = (x | (x << 8)) & 0x00FF00FF00FF00FFULL
    return (x | (x << 4)) & 0x0F0F0F0F0F0F0F0FULL


cdef inline void counts_of_bits(uint64_t m, uint8_t* out) noexcept nogil:
    """``out[0:15]`` = the rank counts of the card bits ``m`` (rank ``r``'s cards in bits
    ``4r..4r+3``, :c:member:`HandConf.bitpos`): the bits of each 4-bit field counted in
    place, the fields spread to bytes, two little-endian stores into a 16-byte buffer."""
    cdef uint8_t buf[16]
    m = m - ((m >> 1) & 0x5555555555555555ULL)
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL)
    ddz_store_le64(buf, spread8(m & 0xFFFFFFFFULL))
    ddz_store_le64(buf + 8, spread8(m >> 32))
    memcpy(out, buf, NUM_RANKS)


cdef void deal_bits(DealRng* r, const HandConf* c, int* order, uint64_t* parts) noexcept nogil:
    """:func:`shuffle_positions` of ``c.ndeck`` positions by the stream ``r`` (the same
    draws, the same ``order``), each part's card bits gathered as its positions become
    final (position ``i`` is, once step ``i`` of Fisher and Yates is done): ``parts[s]``
    for seat ``s``'s ``c.hand_size`` positions, ``parts[c.seats]`` for the bottom's. One
    OR into a register per card instead of a count's load and store in memory."""
    cdef int i, j, t, lo, p, n = c.ndeck
    cdef uint64_t m
    for i in range(n):
        order[i] = i
    i = n - 1
    p = c.seats
    while p >= 0:
        lo = p * c.hand_size
        m = 0
        while i >= lo and i >= 1:
            j = below_inline(r, <uint32_t>(i + 1))
            t = order[j]
            order[j] = order[i]
            order[i] = t
            m |= <uint64_t>1 << c.bitpos[t]
            i -= 1
        if lo == 0:
            m |= <uint64_t>1 << c.bitpos[order[0]]
        parts[p] = m
        p -= 1


cdef void hand_deal(Hand* g, const HandConf* c) noexcept nogil:
    """Shuffle the deck positions with the hand's deal stream and cut them in seat order
    (``ddz.game.deal.shuffled_deal``): by card bits (:func:`deal_bits`) with one deck."""
    cdef int order[MAX_DECK]
    cdef uint64_t parts[MAX_SEATS + 1]
    cdef int i, s, n = c.ndeck
    memset(g.hands, 0, sizeof(g.hands))
    memset(g.bottom, 0, sizeof(g.bottom))
    if c.bitdeal:
        deal_bits(&g.rng, c, order, parts)
        for s in range(c.seats):
            counts_of_bits(parts[s], g.hands[s])
            g.left[s] = c.hand_size
        counts_of_bits(parts[c.seats], g.bottom)
    else:
        shuffle_positions(&g.rng, order, n)
        for s in range(c.seats):
            for i in range(s * c.hand_size, (s + 1) * c.hand_size):
                g.hands[s][c.ranks[order[i]]] += 1
            g.left[s] = c.hand_size
        for i in range(c.seats * c.hand_size, n):
            g.bottom[c.ranks[order[i]]] += 1
    g.flush = 1
    for i in range(c.seats * c.hand_size, n):
        if c.suits[order[i]] != c.suits[order[c.seats * c.hand_size]] or c.suits[order[i]] == 4:
            g.flush = 0


cdef uint8_t hand_must_bid(const uint8_t* hand) noexcept nogil:
    """The four-player forced bid (RULES.md §7, ``ddz.game.auction.must_bid``): all four
    jokers, or three ranks with four or more cards."""
    cdef int r, bombs = 0
    if hand[13] == 2 and hand[14] == 2:
        return 1
    for r in range(13):
        bombs += hand[r] >= 4
    return bombs >= 3


cdef int hand_bonus_factor(const uint8_t* b, bint flush) noexcept nogil:
    """The bottom bonus of three bottom cards (RULES.md §6, ``ddz.game.deal.bottom_bonus_factor``):
    4 a trio or a straight flush; 3 both jokers or three consecutive ranks within 3..A; 2 a
    pair, one suit or the big joker; else 1."""
    cdef int r, lo = -1, most = 0
    cdef bint consecutive
    for r in range(NUM_RANKS):
        if b[r] > most:
            most = b[r]
        if b[r] and lo < 0:
            lo = r
    consecutive = most == 1 and lo + 2 < 12 and b[lo + 1] == 1 and b[lo + 2] == 1
    if most == 3 or (consecutive and flush):
        return 4
    if (b[13] and b[14]) or consecutive:
        return 3
    if most == 2 or flush or b[14]:
        return 2
    return 1


cdef void hand_start_deal(Hand* g, const HandConf* c) noexcept nogil:
    """A deal's auction begins (``Game._start_deal``)."""
    cdef int s
    g.phase = PH_BIDDING
    g.in_play = 0
    g.current = g.first
    g.landlord = -1
    g.bonus = 1
    g.open = -1
    g.bid = g.robs = g.spoken = g.final = g.passes = g.ndoubles = 0
    g.bidder = g.caller = -1
    for s in range(MAX_SEATS):
        g.word[s] = 0
        g.doubles[s] = -1
        g.forced[s] = c.four and s < c.seats and hand_must_bid(g.hands[s])


cdef void hand_new_hand(Hand* g, const HandConf* c, int64_t seed) noexcept nogil:
    """``ddz.Game(rules, seed=seed)``: seed the generator, deal, draw the first bidder."""
    cdef int k, r, n
    g.seed = seed
    g.dealer = 1
    dr_set(&g.rng, <uint64_t>seed, 0)
    hand_deal(g, c)
    g.face_seat = -1
    if c.face_up:
        # RULES.md §3: the k % hand_size-th card (in card order) of seat k // hand_size
        # is turned face up (``ddz.game.deal``); that seat bids first
        k = <int>dr_below(&g.rng, <uint32_t>(c.seats * c.hand_size))
        g.face_seat = g.first = k // c.hand_size
        n = k % c.hand_size
        r = 0
        while n >= g.hands[g.face_seat][r]:
            n -= g.hands[g.face_seat][r]
            r += 1
        g.face_rank = r
    else:
        g.first = <int>dr_below(&g.rng, <uint32_t>c.seats)
    g.ndeals = 1
    hand_start_deal(g, c)


cdef int hand_next_seat(int s, const HandConf* c) noexcept nogil:
    return s + 1 if s + 1 < c.seats else 0


cdef void hand_start_play(Hand* g, const HandConf* c) noexcept nogil:
    g.phase = PH_PLAYING
    g.in_play = 1
    g.current = g.landlord
    core_start(&g.pc, c.v, c.seats, &g.hands[0][0], g.landlord, c.bombs_rule)


cdef void hand_set_landlord(Hand* g, const HandConf* c, int seat) noexcept nogil:
    cdef int r
    g.landlord = seat
    for r in range(NUM_RANKS):
        g.hands[seat][r] += g.bottom[r]
    g.left[seat] += c.bottom_size
    if c.bonus:
        g.bonus = hand_bonus_factor(g.bottom, g.flush)
    if c.doubling:
        g.phase = PH_DOUBLING
        g.current = hand_next_seat(seat, c)
    elif c.four:
        g.phase = PH_OPENING            # RULES.md §7: the landlord may play open first
        g.current = seat
    else:
        hand_start_play(g, c)


cdef int hand_all_passed(Hand* g, const HandConf* c) noexcept nogil:
    """Everybody passed (RULES.md §3, ``Rules.all_pass``, ``max_redeals``): ``HAND_VOID``
    when the hand ends void; else a redeal: from the hand's generator (0), or, without
    one, ``HAND_DEAL``: the caller deals and calls :func:`hand_redealt`."""
    if c.all_void or g.ndeals > c.max_redeals:
        g.phase = PH_OVER
        g.current = -1
        return HAND_VOID
    if not g.dealer:
        return HAND_DEAL
    hand_deal(g, c)
    hand_redealt(g, c)
    return 0


cdef void hand_redealt(Hand* g, const HandConf* c) noexcept nogil:
    """The next deal of the hand is in ``g.hands``, ``g.bottom``, ``g.flush``: its auction
    begins with the same first bidder (RULES.md §3)."""
    g.ndeals += 1
    hand_start_deal(g, c)


cdef int hand_bid_step(Hand* g, const HandConf* c, int value) noexcept nogil:
    """One word of the auction (``ddz.game.auction``): 0, or :func:`hand_all_passed`'s
    ``HAND_VOID`` or ``HAND_DEAL``."""
    cdef int seat = g.current
    g.word[seat] = <int8_t>(1 + value)
    if c.auction == AU_ONCE:
        g.spoken += 1
        if value:
            g.bid, g.bidder = value, seat
        if value == 3 or g.spoken == c.seats:
            if g.bidder < 0:
                return hand_all_passed(g, c)
            hand_set_landlord(g, c, g.bidder)
            return 0
    elif c.auction == AU_UNTIL:
        if value:
            g.bid, g.bidder, g.passes = value, seat, 0
            if value == 3:
                hand_set_landlord(g, c, seat)
                return 0
        elif g.bidder < 0:
            g.spoken += 1
            if g.spoken == c.seats:
                return hand_all_passed(g, c)
        else:
            g.passes += 1
            if g.passes == c.seats - 1:
                hand_set_landlord(g, c, g.bidder)
                return 0
    else:
        if g.final:
            if value:
                g.robs += 1
                g.bidder = seat
            hand_set_landlord(g, c, g.bidder)
            return 0
        g.spoken += 1
        if value:
            if g.caller < 0:
                g.caller = g.bidder = seat
                g.bid = 1
            else:
                g.robs += 1
                g.bidder = seat
        if g.spoken < c.seats:
            pass
        elif g.caller < 0:
            return hand_all_passed(g, c)
        elif g.robs:
            g.final = 1
            g.current = g.caller
            return 0
        else:
            hand_set_landlord(g, c, g.bidder)
            return 0
    g.current = hand_next_seat(seat, c)
    return 0


cdef void hand_double_step(Hand* g, const HandConf* c, int value) noexcept nogil:
    """A double (RULES.md §4, ``Game._apply_double``)."""
    cdef int seat = g.current, lord = g.landlord, s, anyone = 0
    g.doubles[seat] = <int8_t>value
    g.ndoubles += value
    for s in range(c.seats):
        anyone |= g.doubles[s] == 1
    if seat == hand_next_seat(lord, c):
        g.current = hand_next_seat(hand_next_seat(lord, c), c)
    elif seat != lord and anyone:
        g.current = lord
    else:
        hand_start_play(g, c)


cdef int hand_factor(const Hand* g) noexcept nogil:
    """The factors that are not powers of 2: the bottom bonus and open play (×3)."""
    return g.bonus * 3 if g.open == 1 else g.bonus


cdef void hand_score(Hand* g, const HandConf* c, const PlayCore* pc) noexcept nogil:
    """Score the hand that ``pc.winner`` won (RULES.md §6, §7; ``ddz.game.results``):
    spring, anti-spring, the multiplier (robs, doubles, bombs and rockets that count, the
    bottom bonus, open play) and the zero-sum scores, ±(seats - 1)·S for the landlord."""
    cdef int s, lord = g.landlord, n, sign
    cdef bint lord_wins = pc.winner == lord
    cdef int64_t sc
    g.spring = g.anti = 0
    if lord_wins:
        g.spring = 1
        for s in range(c.seats):
            if s != lord and pc.nplays[s]:
                g.spring = 0
    else:
        g.anti = pc.nplays[lord] == 1
    n = pc.bombs + pc.rockets + g.spring + g.anti + g.ndoubles + g.robs
    g.multiplier = (<int64_t>hand_factor(g)) << n
    sc = g.bid * g.multiplier
    sign = 1 if lord_wins else -1
    for s in range(c.seats):
        g.scores[s] = -sign * sc
    g.scores[lord] = (c.seats - 1) * sign * sc
    g.phase = PH_OVER
    g.current = -1


cdef Py_ssize_t hand_count_ids(Hand* g, const HandConf* c) noexcept nogil:
    """How many legal env ids the seat to act has (the play phase: cached codes); -1 when
    out of memory."""
    if g.phase == PH_PLAYING:
        return core_fill(&g.pc)
    if g.phase == PH_BIDDING:
        return 2 if c.auction == AU_ROB else 4 - g.bid - hand_forced(g)
    return 2


cdef int hand_forced(const Hand* g) noexcept nogil:
    """1 when the seat to bid may not pass (the four-player forced bid, RULES.md §7)."""
    return g.forced[g.current] if g.bid == 0 else 0


cdef void hand_write_ids(Hand* g, const HandConf* c, int32_t* out) noexcept nogil:
    """The legal env ids, ascending, after :func:`hand_count_ids`."""
    cdef Py_ssize_t k
    cdef int b
    if g.phase == PH_PLAYING:
        for k in range(g.pc.ncodes):
            out[k] = <int32_t>view_index(c.v, g.pc.codes[k])
        return
    out[0] = 0
    if g.phase == PH_BIDDING:
        if c.auction == AU_ROB:
            out[1] = c.P + 3
        else:
            k = 1 - hand_forced(g)
            for b in range(g.bid + 1, 4):
                out[b - g.bid - 1 + k] = c.P + b - 1
    elif g.phase == PH_OPENING:
        out[1] = c.P + 5
    else:
        out[1] = c.P + 4


cdef bint hand_is_legal(Hand* g, const HandConf* c, int32_t a) noexcept nogil:
    if g.phase == PH_PLAYING:
        return a < c.P and core_is_legal(&g.pc, a)
    if a == 0:
        return not (g.phase == PH_BIDDING and hand_forced(g))
    if g.phase == PH_BIDDING:
        if c.auction == AU_ROB:
            return a == c.P + 3
        return c.P + g.bid <= a < c.P + 3
    if g.phase == PH_OPENING:
        return a == c.P + 5
    return a == c.P + 4


cdef int hand_apply(Hand* g, const HandConf* c, int32_t a) noexcept nogil:
    """Take the legal env id ``a`` (trusted): ``HAND_OVER`` when the hand ended scored
    (``g.scores``), ``HAND_VOID`` when it ended void, ``HAND_DEAL`` when the caller must
    deal again (a hand without a generator), 0 otherwise, -1 when out of memory."""
    if g.phase == PH_PLAYING:
        if core_apply(&g.pc, a) < 0:
            return -1
        if g.pc.current >= 0:
            g.current = g.pc.current
            return 0
        hand_score(g, c, &g.pc)
        return HAND_OVER
    if g.phase == PH_BIDDING:
        return hand_bid_step(g, c, 0 if a == 0 else (1 if c.auction == AU_ROB else a - c.P + 1))
    if g.phase == PH_OPENING:
        g.open = a != 0                 # RULES.md §7: open play, ×3
        hand_start_play(g, c)
        return 0
    hand_double_step(g, c, a != 0)
    return 0


cdef int hand_conf_from(HandConf* c, RuleTable table, dict settings, bytes ranks, bytes suits) except -1:
    """Fill ``c`` from ``settings`` (``ddz.game.hand.hand_settings``: ints), checked enough
    that no setting can make the C hand read or write out of bounds.

    :raises ValueError: a setting out of range, ``plays``/``decks`` not the table's, or
        ``ranks``/``suits`` not one entry 0..14 / 0..4 per card of the deal."""
    cdef Py_ssize_t i
    want = dict(seats=(3, 4), hand_size=(1, 33), bottom_size=(0, 8), auction=(0, 2), doubling=(0, 1),
                all_void=(0, 1), max_redeals=(0, 2 ** 30), bombs_rule=(0, 2), plays=(1, 2 ** 30), decks=(1, 2),
                four=(0, 1), bonus=(0, 1), face_up=(0, 1))
    for key, (lo, hi) in want.items():
        x = settings.get(key)
        if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
            raise ValueError(f"setting {key!r} must be an int {lo}..{hi}, got {x!r}")
    if settings["plays"] != table.view.n_ids or settings["decks"] != table.opts.decks:
        raise ValueError("settings 'plays' and 'decks' must be those of the table")
    S = settings["seats"]
    if len(ranks) != S * settings["hand_size"] + settings["bottom_size"] or len(ranks) > MAX_DECK \
            or max(ranks) >= NUM_RANKS:
        raise ValueError("ranks must give a rank 0..14 to each card dealt")
    if len(suits) != len(ranks) or max(suits) > 4:
        raise ValueError("suits must give a suit 0..4 (4: a joker) to each card dealt")
    if settings["bonus"] and settings["bottom_size"] != 3:
        raise ValueError("the bottom bonus judges 3 bottom cards")
    c.v = &table.view
    c.seats = S
    c.hand_size = settings["hand_size"]
    c.bottom_size = settings["bottom_size"]
    c.auction = settings["auction"]
    c.doubling = settings["doubling"]
    c.all_void = settings["all_void"]
    c.max_redeals = settings["max_redeals"]
    c.bombs_rule = settings["bombs_rule"]
    c.four = settings["four"]
    c.bonus = settings["bonus"]
    c.face_up = settings["face_up"]
    c.P = settings["plays"]
    c.ndeck = len(ranks)
    for i in range(c.ndeck):
        c.ranks[i] = ranks[i]
        c.suits[i] = suits[i]
    copies = [0] * NUM_RANKS
    for i in range(c.ndeck):
        c.bitpos[i] = 4 * ranks[i] + copies[ranks[i]]
        copies[ranks[i]] += 1
    c.bitdeal = c.ndeck <= 64 and max(copies) <= 4
    return 0


@cython.final
cdef class HandRules:
    """The C hand's settings of one rule set (a ``HandConf``), shared by every
    :class:`CHand` and vectorised game of it; ``ddz.game.hand.hand_rules`` builds and
    caches them. Arguments as :func:`hand_conf_from`'s."""

    def __cinit__(self, *args, **kwargs):
        self.c.v = NULL

    def __init__(self, RuleTable table not None, dict settings, bytes ranks, bytes suits):
        table.built()
        self.table = table
        hand_conf_from(&self.c, table, settings, ranks, suits)

    cdef int ready(self) except -1:
        if self.c.v == NULL:
            raise ValueError("this HandRules was never initialised")
        return 0


cdef inline object tri(int8_t x):
    return None if x < 0 else x == 1


@cython.final
cdef class CHand:
    """One hand around its play phase in C (RULES.md §3, §4, §6, §7): what
    :class:`ddz.Game` steps for its auction, doubling, open play and score (its play phase
    is a :class:`PlayState`). The caller deals (``deal``): this hand has no generator, and
    a step after which everybody passed returns ``HAND_DEAL`` (3) unless the hand ended
    void (``HAND_VOID``, 2). The pure-Python twin is ``ddz.game.hand.PyHand``.

    :param rules: the :class:`HandRules`. :param first: the first bidder (a seat)."""

    def __cinit__(self, *args, **kwargs):
        core_init(&self.h.pc)
        self.h.dealer = 0

    def __dealloc__(self):
        core_free(&self.h.pc)

    def __init__(self, HandRules rules not None, int first):
        rules.ready()
        if not 0 <= first < rules.c.seats:
            raise ValueError(f"first must be a seat, got {first}")
        self.rules = rules
        self.h.first = first
        self.h.face_seat = -1
        self.h.ndeals = 0
        self.h.phase = PH_OVER

    def deal(self, hands, bottom, bint flush):
        """The next deal of the hand (the first, or a redeal after ``HAND_DEAL``):
        ``hands`` one 15-count sequence per seat, ``bottom`` 15 counts (checked against the
        deck), ``flush`` whether the bottom cards are of one suit (no joker); its auction
        begins with the first bidder."""
        cdef const HandConf* c = &self.rules.c
        cdef int s, r, x
        cdef const uint8_t* limit = c.v.opts.limit
        if len(hands) != c.seats or len(bottom) != NUM_RANKS:
            raise ValueError(f"a deal is {c.seats} hands and the bottom, 15 counts each")
        for s in range(c.seats):
            row = hands[s]
            if len(row) != NUM_RANKS:
                raise ValueError("a hand is 15 counts")
            for r in range(NUM_RANKS):
                x = row[r]
                if not 0 <= x <= limit[r]:
                    raise ValueError("a count beyond the deck")
                self.h.hands[s][r] = <uint8_t>x
            self.h.left[s] = sum(row)
        for r in range(NUM_RANKS):
            x = bottom[r]
            if not 0 <= x <= limit[r]:
                raise ValueError("a count beyond the deck")
            self.h.bottom[r] = <uint8_t>x
        self.h.flush = flush
        hand_redealt(&self.h, c)

    cdef int32_t env_id(self, int value) except -2:
        """The env id of a word of this phase (``ddz.envs.core``'s table)."""
        cdef const HandConf* c = &self.rules.c
        if self.h.phase == PH_BIDDING:
            if value == 0:
                return 0
            return c.P + 3 if c.auction == AU_ROB else c.P + value - 1
        if self.h.phase == PH_DOUBLING:
            return c.P + 4 if value else 0
        if self.h.phase == PH_OPENING:
            return c.P + 5 if value else 0
        raise ValueError(f"no word in phase {self.h.phase}")

    def legal_values(self):
        """The legal words of the seat to act: bids ``[0, 1, 2, 3]`` (0 the pass; without it
        for a forced bid, §7; with ``bidding="rob"`` 1 is call/rob), or ``[0, 1]`` (no, yes)
        to double or to play open."""
        cdef int32_t ids[8]
        cdef Py_ssize_t n, k
        cdef int32_t P = self.rules.c.P
        if self.h.phase == PH_PLAYING or self.h.phase == PH_OVER:
            raise ValueError("legal_values: not in the auction, doubling or opening")
        n = hand_count_ids(&self.h, &self.rules.c)
        hand_write_ids(&self.h, &self.rules.c, ids)
        out = []
        for k in range(n):
            out.append(0 if ids[k] == 0 else (1 if ids[k] >= P + 3 else ids[k] - P + 1))
        return out

    def step(self, int value):
        """Take the legal word ``value`` (as :meth:`legal_values`): 0, ``HAND_VOID`` or
        ``HAND_DEAL``. :raises ValueError: not legal here (nothing changes)."""
        cdef int32_t a = self.env_id(value)
        if not hand_is_legal(&self.h, &self.rules.c, a):
            raise ValueError(f"the word {value} is not legal here")
        return hand_apply(&self.h, &self.rules.c, a)

    def finish(self, PlayState ps not None):
        """Score the hand after its play phase ``ps`` ended (RULES.md §6): ``(spring,
        anti_spring, multiplier, score, scores)``."""
        if not (self.h.phase == PH_PLAYING or self.h.phase == PH_OVER) or ps.c.winner < 0 or self.h.landlord < 0:
            raise ValueError("finish: the play phase has not ended")
        hand_score(&self.h, &self.rules.c, &ps.c)
        return (bool(self.h.spring), bool(self.h.anti), self.h.multiplier, self.h.bid * self.h.multiplier,
                tuple([self.h.scores[s] for s in range(self.rules.c.seats)]))

    def multiplier(self, int played):
        """The multiplier so far with ``played`` bombs and rockets that count (RULES.md §6):
        the bottom bonus, open play, robs, doubles."""
        return (<int64_t>hand_factor(&self.h)) << (self.h.robs + self.h.ndoubles + played)

    def hand(self, int seat):
        """The cards of ``seat`` before the play phase (with the bottom once landlord)."""
        return tuple([self.h.hands[seat][r] for r in range(NUM_RANKS)])

    @property
    def phase(self):
        return self.h.phase

    @property
    def current(self):
        return self.h.current

    @property
    def landlord(self):
        return None if self.h.landlord < 0 else self.h.landlord

    @property
    def bid(self):
        return self.h.bid

    @property
    def robs(self):
        return self.h.robs

    @property
    def bonus(self):
        return self.h.bonus

    @property
    def open_play(self):
        return tri(self.h.open)

    @property
    def ndoubles(self):
        return self.h.ndoubles

    @property
    def doubles(self):
        return [tri(self.h.doubles[s]) for s in range(self.rules.c.seats)]

    @property
    def left(self):
        return [self.h.left[s] for s in range(self.rules.c.seats)]

    @property
    def deals(self):
        return self.h.ndeals

    def copy(self):
        """An independent copy (the play core it does not use is not copied)."""
        cdef CHand o = CHand.__new__(CHand)
        cdef PlayCore keep = o.h.pc
        memcpy(&o.h, &self.h, sizeof(Hand))
        o.h.pc = keep
        o.rules = self.rules
        return o

    def state(self):
        """The hand's state as bytes (for pickling: :meth:`restore` takes it back)."""
        cdef Hand h = self.h
        core_init(&h.pc)
        return (<char*>&h)[:sizeof(Hand)]

    def restore(self, bytes state):
        """Take back a :meth:`state` of a hand of the same rules (checked for size)."""
        cdef PlayCore keep = self.h.pc
        if len(state) != sizeof(Hand):
            raise ValueError("not a CHand state")
        memcpy(&self.h, <const char*>state, sizeof(Hand))
        self.h.pc = keep
        self.h.dealer = 0
