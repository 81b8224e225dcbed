# cython: language_level=3
"""The play phase stepped in C (RULES.md §5, §6): one implementation of the rules of play.

A :class:`PlayState` holds a play-phase position of any number of seats (2..4): every
hand as 15 counts, the play to beat as an action id of the rule set's table (0 when the
seat to act leads), who made it, the passes since, and the counters the score needs
(plays per seat, bombs, rockets). Plays are action ids of the table (``ddz.tables``), so
stepping is a few array reads: legality of one id is a fit check and one ``beats_opts``,
the legal ids of a position are one kernel call, cached until the next step.

The rules of play, for ``n`` seats: the seat to act leads (any play, not the pass) or
responds (the pass, or a play that beats the play to beat, RULES.md §2.2, §7); after
``n - 1`` passes in a row the trick ends and the seat that made the last play leads; the
hand ends when a seat plays its last card. Every step is kept (seat, id, and what it
replaced), so :meth:`PlayState.pop` undoes any number of steps.

:class:`ddz.Game` wraps one for its play phase; the pure-Python twin with the same
methods is :class:`ddz.playstate.PyPlayState` (``DDZ_NO_EXTENSIONS=1``), and the test
suite steps both through the same games.

The Python-callable methods check what they are given (``step`` returns ``False`` for an
illegal or unknown id and changes nothing); ``PlayState(...)`` checks the hands against
the table's deck.
"""

cimport cython
cimport numpy as cnp
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.long cimport PyLong_FromLong
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

from ddz._core cimport (NUM_RANKS, T_BOMB, T_ROCKET, CODE_TYPE_SHIFT, CODE_WIDTH_SHIFT, RuleTable, TableView,
                        beats_opts, count_legal, fits_opts, legal_codes, view_index)

import operator

import numpy as np

cnp.import_array()

_BOMBS_RULES = {"all": 0, "beating": 1, "six_plus": 2}
_BOMBS_NAMES = {v: k for k, v in _BOMBS_RULES.items()}


cdef inline bint doubles_score(int rule, int64_t code, int32_t beat) noexcept:
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


cdef class PlayState:
    """A play-phase position, stepped by action id (RULES.md §5).

    :param table: the rule set's table (``ddz.tables.table(rules)``, a ``RuleTable``).
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
    """

    def __cinit__(self, *args, **kwargs):
        self.hist = NULL
        self.codes = NULL
        self.nhist = self.hcap = self.cap = 0
        self.ncodes = -1

    def __dealloc__(self):
        free(self.hist)
        free(self.codes)

    def __init__(self, RuleTable table not None, hands, int to_move, int to_beat=0, int beat_seat=-1,
                 int passes=0, doubling_bombs="all"):
        cdef int s, r, n, total
        cdef int sums[NUM_RANKS]
        table.built()
        self.v = NULL             # unusable until the checks below pass
        self.ncodes = -1
        self.nhist = 0
        hands = list(hands)
        n = len(hands)
        if n < 2 or n > MAX_SEATS:
            raise ValueError(f"a play-phase position has 2 to {MAX_SEATS} hands, got {n}")
        self.seats = n
        memset(sums, 0, sizeof(sums))
        memset(self.hands, 0, sizeof(self.hands))
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
                self.hands[s][r] = <uint8_t>c
                sums[r] += c
                total += c
            if total > table.opts.max_hand:
                raise ValueError(f"hand {s} holds {total} cards, more than {table.opts.max_hand}")
            self.left[s] = total
            self.nplays[s] = 0
        for r in range(NUM_RANKS):
            if sums[r] > table.opts.limit[r]:
                raise ValueError(f"the hands together hold {sums[r]} cards of rank {r}, more than the deck")
        if not 0 <= to_move < n:
            raise ValueError(f"to_move {to_move} is not a seat of {n}")
        if doubling_bombs not in _BOMBS_RULES:
            raise ValueError(f"doubling_bombs must be one of {tuple(_BOMBS_RULES)}, got {doubling_bombs!r}")
        self.bombs_rule = _BOMBS_RULES[doubling_bombs]
        if to_beat:
            if not 0 < to_beat < table.view.n_ids or not table.allowed_code(table.view.codes[to_beat]):
                raise ValueError(f"to_beat {to_beat} is no play of the table")
            if not 0 <= beat_seat < n or beat_seat == to_move:
                raise ValueError(f"beat_seat {beat_seat} is not another seat of {n}")
            if not 0 <= passes <= n - 2:
                raise ValueError(f"passes {passes} is not 0..{n - 2}")
            self.to_beat, self.to_beat_seat, self.passes = to_beat, beat_seat, passes
        else:
            self.to_beat, self.to_beat_seat, self.passes = 0, -1, 0
        self.current = to_move
        self.bombs = self.rockets = 0
        self.winner = -1
        self.table = table
        self.v = &table.view
        for s in range(n):
            if self.left[s] == 0:
                self.winner = s
                self.current = -1

    cdef int ready(self) except -1:
        if self.v == NULL:
            raise ValueError("this PlayState was never built: make one with PlayState(table, hands, to_move)")
        return 0

    # -- the position --
    @property
    def cards_left(self):
        """Cards left per seat (tuple of ints)."""
        return int_tuple(self.left, self.seats)

    @property
    def plays_made(self):
        """Plays (not passes) made per seat (tuple of ints)."""
        return int_tuple(self.nplays, self.seats)

    @property
    def doubling_bombs(self):
        """The ``doubling_bombs`` rule the counters follow."""
        return _BOMBS_NAMES[self.bombs_rule]

    def hand(self, int seat):
        """The 15 counts of ``seat`` (tuple of ints). :raises IndexError: not a seat."""
        self.ready()
        cdef int c[NUM_RANKS]
        cdef int r
        if not 0 <= seat < self.seats:
            raise IndexError(f"seat {seat} of {self.seats}")
        for r in range(NUM_RANKS):
            c[r] = self.hands[seat][r]
        return int_tuple(c, NUM_RANKS)

    def hand_array(self, int seat):
        """The 15 counts of ``seat`` as a new read-only ``uint8[15]`` array."""
        self.ready()
        if not 0 <= seat < self.seats:
            raise IndexError(f"seat {seat} of {self.seats}")
        cdef cnp.ndarray a = new_array(NUM_RANKS, cnp.NPY_UINT8)
        memcpy(cnp.PyArray_DATA(a), self.hands[seat], NUM_RANKS)
        a.setflags(write=False)
        return a

    def history(self, Py_ssize_t start=0):
        """The steps from number ``start`` on (all by default), in order, as a list of
        ``(seat, id)``."""
        if start < 0:
            start = 0
        return [(self.hist[i].seat, self.hist[i].id) for i in range(start, self.nhist)]

    def __len__(self):
        return self.nhist

    # -- legal moves --
    cdef Py_ssize_t fill(self) except -1:
        """Fill the cache with the legal codes of the position; their number."""
        cdef Py_ssize_t n
        cdef int64_t* grown
        if self.ncodes >= 0:
            return self.ncodes
        if self.current < 0:
            self.ncodes = 0
            return 0
        if self.codes == NULL:
            self.codes = <int64_t*>malloc(FIRST_CAP * sizeof(int64_t))
            if self.codes == NULL:
                raise MemoryError()
            self.cap = FIRST_CAP
        n = legal_codes(self.v.opts, self.hands[self.current], self.v.codes[self.to_beat], self.codes, self.cap)
        if n > self.cap:
            grown = <int64_t*>realloc(self.codes, n * sizeof(int64_t))
            if grown == NULL:
                raise MemoryError()
            self.codes, self.cap = grown, n
            legal_codes(self.v.opts, self.hands[self.current], self.v.codes[self.to_beat], self.codes, self.cap)
        self.ncodes = n
        return n

    def legal_ids(self):
        """The legal plays of the seat to act as action ids: a new ``int32`` array in move
        order (ascending; the pass, id 0, first when responding); empty once over."""
        self.ready()
        cdef Py_ssize_t i, n = self.fill()
        cdef cnp.ndarray a = new_array(n, cnp.NPY_INT32)
        cdef int32_t* out = <int32_t*>cnp.PyArray_DATA(a)
        for i in range(n):
            out[i] = <int32_t>view_index(self.v, self.codes[i])
        return a

    def legal_plays(self):
        """The legal plays as a new list of the table's interned :class:`ddz.Play` objects."""
        self.ready()
        cdef Py_ssize_t i, n = self.fill()
        cdef list res = PyList_New(n)
        cdef object p
        cdef tuple plays = self.table.plays
        for i in range(n):
            p = <object>PyTuple_GET_ITEM(plays, view_index(self.v, self.codes[i]))
            Py_INCREF(p)
            PyList_SET_ITEM(res, i, p)
        return res

    def count(self):
        """How many legal moves the seat to act has (0 once over); nothing is listed."""
        self.ready()
        return self.count_()

    cdef Py_ssize_t count_(self) noexcept:
        if self.ncodes >= 0:
            return self.ncodes
        if self.current < 0:
            return 0
        return count_legal(self.v.opts, self.hands[self.current], self.v.codes[self.to_beat])

    cdef bint is_legal(self, Py_ssize_t pid) noexcept:
        cdef const uint8_t* p
        cdef const uint8_t* h
        cdef int64_t code
        cdef int r
        if self.current < 0 or pid < 0 or pid >= self.v.n_ids:
            return False
        if pid == 0:
            return self.to_beat != 0
        code = self.v.codes[pid]
        if not ((self.v.opts.allowed >> ((code >> CODE_TYPE_SHIFT) & 31)) & 1):
            return False
        p = self.v.counts + pid * NUM_RANKS
        h = self.hands[self.current]
        for r in range(NUM_RANKS):
            if p[r] > h[r]:
                return False
        if not fits_opts(self.v.opts, code, h):
            return False
        return self.to_beat == 0 or beats_opts(self.v.opts, code, self.v.codes[self.to_beat])

    def legal(self, Py_ssize_t pid):
        """Whether id ``pid`` is a legal play of the seat to act (``False`` for ids out of
        range and once over): a fit check and one comparison, nothing generated."""
        self.ready()
        return self.is_legal(pid)

    # -- stepping --
    cdef int apply(self, int32_t pid) except -1:
        """Play the legal id ``pid`` (trusted)."""
        cdef Entry* e
        cdef Entry* grown
        cdef int seat = self.current, r, t
        cdef const uint8_t* p
        cdef Py_ssize_t cap
        if self.nhist == self.hcap:
            cap = FIRST_HIST if self.hcap == 0 else 2 * self.hcap
            grown = <Entry*>realloc(self.hist, cap * sizeof(Entry))
            if grown == NULL:
                raise MemoryError()
            self.hist, self.hcap = grown, cap
        e = &self.hist[self.nhist]
        self.nhist += 1
        e.id = pid
        e.seat = <int8_t>seat
        e.prev_beat = self.to_beat
        e.prev_beat_seat = <int8_t>self.to_beat_seat
        e.prev_passes = <int8_t>self.passes
        self.ncodes = -1
        if pid == 0:
            self.passes += 1
            if self.passes == self.seats - 1:
                self.to_beat, self.to_beat_seat, self.passes = 0, -1, 0
            self.current = seat + 1 if seat + 1 < self.seats else 0
            return 0
        p = self.v.counts + pid * NUM_RANKS
        for r in range(NUM_RANKS):
            self.hands[seat][r] -= p[r]
            self.left[seat] -= p[r]
        self.nplays[seat] += 1
        t = <int>((self.v.codes[pid] >> CODE_TYPE_SHIFT) & 31)
        if (t == T_BOMB or t == T_ROCKET) and doubles_score(self.bombs_rule, self.v.codes[pid], self.to_beat):
            if t == T_BOMB:
                self.bombs += 1
            else:
                self.rockets += 1
        self.to_beat, self.to_beat_seat, self.passes = pid, seat, 0
        if self.left[seat] == 0:
            self.winner = seat
            self.current = -1
        else:
            self.current = seat + 1 if seat + 1 < self.seats else 0
        return 0

    def step(self, Py_ssize_t pid):
        """Play id ``pid`` if it is legal: ``True`` when played, ``False`` (and nothing
        changed) for an id out of range, a pass when leading, a play the seat does not
        hold, one that does not beat, a banned one, or any id once the hand is over."""
        self.ready()
        if not self.is_legal(pid):
            return False
        self.apply(<int32_t>pid)
        return True

    def advance(self, Py_ssize_t pid):
        """:meth:`step` answering what the game loop needs next: the seat to act now
        (``>= 0``), ``-1`` when the play ended the hand (see :attr:`winner`), ``-2`` when
        ``pid`` was not legal (nothing changed)."""
        self.ready()
        if not self.is_legal(pid):
            return -2
        self.apply(<int32_t>pid)
        return self.current

    def pop(self):
        """Undo the last step; returns its id, or -1 when there is nothing to undo."""
        self.ready()
        cdef Entry* e
        cdef int seat, r, t
        cdef const uint8_t* p
        if self.nhist == 0:
            return -1
        self.nhist -= 1
        e = &self.hist[self.nhist]
        seat = e.seat
        if e.id:
            p = self.v.counts + e.id * NUM_RANKS
            for r in range(NUM_RANKS):
                self.hands[seat][r] += p[r]
                self.left[seat] += p[r]
            self.nplays[seat] -= 1
            t = <int>((self.v.codes[e.id] >> CODE_TYPE_SHIFT) & 31)
            if (t == T_BOMB or t == T_ROCKET) and doubles_score(self.bombs_rule, self.v.codes[e.id], e.prev_beat):
                if t == T_BOMB:
                    self.bombs -= 1
                else:
                    self.rockets -= 1
        self.to_beat, self.to_beat_seat, self.passes = e.prev_beat, e.prev_beat_seat, e.prev_passes
        self.current = seat
        self.winner = -1
        self.ncodes = -1
        return e.id

    # -- whole-tree counting (perft) --
    cdef long long perft_(self, int depth) except -1:
        cdef Py_ssize_t n, i
        cdef long long total = 0
        cdef int64_t* mine
        if self.current < 0:
            return 0
        if depth == 1:
            return self.count_()
        n = self.fill()
        mine = <int64_t*>malloc(n * sizeof(int64_t) + 1)
        if mine == NULL:
            raise MemoryError()
        memcpy(mine, self.codes, n * sizeof(int64_t))
        try:
            for i in range(n):
                self.apply(<int32_t>view_index(self.v, mine[i]))
                total += self.perft_(depth - 1)
                self.pop()
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
        c.v = self.v
        c.seats = self.seats
        c.current = self.current
        memcpy(c.hands, self.hands, sizeof(self.hands))
        memcpy(c.left, self.left, sizeof(self.left))
        memcpy(c.nplays, self.nplays, sizeof(self.nplays))
        c.to_beat, c.to_beat_seat, c.passes = self.to_beat, self.to_beat_seat, self.passes
        c.bombs, c.rockets, c.winner = self.bombs, self.rockets, self.winner
        c.bombs_rule = self.bombs_rule
        if self.nhist:
            c.hist = <Entry*>malloc(self.nhist * sizeof(Entry))
            if c.hist == NULL:
                raise MemoryError()
            memcpy(c.hist, self.hist, self.nhist * sizeof(Entry))
            c.nhist = c.hcap = self.nhist
        return c

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        # rebuilt from the start of the recorded steps: the hands before them, replayed
        cdef PlayState c = self.copy()
        while c.nhist:
            c.pop()
        start = (c.table.rules, [c.hand(s) for s in range(c.seats)], c.current, c.to_beat, c.to_beat_seat,
                 c.passes, c.bombs, c.rockets, c.plays_made, c.doubling_bombs)
        return (_rebuild, (start, [self.hist[i].id for i in range(self.nhist)]))

    def __repr__(self):
        return (f"<ddz._game.PlayState seats={self.seats} current={self.current} to_beat={self.to_beat} "
                f"cards_left={self.cards_left}>")


def _rebuild(start, ids):
    cdef PlayState s
    cdef int i
    from ddz.tables import table
    rules, hands, cur, beat, beat_seat, passes, nbombs, nrockets, nplays, bombs_rule = start
    s = PlayState(table(rules), hands, cur, beat, beat_seat, passes, bombs_rule)
    s.bombs, s.rockets = nbombs, nrockets
    for i in range(s.seats):
        s.nplays[i] = nplays[i]
    for pid in ids:
        if not s.step(pid):
            raise ValueError(f"a pickled PlayState replays an illegal id {pid}")
    return s


# -- the deal: Python's Mersenne Twister in C ---------------------------------------

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
        self.init_by_array(key, nkey)
        free(key)

    cdef void init_genrand(self, uint32_t s) noexcept:
        cdef int i
        self.mt[0] = s
        for i in range(1, MT_N):
            self.mt[i] = <uint32_t>(1812433253u * (self.mt[i - 1] ^ (self.mt[i - 1] >> 30)) + <uint32_t>i)
        self.mti = MT_N

    cdef void init_by_array(self, const uint32_t* key, Py_ssize_t n) noexcept:
        cdef Py_ssize_t i = 1, j = 0, k
        self.init_genrand(19650218u)
        k = MT_N if MT_N > n else n
        while k:
            self.mt[i] = <uint32_t>((self.mt[i] ^ ((self.mt[i - 1] ^ (self.mt[i - 1] >> 30)) * 1664525u))
                                    + key[j] + <uint32_t>j)
            i += 1
            j += 1
            if i >= MT_N:
                self.mt[0] = self.mt[MT_N - 1]
                i = 1
            if j >= n:
                j = 0
            k -= 1
        k = MT_N - 1
        while k:
            self.mt[i] = <uint32_t>((self.mt[i] ^ ((self.mt[i - 1] ^ (self.mt[i - 1] >> 30)) * 1566083941u))
                                    - <uint32_t>i)
            i += 1
            if i >= MT_N:
                self.mt[0] = self.mt[MT_N - 1]
                i = 1
            k -= 1
        self.mt[0] = 0x80000000u

    cdef uint32_t genrand(self) noexcept:
        cdef uint32_t y
        cdef int kk
        if self.mti >= MT_N:
            for kk in range(MT_N - MT_M):
                y = (self.mt[kk] & 0x80000000u) | (self.mt[kk + 1] & 0x7fffffffu)
                self.mt[kk] = self.mt[kk + MT_M] ^ (y >> 1) ^ (0x9908b0dfu if y & 1 else 0u)
            for kk in range(MT_N - MT_M, MT_N - 1):
                y = (self.mt[kk] & 0x80000000u) | (self.mt[kk + 1] & 0x7fffffffu)
                self.mt[kk] = self.mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ (0x9908b0dfu if y & 1 else 0u)
            y = (self.mt[MT_N - 1] & 0x80000000u) | (self.mt[0] & 0x7fffffffu)
            self.mt[MT_N - 1] = self.mt[MT_M - 1] ^ (y >> 1) ^ (0x9908b0dfu if y & 1 else 0u)
            self.mti = 0
        y = self.mt[self.mti]
        self.mti += 1
        y ^= (y >> 11)
        y ^= (y << 7) & 0x9d2c5680u
        y ^= (y << 15) & 0xefc60000u
        y ^= (y >> 18)
        return y

    cdef uint32_t below(self, uint32_t n) noexcept:
        """``Random._randbelow(n)`` for ``1 <= n < 2**32``: rejection sampling on
        ``getrandbits(n.bit_length())``."""
        cdef int k = 0
        cdef uint32_t m = n, r
        while m:
            k += 1
            m >>= 1
        r = self.genrand() >> (32 - k)
        while r >= n:
            r = self.genrand() >> (32 - k)
        return r

    def randrange(self, Py_ssize_t n):
        """``Random.randrange(n)`` for ``1 <= n < 2**32``."""
        if not 0 < n < 4294967296:
            raise ValueError(f"randrange({n}): n must be 1 .. 2**32 - 1")
        return self.below(<uint32_t>n)

    def deal(self, ranks, sizes):
        """Shuffle positions ``0 .. len(ranks) - 1`` as ``Random.shuffle`` would and cut
        them into consecutive parts of ``sizes``.

        :param ranks: the rank (0..14) of each card of the deck, in deck order (bytes or a
            sequence of ints).
        :param sizes: the size of each part, summing to ``len(ranks)``.
        :returns: ``(positions, counts)``: per part, its deck positions in ascending order
            (a tuple of ints) and its 15 rank counts (a tuple of ints).
        """
        cdef Py_ssize_t n = len(ranks), i, j, lo, hi, p
        cdef int* order
        cdef int t
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
                order[i] = <int>i
                if r[i] >= NUM_RANKS:
                    raise ValueError(f"rank {r[i]} at deck position {i}")
            i = n - 1
            while i >= 1:
                j = self.below(<uint32_t>(i + 1))
                t = order[i]
                order[i] = order[j]
                order[j] = t
                i -= 1
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

    def getstate(self):
        """The state in ``random.Random.getstate()``'s format (``Random().setstate`` takes it)."""
        return (3, tuple([self.mt[i] for i in range(MT_N)]) + (self.mti,), None)

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
            self.mt[i] = <uint32_t>words[i]
        self.mti = words[MT_N]

    def __reduce__(self):
        return (_twister, (self.getstate(),))


def _twister(state):
    t = Twister()
    t.setstate(state)
    return t
