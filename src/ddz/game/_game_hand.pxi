# The hand around the play phase in C: Hand, the hand_* functions, HandRules, CHand (RULES.md §3, §4, §6, §7).
# Included by _game.pyx (Cython `include`: one module, so that the cdef functions of the
# play phase, the deal and the hand inline into each other); not compiled on its own.

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
    hand_deal_to(g, c, order)


cdef void hand_deal_to(Hand* g, const HandConf* c, int* order) noexcept nogil:
    """:func:`hand_deal`, the shuffled deck positions left in ``order`` (``c.ndeck`` ints:
    seat ``s`` holds positions ``order[s * hand_size:(s + 1) * hand_size]``, the bottom the
    rest), for :class:`CHand`, which gives the suited deal back to Python."""
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
    cdef int order[MAX_DECK]
    hand_new_hand_to(g, c, seed, order)


cdef int hand_new_hand_to(Hand* g, const HandConf* c, int64_t seed, int* order) noexcept nogil:
    """:func:`hand_new_hand`, the deal's positions left in ``order`` (:func:`hand_deal_to`);
    returns the face-up card's draw ``k`` (card ``k % hand_size`` in card order of seat
    ``k // hand_size``), or -1 under rules that turn none."""
    cdef int k = -1, r, n
    g.seed = seed
    g.dealer = 1
    dr_set(&g.rng, <uint64_t>seed, 0)
    hand_deal_to(g, c, order)
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
    return k


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

    def new_hand(self, seed):
        """Start the hand of ``seed`` (an int ``0 .. 2**64 - 1``) as every hand of a
        vectorised game starts (``hand_new_hand``): seed the hand's deal stream, deal,
        draw the first bidder (or the face-up card, which decides it). Later redeals come
        from the same stream, by :meth:`redeal`.

        :returns: ``(first_bidder, k)``: ``k`` the face-up card's draw (card ``k %
            hand_size``, in card order, of seat ``k // hand_size``), -1 under rules that
            turn none. Read the deal with :meth:`dealt`."""
        cdef uint64_t s = seed
        cdef int k = hand_new_hand_to(&self.h, &self.rules.c, <int64_t>s, self.order)
        self.h.dealer = 0           # a redeal is HAND_DEAL: the caller asks for it (redeal)
        return self.h.first, k

    def redeal(self):
        """After a step returned ``HAND_DEAL``: the next deal of the hand's own stream
        (:meth:`new_hand`), its auction begun; read it with :meth:`dealt`."""
        hand_deal_to(&self.h, &self.rules.c, self.order)
        hand_redealt(&self.h, &self.rules.c)

    def legal_ids(self):
        """The legal env ids of the seat to act in the auction, doubling or opening
        (``hand_count_ids``, ``hand_write_ids``: the numbering of ``ddz.game.ids``),
        ascending, as a new ``int32`` array."""
        cdef int32_t ids[8]
        cdef Py_ssize_t n, k
        cdef cnp.ndarray out
        if self.h.phase == PH_PLAYING or self.h.phase == PH_OVER:
            raise ValueError("legal_ids: not in the auction, doubling or opening")
        n = hand_count_ids(&self.h, &self.rules.c)
        hand_write_ids(&self.h, &self.rules.c, ids)
        out = new_array(n, cnp.NPY_INT32)
        for k in range(n):
            (<int32_t*>cnp.PyArray_DATA(out))[k] = ids[k]
        return out

    def set_first(self, int seat):
        """The first bidder is ``seat`` (``Game(first_bidder=...)``, a face-up card given),
        not the one drawn: before any word of the first deal."""
        if not 0 <= seat < self.rules.c.seats or self.h.phase != PH_BIDDING or self.h.spoken:
            raise ValueError(f"set_first: seat {seat} before the first word")
        self.h.first = self.h.current = seat

    def dealt(self):
        """The deal of :meth:`new_hand` or :meth:`redeal`: ``(positions, counts)``, per part
        (each seat, then the bottom) its deck positions ascending (card order) and its 15
        rank counts, tuples of ints (as ``ddz.game.deal.DealStream.deal``)."""
        cdef const HandConf* c = &self.rules.c
        cdef int p, i, lo, hi
        cdef int cnt[NUM_RANKS]
        positions, counts = [], []
        for p in range(c.seats + 1):
            lo = p * c.hand_size
            hi = lo + c.hand_size if p < c.seats else c.ndeck
            part = sorted([self.order[i] for i in range(lo, hi)])
            memset(cnt, 0, sizeof(cnt))
            for i in range(lo, hi):
                cnt[c.ranks[self.order[i]]] += 1
            positions.append(tuple(part))
            counts.append(tuple([cnt[i] for i in range(NUM_RANKS)]))
        return positions, counts

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
