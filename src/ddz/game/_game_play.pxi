# The play phase in C: PlayCore (nogil) and PlayState (RULES.md §5, §6).
# Included by _game.pyx (Cython `include`: one module, so that the cdef functions of the
# play phase, the deal and the hand inline into each other); not compiled on its own.

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
