# cython: language_level=3
"""N hands of Dou Dizhu stepped in C without the GIL (RULES.md §3–§7): the engine of
:class:`ddz.envs.VectorGame`.

Every game is a C ``Hand`` (``ddz/game/_game.pxd``): the deal from its deal stream
(``ddz.game.deal``), the auction, doubling, open play, redeals and the score, around the
play phase as the core's ``PlayCore``, stepped by the same ``nogil`` functions as
:class:`ddz.Game`'s ``CHand`` and ``PlayState``, for every rule set (RULES.md §3–§7). What
this module adds is the array of them, the seeds of their hands, the observation encoding
of :mod:`ddz.envs.core` (the same layout, feature for feature), the built-in policies and
the threaded step. ``ddz.envs.vector`` checks the arguments; this module trusts them.

The test suite steps these games in lockstep with :class:`ddz.Game` and with the
pure-Python ``PyVectorGame`` and requires identical hands, legal ids, observations,
rewards and ends.
"""

cimport cython
cimport numpy as cnp
from cpython.exc cimport PyErr_CheckSignals
from cython.parallel cimport prange
from libc.math cimport log2, rintf
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

from ddz.core._core cimport NUM_RANKS, RuleTable, TableView, view_index
from ddz.envs._dzfeat cimport DZ_X_FARMER, DZ_Z_SIZE, dz_ids, dz_rows, dz_state
from ddz.game._game cimport (CHand, HAND_OVER, HAND_VOID, MAX_SEATS, PH_BIDDING, PH_DOUBLING, PH_OPENING, PH_OVER,
                             PH_PLAYING, Hand, HandConf, MTState, PlayCore, PlayState, core_fill, core_free, core_init,
                             hand_apply, hand_conf_from, hand_count_ids, hand_factor, hand_is_legal, hand_new_hand,
                             hand_next_seat, hand_write_ids, ddz_load_le64, ddz_store_le64, mix64, mt_below, mt_seed_u64, vector_hand_seed)

import numpy as np

cnp.import_array()

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define DDZ_PREFETCH_W(p) __builtin_prefetch((p), 1, 0)
    #else
    #define DDZ_PREFETCH_W(p) ((void)0)
    #endif
    """
    void DDZ_PREFETCH_W(const void* p) noexcept nogil

cdef enum:
    NBLOCKS = 18

# the blocks of the observation, in the order of ddz.envs.core.observation_layout
BLOCKS = ("hand", "played", "last_play", "to_beat", "to_beat_seat", "bottom", "open_hand", "cards_left",
          "landlord", "to_act", "phase", "bid", "auction", "doubles", "robs", "open_play", "log2_multiplier",
          "face_up")
cdef enum:
    B_HAND = 0
    B_PLAYED = 1
    B_LAST = 2
    B_TO_BEAT = 3
    B_BEAT_SEAT = 4
    B_BOTTOM = 5
    B_OPEN = 6
    B_LEFT = 7
    B_LORD = 8
    B_TO_ACT = 9
    B_PHASE = 10
    B_BID = 11
    B_AUCTION = 12
    B_DOUBLES = 13
    B_ROBS = 14
    B_OPEN_PLAY = 15
    B_LOG2 = 16
    B_FACE_UP = 17

PHASE_NAMES = {PH_BIDDING: "bidding", PH_DOUBLING: "doubling", PH_OPENING: "opening", PH_PLAYING: "playing"}


cdef struct Conf:
    HandConf h             # the hand's settings (ddz.game._game)
    int K                  # card features per block
    Py_ssize_t obs_size
    int at[NBLOCKS]
    int enc_base[NUM_RANKS]    # card encoding: rank r's "at least k" bits start here
    int enc_max[NUM_RANKS]     # ... and there are this many
    Py_ssize_t tail            # packed rows: the byte of the first count (after the bits)
    Py_ssize_t packed_bytes    # ... and the row's bytes (ddz.envs.packed.packed_size)
    const uint64_t* play_bits  # packed rows of one deck: the card bits of each play id (else NULL)
    float scale


ctypedef Hand VGame           # a game of the vector is one hand (ddz.game._game)


cdef inline void rewards(const VGame* g, const Conf* c, int status, float* out) noexcept nogil:
    """The rewards of a step that returned ``status`` (``hand_apply``): the scores times
    the scale once the hand is over, else (void hands too) zeros."""
    cdef int s
    for s in range(c.h.seats):
        out[s] = <float>g.scores[s] * c.scale if status == HAND_OVER else 0


cdef float PREFIX[9][8]       # PREFIX[n]: n ones, then zeros ("at least k copies" bits)
cdef uint8_t PREFIX8[9][8]    # ... for the compact (uint8) observations

cdef enum:
    PACKED_WORDS = 24         # the most 64-bit words of a packed row (184 bytes: four players)

cdef struct SeatBits:         # a game's card bits in the play phase, kept from row to row
    Py_ssize_t nhist          # the length of the play history they follow (-1: none yet this hand)
    uint64_t played[MAX_SEATS]         # 4-bit counts of the cards each seat played
    uint64_t played_bits[MAX_SEATS]    # ... their card bits (card_bits)
    uint64_t held_bits[MAX_SEATS]      # the card bits of each seat's hand
    uint64_t bottom_bits

cdef struct Bits:             # a packed observation row (ddz.envs.packed.pack_observations) being
    uint64_t w[PACKED_WORDS]  # built: its bytes as little-endian words (pack_row stores it)
    SeatBits* seats           # the game's kept card bits (one deck), or NULL: computed afresh

ctypedef fused obs_t:         # an observation row: float32, the compact uint8, or packed bits
    float
    uint8_t
    Bits


cdef void init_prefix() noexcept:
    cdef int n, k
    for n in range(9):
        for k in range(8):
            PREFIX[n][k] = 1 if k < n else 0
            PREFIX8[n][k] = 1 if k < n else 0


init_prefix()


cdef inline const void* prefix(int n, obs_t* kind) noexcept nogil:
    """The row of n ones then zeros, of the observation's type (float32 or uint8)."""
    if obs_t is float:
        return &PREFIX[n][0]
    else:
        return &PREFIX8[n][0]


cdef inline uint64_t pack8(uint64_t x) noexcept nogil:
    """Eight bytes, each at most 15, as eight 4-bit fields (byte ``i`` in bits ``4i..4i+3``)."""
    x = (x | (x >> 4)) & 0x00FF00FF00FF00FFULL
    x = (x | (x >> 8)) & 0x0000FFFF0000FFFFULL
    return (x | (x >> 16)) & 0xFFFFFFFFULL


cdef inline uint64_t nibbles(const uint8_t* counts) noexcept nogil:
    """15 counts (each at most 15) as 4-bit fields: count ``r`` in bits ``4r..4r+3``. Two
    8-byte loads of ``counts[0..7]`` and ``counts[7..14]``, no byte past the 15th."""
    return pack8(ddz_load_le64(counts)) | (pack8(ddz_load_le64(counts + 7) >> 8) << 32)


cdef inline uint64_t card_bits(uint64_t n) noexcept nogil:
    """The 54 card features of one deck (``ddz.encode_cards``: rank ``r``'s "at least k
    copies" in bits ``4r..4r+3``, the jokers in 52 and 53) from 4-bit counts (at most 8
    each; :func:`nibbles`): per field, ``v >= k`` is bit 3 of ``v + 8 - k`` (no carry)."""
    cdef uint64_t ones = 0x0111111111111111ULL        # bit 0 of each of the 15 fields
    cdef uint64_t t = ((n + 7 * ones) >> 3) & ones
    t |= (((n + 6 * ones) >> 3) & ones) << 1
    t |= (((n + 5 * ones) >> 3) & ones) << 2
    t |= (((n + 4 * ones) >> 3) & ones) << 3
    return (t & ((1ULL << 53) - 1)) | (((t >> 56) & 1) << 53)


cdef inline void put_bits(Bits* row, Py_ssize_t at, uint64_t v) noexcept nogil:
    """OR ``v`` into a packed row from bit ``at`` on (bit ``i`` of the row is bit ``i % 64``
    of word ``i // 64``): one word, or two when ``v`` reaches past the first."""
    cdef Py_ssize_t k = at >> 6
    cdef int b = at & 63
    row.w[k] |= v << b
    if b:
        row.w[k + 1] |= v >> (64 - b)


cdef inline void pack_row(const Conf* c, const Bits* row, uint8_t* out) noexcept nogil:
    """Store a packed row built in ``row`` at ``out`` (``c.packed_bytes`` bytes)."""
    cdef Py_ssize_t k
    for k in range(c.packed_bytes >> 3):
        ddz_store_le64(out + 8 * k, row.w[k])


cdef inline void enc_cards(const Conf* c, const uint8_t* counts, obs_t* out, Py_ssize_t at) noexcept nogil:
    """The K card features of 15 counts (``ddz.encode_cards``) from feature ``at`` on. A
    float32 or uint8 row gets every one of them written (zeros included): with one deck
    13 copies of 16 bytes and two stores, no branch. A packed row (cleared before) gets
    the ones: with one deck the 54 bits as one word (:func:`card_bits`)."""
    cdef int r, n
    if obs_t is Bits:
        if c.K == 54:
            put_bits(out, at, card_bits(nibbles(counts)))
            return
        for r in range(NUM_RANKS):
            n = counts[r] if counts[r] <= c.enc_max[r] else c.enc_max[r]
            if n:
                put_bits(out, at + c.enc_base[r], (<uint64_t>1 << n) - 1)
    elif c.K == 54:
        out += at
        for r in range(13):
            memcpy(out + 4 * r, prefix(counts[r] if counts[r] <= 4 else 4, out), 4 * sizeof(obs_t))
        out[52] = 1 if counts[13] else 0
        out[53] = 1 if counts[14] else 0
    else:
        out += at
        for r in range(NUM_RANKS):
            n = counts[r] if counts[r] <= c.enc_max[r] else c.enc_max[r]
            memcpy(out + c.enc_base[r], prefix(n, out), c.enc_max[r] * sizeof(obs_t))


cdef inline void set_one(obs_t* out, Py_ssize_t i) noexcept nogil:
    """Feature ``i`` (a 0/1 one) is 1."""
    if obs_t is Bits:
        out.w[i >> 6] |= <uint64_t>1 << (i & 63)
    else:
        out[i] = 1


cdef inline void set_count(const Conf* c, obs_t* out, Py_ssize_t i, int j, int value) noexcept nogil:
    """Feature ``i``, a count (cards left, robs) and the ``j``-th such feature, is ``value``:
    in a packed row, byte ``j`` of the tail."""
    if obs_t is Bits:
        out.w[(c.tail + j) >> 3] |= (<uint64_t>value) << (8 * ((c.tail + j) & 7))
    elif obs_t is float:
        out[i] = value
    else:
        out[i] = <uint8_t>value


cdef inline void clear(const Conf* c, obs_t* out, Py_ssize_t at, Py_ssize_t n) noexcept nogil:
    """Features ``at .. at + n - 1`` are 0 (a packed row is cleared whole before)."""
    if obs_t is not Bits:
        memset(out + at, 0, n * sizeof(obs_t))


cdef inline void enc_play(const Conf* c, int32_t pid, obs_t* out, Py_ssize_t at) noexcept nogil:
    """The card features of play ``pid`` from feature ``at`` on (:func:`enc_cards`; a
    packed row of one deck takes the play's bits from ``c.play_bits``)."""
    if obs_t is Bits:
        if c.play_bits != NULL:
            put_bits(out, at, c.play_bits[pid])
            return
    enc_cards(c, c.h.v.counts + pid * NUM_RANKS, out, at)


cdef inline void seat_bits_sync(SeatBits* b, const VGame* g, int S) noexcept nogil:
    """Bring a game's kept card bits up to its play history (one deck, the play phase):
    from the plays made since they were last brought up, or afresh from the hands."""
    cdef Py_ssize_t h
    cdef int s
    cdef int32_t pid
    if b.nhist < 0 or b.nhist > g.pc.nhist:
        for s in range(S):
            b.played[s] = nibbles(g.hands[s]) - nibbles(g.pc.hands[s])
            b.played_bits[s] = card_bits(b.played[s])
            b.held_bits[s] = card_bits(nibbles(g.pc.hands[s]))
        b.bottom_bits = card_bits(nibbles(g.bottom))
    else:
        for h in range(b.nhist, g.pc.nhist):
            pid = g.pc.hist[h].id
            if pid:
                s = g.pc.hist[h].seat
                b.played[s] += nibbles(g.pc.v.counts + pid * NUM_RANKS)
                b.played_bits[s] = card_bits(b.played[s])
                b.held_bits[s] = card_bits(nibbles(g.pc.hands[s]))
    b.nhist = g.pc.nhist


cdef inline int relative(int s, int seat, int S) noexcept nogil:
    """Seat ``s`` seen from ``seat``: ``(s - seat) % S``."""
    s -= seat
    return s + S if s < 0 else s


cdef void encode(VGame* g, const Conf* c, int seat, obs_t* out) noexcept nogil:
    """The observation of ``seat`` (``ddz.envs.core.encode_observation``; compacted or
    packed as ``compact_observation`` and ``pack_observations`` say). Every card block of
    a float32 or uint8 row is written whole (zeros included), so only the small blocks are
    cleared first; a packed row (a few words) is cleared whole and gets its ones: either
    way the row is written once."""
    cdef int S = c.h.seats, K = c.K, s, r, rel, lord = g.landlord, shown_doubles
    cdef uint8_t played[NUM_RANKS]
    cdef int32_t last[MAX_SEATS]
    cdef const int* at = c.at
    cdef Py_ssize_t h, lo
    cdef bint playing = g.in_play
    cdef int8_t d
    cdef bint hidden
    cdef float lg
    cdef SeatBits* kept = NULL
    if obs_t is Bits:
        memset(out, 0, c.packed_bytes)      # (the words of the row)
    else:
        memset(out + at[B_BEAT_SEAT], 0, (at[B_BOTTOM] - at[B_BEAT_SEAT]) * sizeof(obs_t))
        memset(out + at[B_OPEN], 0, (c.obs_size - at[B_OPEN]) * sizeof(obs_t))
    if obs_t is Bits:
        kept = out.seats
    if playing:
        if obs_t is Bits and kept != NULL:
            seat_bits_sync(kept, g, S)
            put_bits(out, at[B_HAND], kept.held_bits[seat])
        else:
            enc_cards(c, g.pc.hands[seat], out, at[B_HAND])
        for s in range(S):
            rel = relative(s, seat, S)
            if obs_t is Bits and kept != NULL:
                put_bits(out, at[B_PLAYED] + rel * K, kept.played_bits[s])
            else:
                for r in range(NUM_RANKS):
                    played[r] = g.hands[s][r] - g.pc.hands[s][r]
                enc_cards(c, played, out, at[B_PLAYED] + rel * K)
            set_count(c, out, at[B_LEFT] + rel, rel, g.pc.left[s])
            last[s] = 0
        lo = g.pc.nhist - S if g.pc.nhist > S else 0
        for h in range(lo, g.pc.nhist):
            last[relative(g.pc.hist[h].seat, seat, S)] = g.pc.hist[h].id
        for rel in range(S):
            if last[rel]:
                enc_play(c, last[rel], out, at[B_LAST] + rel * K)
            else:
                clear(c, out, at[B_LAST] + rel * K, K)
        if g.pc.to_beat:
            enc_play(c, g.pc.to_beat, out, at[B_TO_BEAT])
            set_one(out, at[B_BEAT_SEAT] + relative(g.pc.to_beat_seat, seat, S))
        else:
            clear(c, out, at[B_TO_BEAT], K)
            set_one(out, at[B_BEAT_SEAT] + S)
    else:
        enc_cards(c, g.hands[seat], out, at[B_HAND])
        clear(c, out, at[B_PLAYED], 2 * S * K)     # played, last_play
        clear(c, out, at[B_TO_BEAT], K)
        for s in range(S):
            rel = relative(s, seat, S)
            set_count(c, out, at[B_LEFT] + rel, rel, g.left[s])
        set_one(out, at[B_BEAT_SEAT] + S)
    if lord >= 0 and (not c.h.four or seat == lord):       # §7: the four-player bottom is the landlord's
        if obs_t is Bits and playing and kept != NULL:
            put_bits(out, at[B_BOTTOM], kept.bottom_bits)
        else:
            enc_cards(c, g.bottom, out, at[B_BOTTOM])
    else:
        clear(c, out, at[B_BOTTOM], K)
    set_one(out, at[B_LORD] + (relative(lord, seat, S) if lord >= 0 else S))
    if g.open == 1:                     # §7: the open hand is everybody's to see
        enc_cards(c, &g.pc.hands[lord][0] if playing else &g.hands[lord][0], out, at[B_OPEN])
        set_one(out, at[B_OPEN_PLAY])
    set_one(out, at[B_TO_ACT] + (relative(g.current, seat, S) if g.current >= 0 else S))
    set_one(out, at[B_PHASE] + g.phase)
    set_one(out, at[B_BID] + g.bid)
    for s in range(S):
        set_one(out, at[B_AUCTION] + 5 * relative(s, seat, S) + g.word[s])
    # RULES.md §4: the farmers' doubles are shown together, once both chose
    shown_doubles = g.ndoubles
    hidden = g.phase == PH_DOUBLING and (g.doubles[hand_next_seat(lord, &c.h)] < 0
                                         or g.doubles[hand_next_seat(hand_next_seat(lord, &c.h), &c.h)] < 0)
    if hidden:
        shown_doubles = g.doubles[seat] == 1
    for s in range(S):
        d = g.doubles[s]
        if hidden and s != seat:
            d = -1
        set_one(out, at[B_DOUBLES] + 3 * relative(s, seat, S) + 1 + d)
    set_count(c, out, at[B_ROBS], S, g.robs)
    s = g.robs + shown_doubles + ((g.pc.bombs + g.pc.rockets) if playing else 0)
    r = hand_factor(g)
    # math.log2 of the multiplier, as the reference takes it (a double rounded to float);
    # compact and packed: 4 x that, rounded, at most 255 (ddz.envs.core.compact_observation)
    lg = s if r == 1 else <float>log2(<double>((<int64_t>r) << s))
    if obs_t is float:
        out[at[B_LOG2]] = lg
    else:
        lg = rintf(4 * lg)
        set_count(c, out, at[B_LOG2], S + 1, <int>(255 if lg > 255 else lg))
    if g.face_seat >= 0:
        set_one(out, at[B_FACE_UP] + g.face_rank)
        set_one(out, at[B_FACE_UP] + NUM_RANKS + relative(g.face_seat, seat, S))
    else:
        set_one(out, at[B_FACE_UP] + NUM_RANKS + S)


# -- the built-in policies -------------------------------------------------------------

cdef inline uint64_t splitmix(uint64_t* state) noexcept nogil:
    """SplitMix64: the next output (``ddz.game._game.mix64`` of the advanced state)."""
    state[0] += 0x9E3779B97F4A7C15ULL
    return mix64(state[0])


cdef int32_t choose(VGame* g, const Conf* c, int32_t* ids, Py_ssize_t n, int greedy, uint64_t* state) noexcept nogil:
    """A legal id of ``ids[0:n]``: uniformly at random, or greedily (the play of the most
    cards, the lowest such id; in the auction the highest id: bid 3, call/rob, double)."""
    cdef Py_ssize_t k, best = 0
    cdef int most = -1, cards, r
    cdef const uint8_t* p
    if not greedy:
        return ids[<Py_ssize_t>(((splitmix(state) >> 32) * <uint64_t>n) >> 32)]
    if g.phase != PH_PLAYING:
        return ids[n - 1]
    for k in range(n):
        p = c.h.v.counts + ids[k] * NUM_RANKS
        cards = 0
        for r in range(NUM_RANKS):
            cards += p[r]
        if cards > most:
            most, best = cards, k
    return ids[best]


cdef int conf_from(Conf* c, RuleTable table, dict settings, dict layout, Py_ssize_t obs_size,
                   bytes ranks, bytes suits) except -1:
    """Fill ``c`` from the arguments of :class:`VectorCore`, checked enough that no
    argument can make the C code read or write out of bounds.

    :raises ValueError: a setting out of range, or a layout other than
        ``ddz.envs.core.observation_layout``'s for these seats and decks."""
    cdef Py_ssize_t i
    cdef int r, d
    hand_conf_from(&c.h, table, settings, ranks, suits)
    k, S = 54 * settings["decks"], settings["seats"]
    sizes = (k, S * k, S * k, k, S + 1, k, k, S, S + 1, S + 1, 5, 4, S * 5, S * 3, 1, 1, 1, NUM_RANKS + S + 1)
    start = 0
    for name, size in zip(BLOCKS, sizes):
        if layout.get(name) != start:
            raise ValueError(f"layout[{name!r}] must be {start} (ddz.envs.core.observation_layout)")
        start += size
    if obs_size != start:
        raise ValueError(f"obs_size must be {start}")
    d = settings["decks"]
    c.K = 54 * d
    c.obs_size = obs_size
    for i, name in enumerate(BLOCKS):
        c.at[i] = layout[name]
        if i and c.at[i] <= c.at[i - 1]:
            raise ValueError("the observation blocks are not in the order of BLOCKS")
    for r in range(NUM_RANKS):
        c.enc_base[r] = r * 4 * d if r < 13 else 52 * d + (r - 13) * d
        c.enc_max[r] = 4 * d if r < 13 else d
    c.tail = (obs_size + 7) // 8
    c.packed_bytes = (c.tail + S + 2 + 7) // 8 * 8
    c.play_bits = NULL
    c.scale = 1
    return 0


cdef void play_bits_of(const Conf* c, uint64_t* out) noexcept:
    """The card bits (:func:`card_bits`) of every play id of a one-deck table into ``out``."""
    cdef Py_ssize_t i
    for i in range(c.h.v.n_ids):
        out[i] = card_bits(nibbles(c.h.v.counts + i * NUM_RANKS))


# -- the vector --------------------------------------------------------------------------

cdef void free_games(VGame* games, Py_ssize_t n) noexcept:
    """Free an array of ``n`` games (their play cores' buffers, then the array)."""
    cdef Py_ssize_t i
    if games != NULL:
        for i in range(n):
            core_free(&games[i].pc)
        free(games)


def game_bytes(Py_ssize_t obs_size, int seats):
    """The bytes :class:`VectorCore` allocates per game before any hand is played: its
    struct (the game and its deal stream) and its rows of the buffers (observation,
    rewards, done, seat, seed, offset and 64 legal ids). Playing adds each game's
    legal-move and history buffers, grown on demand."""
    return (sizeof(VGame) + obs_size * sizeof(float) + seats * sizeof(float)
            + sizeof(uint8_t) + sizeof(int32_t) + 2 * sizeof(int64_t) + 64 * sizeof(int32_t))


@cython.final
cdef class VectorCore:
    """``num_envs`` games in C (trusted arguments: ``ddz.envs.vector.VectorGame`` checks
    them). Not picklable.

    :param num_envs: games. :param table: the ``RuleTable`` of ``rules.move_rules``.
    :param settings: a dict of ints: ``seats``, ``hand_size``, ``bottom_size``,
        ``auction`` (0 once, 1 until_passes, 2 rob), ``doubling``, ``all_void``,
        ``max_redeals``, ``bombs_rule``, ``plays``, ``decks``, ``four`` (the four-player
        game), ``bonus`` (``bottom_bonus``), ``face_up`` (``first_bidder="face_up"``).
    :param layout: ``{block: start}`` of :func:`ddz.envs.core.observation_layout`,
        ``obs_size`` its length. :param ranks: bytes, the rank of each deck position;
        :param suits: bytes, its suit (0..3, 4 for a joker).
    :param seed: an int 0 .. 2**64 - 1: hand ``j`` is dealt from the seed
        ``vector_hand_seed(seed, j)`` (``ddz.game.deal``); it starts the policies' stream too.
    :param reward_scale: multiplies the scores.
    :param kind: the observation rows: 0 ``float32``, 1 the compact ``uint8``
        (``ddz.envs.core.compact_observation``'s rule), 2 packed bits
        (``ddz.envs.packed.pack_observations``: ``uint8[packed_size]`` rows).
    """

    cdef VGame* games
    cdef Py_ssize_t n
    cdef Conf conf
    cdef RuleTable table
    cdef readonly object obs, rewards, dones, current_players, seeds, offsets
    cdef object ids_buf, ids_view
    cdef object play_bits         # packed rows of one deck: the array behind conf.play_bits
    cdef SeatBits* seat_bits      # ... and each game's kept card bits (else NULL)
    cdef Py_ssize_t ids_cap, nids
    cdef uint64_t seed            # the vector's seed: hand j deals vector_hand_seed(seed, j)
    cdef uint64_t hands_dealt     # hands dealt so far (the next hand's j)
    cdef uint64_t pstate          # the random policy's stream: output d is mix64(pstate + (d + 1) * gamma)
    cdef double reward_scale
    cdef public bint observe      # encode the observations (else obs stays as it is)
    cdef bint busy                # a call is stepping the games (see enter)
    cdef public bint prefetch     # prefetch the next observation row (a tuning switch)
    cdef public int num_threads   # step() on this many native threads (shards of games)
    # the buffers' data (the arrays above own them)
    cdef char* obs_p              # float32 rows, uint8 (compact) or packed bits
    cdef readonly int kind        # 0 float32, 1 uint8, 2 packed
    cdef Py_ssize_t row_bytes
    cdef float* rew_p
    cdef uint8_t* done_p
    cdef int32_t* cur_p
    cdef int64_t* seeds_p
    cdef int64_t* off_p
    cdef int32_t* ids_p
    cdef const int32_t* acts_p    # the actions of the step in progress (threaded step)

    def __cinit__(self, *args, **kwargs):
        self.games = NULL
        self.seat_bits = NULL
        self.n = 0

    def __dealloc__(self):
        free_games(self.games, self.n)
        free(self.seat_bits)

    def __init__(self, Py_ssize_t num_envs, RuleTable table not None, dict settings, dict layout,
                 Py_ssize_t obs_size, bytes ranks, bytes suits, seed, double reward_scale, int kind=0):
        cdef Py_ssize_t i
        cdef int r, d
        cdef Conf* c
        if self.games != NULL:
            raise RuntimeError("VectorCore is initialised once")
        if not 1 <= num_envs <= 1 << 24:
            raise ValueError(f"num_envs must be 1..2**24, got {num_envs}")
        if not ranks:
            raise ValueError("ranks must give a rank 0..14 to each card dealt")
        table.built()
        self.table = table
        c = &self.conf
        conf_from(c, table, settings, layout, obs_size, ranks, suits)
        c.scale = <float>reward_scale
        self.reward_scale = reward_scale
        self.games = <VGame*>calloc(num_envs, sizeof(VGame))
        if self.games == NULL:
            raise MemoryError(f"cannot allocate the structs of {num_envs:,} games "
                              f"({num_envs * sizeof(VGame):,} bytes)")
        self.n = num_envs
        for i in range(num_envs):
            core_init(&self.games[i].pc)
        if not 0 <= kind <= 2:
            raise ValueError(f"kind must be 0, 1 or 2, got {kind}")
        self.kind = kind
        self.row_bytes = (obs_size * sizeof(float), obs_size, c.packed_bytes)[kind]
        self.obs = np.zeros((num_envs, self.row_bytes // (4 if kind == 0 else 1)),
                            np.float32 if kind == 0 else np.uint8)
        if kind == 2 and c.K == 54:
            self.play_bits = np.empty(c.h.v.n_ids, np.uint64)
            play_bits_of(c, <uint64_t*>cnp.PyArray_DATA(self.play_bits))
            c.play_bits = <const uint64_t*>cnp.PyArray_DATA(self.play_bits)
            self.seat_bits = <SeatBits*>calloc(num_envs, sizeof(SeatBits))
            if self.seat_bits == NULL:
                raise MemoryError(f"cannot allocate the card bits of {num_envs:,} games")
            for i in range(num_envs):
                self.seat_bits[i].nhist = -1
        self.rewards = np.zeros((num_envs, c.h.seats), np.float32)
        self.dones = np.zeros(num_envs, np.bool_)
        self.current_players = np.zeros(num_envs, np.int32)
        self.seeds = np.zeros(num_envs, np.int64)
        self.offsets = np.zeros(num_envs + 1, np.int64)
        self.ids_cap = 64 * num_envs
        self.ids_buf = np.zeros(self.ids_cap, np.int32)
        self.ids_view = None
        self.seed = <uint64_t>seed
        self.hands_dealt = 0
        self.pstate = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF) ^ 0x5DEECE66DULL
        self.observe = True
        self.prefetch = True
        self.num_threads = 1
        self.obs_p = <char*>cnp.PyArray_DATA(self.obs)
        self.rew_p = <float*>cnp.PyArray_DATA(self.rewards)
        self.done_p = <uint8_t*>cnp.PyArray_DATA(self.dones)
        self.cur_p = <int32_t*>cnp.PyArray_DATA(self.current_players)
        self.seeds_p = <int64_t*>cnp.PyArray_DATA(self.seeds)
        self.off_p = <int64_t*>cnp.PyArray_DATA(self.offsets)
        self.ids_p = <int32_t*>cnp.PyArray_DATA(self.ids_buf)

    # -- seeds --
    cdef inline void deal_hand(self, Py_ssize_t i, uint64_t j) noexcept nogil:
        """Game ``i`` starts hand ``j`` of the vector (its seed ``vector_hand_seed(seed, j)``)."""
        self.start_hand(i, vector_hand_seed(self.seed, j))

    cdef inline void start_hand(self, Py_ssize_t i, int64_t seed) noexcept nogil:
        """Game ``i`` deals the hand of ``seed`` (its kept card bits forgotten)."""
        hand_new_hand(&self.games[i], &self.conf.h, seed)
        self.seeds_p[i] = seed
        if self.seat_bits != NULL:
            self.seat_bits[i].nhist = -1

    cdef inline void next_hand(self, Py_ssize_t i) noexcept nogil:
        """Game ``i`` starts the vector's next hand."""
        self.deal_hand(i, self.hands_dealt)
        self.hands_dealt += 1

    @property
    def hands_started(self):
        """Hands dealt so far from the vector's seed (the next one is hand ``j`` = this)."""
        return self.hands_dealt

    # -- the passes over the games (nogil) --
    cdef Py_ssize_t refresh(self, Py_ssize_t i, bint observe) noexcept nogil:
        """After game ``i`` moved: its seat, observation and legal-id count (-1: no memory)."""
        cdef VGame* g = &self.games[i]
        cdef Py_ssize_t k
        cdef char* row
        cdef Bits bits
        self.cur_p[i] = g.current
        if observe:
            if self.prefetch and i + 1 < self.n:
                # the next row is written next: ask for its cache lines now (a row is 2.4 KB,
                # the buffer larger than the cache: otherwise each line waits on memory)
                row = self.obs_p + (i + 1) * self.row_bytes
                k = 0
                while k < self.row_bytes:
                    DDZ_PREFETCH_W(row + k)
                    k += 64
            row = self.obs_p + i * self.row_bytes
            if self.kind == 2:
                bits.seats = self.seat_bits + i if self.seat_bits != NULL else NULL
                encode(g, &self.conf, g.current, &bits)
                pack_row(&self.conf, &bits, <uint8_t*>row)
            elif self.kind == 1:
                encode(g, &self.conf, g.current, <uint8_t*>row)
            else:
                encode(g, &self.conf, g.current, <float*>row)
        return hand_count_ids(g, &self.conf.h)

    cdef int write_all_ids(self) except -1:
        """The CSR of legal ids (counts computed), growing the buffer when needed."""
        cdef Py_ssize_t i, total = 0, k
        cdef int64_t* off = self.off_p
        cdef int32_t* ids
        with nogil:
            off[0] = 0
            for i in range(self.n):
                k = hand_count_ids(&self.games[i], &self.conf.h)
                if k < 0:
                    total = -1
                    break
                total += k
                off[i + 1] = total
        if total < 0:
            raise MemoryError()
        if total > self.ids_cap:
            self.ids_cap = max(total, 2 * self.ids_cap)
            self.ids_buf = np.zeros(self.ids_cap, np.int32)
            self.ids_p = <int32_t*>cnp.PyArray_DATA(self.ids_buf)
        ids = self.ids_p
        with nogil:
            for i in range(self.n):
                hand_write_ids(&self.games[i], &self.conf.h, ids + off[i])
        self.nids = total
        self.ids_view = None
        return 0

    cdef int enter(self) except -1:
        """One call at a time steps the games: they are changed without the GIL, so a
        second thread must not come in meanwhile."""
        self.ready()
        if self.busy:
            raise RuntimeError("this VectorGame is being stepped in another thread: one call at a time")
        self.busy = True
        return 0

    def reset(self, const int64_t[::1] seeds=None):
        """Deal a new hand in every game: the next seeds, or ``seeds`` (``int64[num_envs]``,
        each >= 0); the observation buffer."""
        self.enter()
        try:
            return self.reset_(seeds)
        finally:
            self.busy = False

    def legal_masks(self, cnp.int8_t[:, ::1] out):
        """Write the legal ids as 0/1 into ``out`` (``int8[num_envs, num_actions]``)."""
        self.enter()
        try:
            self.legal_masks_(out)
        finally:
            self.busy = False

    def step(self, const int32_t[::1] actions):
        """Take ``actions`` if each is legal in its game: a game that ends is scored and
        restarted; -1. Otherwise nothing is stepped and the first game whose action is not
        legal is returned. The results are in :attr:`obs`, :attr:`rewards`, :attr:`dones`."""
        self.enter()
        try:
            return self.step_(actions)
        finally:
            self.busy = False

    def play(self, Py_ssize_t steps, bint greedy, cnp.int32_t[:, ::1] record=None):
        """Step every game ``steps`` times with the built-in policy chosen in C; the
        observations are encoded once, at the end. ``record`` (``int32[steps, num_envs]``)
        receives the actions. Returns ``(hands finished, rewards summed per seat float64)``."""
        self.enter()
        try:
            return self.play_(steps, greedy, record)
        finally:
            self.busy = False

    cdef object reset_(self, const int64_t[::1] seeds):
        cdef Py_ssize_t i
        self.ready()
        if seeds is not None:
            if seeds.shape[0] != self.n:
                raise ValueError(f"seeds must have {self.n} entries")
            for i in range(self.n):
                if seeds[i] < 0:
                    raise ValueError("a hand seed is >= 0")
        with nogil:
            for i in range(self.n):
                if seeds is None:
                    self.next_hand(i)
                else:
                    self.start_hand(i, seeds[i])
                self.refresh(i, self.observe)
        self.write_all_ids()
        return self.obs

    def legal_ids(self):
        """``(ids int32[M], offsets int64[num_envs + 1])`` (views of reused buffers)."""
        self.ready()
        if self.ids_view is None:
            self.ids_view = self.ids_buf[:self.nids]
        return self.ids_view, self.offsets

    def douzero_rows(self, const uint8_t[::1] multi not None, const int32_t[::1] setkey not None,
                     unsigned int dup_types, tuple buffers=None):
        """DouZero's features of every game in the play phase (``ddz.envs.douzero.get_obs_vector``
        checks the rules and passes the table's readings data: ``multi``, ``setkey``,
        ``dup_types`` as ``ddz.envs._douzero.table_data`` makes them), written by the inline
        functions of ``ddz/envs/_dzfeat.pxd`` that ``get_obs`` uses for one game.

        :returns: ``(position int8[N] (0 landlord, 1 landlord_down, 2 landlord_up, -1 not
            in the play phase), offsets int64[N + 1], action_ids int32[R], x float32[R, 484]
            (a landlord's rows: 373 columns and zeros), x_no_action int8[N, 430] (319 and
            zeros), z int8[N, 5, 162])``: new arrays, or with ``buffers`` (the ``(position,
            offsets, ids, x, x_no_action, z)`` of an earlier call) views of those, refilled
            (``x`` and ``ids`` are replaced by larger arrays when they are too small).
        """
        cdef Py_ssize_t i, n, total = 0, r = 0, m
        cdef VGame* g
        cdef int xl
        self.ready()
        if multi.shape[0] != self.table.view.n_ids or setkey.shape[0] != self.table.view.n_ids:
            raise ValueError("multi and setkey have one entry per id of the table")
        if buffers is None:
            position = np.full(self.n, -1, np.int8)
            offsets = np.zeros(self.n + 1, np.int64)
            xna = np.zeros((self.n, DZ_X_FARMER), np.int8)
            z = np.zeros((self.n, 5, 162), np.int8)
            ids_all = x_all = None
        else:
            position, offsets, ids_all, x_all, xna, z = buffers
            position[:] = -1
        cdef int8_t[::1] pos_v = position
        cdef int64_t[::1] off_v = offsets
        cdef int8_t[:, ::1] xna_v = xna
        cdef int8_t[:, :, ::1] z_v = z
        for i in range(self.n):
            g = &self.games[i]
            if g.phase == PH_PLAYING and g.pc.current >= 0:
                n = core_fill(&g.pc)
                if n < 0:
                    raise MemoryError()
                total += n
        ids = ids_all if ids_all is not None and ids_all.shape[0] >= total else np.empty(max(total, 1), np.int32)
        cdef int32_t[::1] ids_v = ids
        for i in range(self.n):
            g = &self.games[i]
            off_v[i] = r
            if g.phase == PH_PLAYING and g.pc.current >= 0:
                if buffers is not None:       # a landlord's row leaves the farmer's last 111 bytes
                    memset(&xna_v[i, 0], 0, DZ_X_FARMER)
                m = dz_ids(&g.pc, g.pc.v, g.pc.ncodes, &multi[0], &setkey[0], dup_types, &ids_v[0] + r)
                xl = dz_state(&g.pc, g.pc.v, g.landlord, &xna_v[i, 0], &z_v[i, 0, 0])
                if xl < 0:
                    raise ValueError(f"douzero features: game {i}'s cards left or bombs are out of DouZero's range")
                pos_v[i] = (g.pc.current - g.landlord + 3) % 3
                r += m
            elif buffers is not None:
                memset(&xna_v[i, 0], 0, DZ_X_FARMER)
                memset(&z_v[i, 0, 0], 0, DZ_Z_SIZE)
        off_v[self.n] = r
        x = x_all if x_all is not None and x_all.shape[0] >= max(r, 1) else np.empty((max(r, 1), 484), np.float32)
        cdef float[:, ::1] x_v = x
        with nogil:
            for i in range(self.n):
                if pos_v[i] >= 0 and off_v[i + 1] > off_v[i]:
                    g = &self.games[i]
                    dz_rows(g.pc.v, &xna_v[i, 0], 319 if pos_v[i] == 0 else DZ_X_FARMER, &ids_v[0] + off_v[i],
                            off_v[i + 1] - off_v[i], &x_v[off_v[i], 0], 484)
        if buffers is not None:
            return position, offsets, ids, x, xna, z
        return position, offsets, ids[:r], x[:r], xna, z

    cdef int ready(self) except -1:
        if self.games == NULL:
            raise ValueError("this VectorCore was never initialised")
        return 0

    cdef object legal_masks_(self, cnp.int8_t[:, ::1] out):
        cdef Py_ssize_t i, k
        cdef const int64_t* off = self.off_p
        cdef const int32_t* ids = self.ids_p
        self.ready()
        if out.shape[0] != self.n or out.shape[1] < self.conf.h.P + 6:
            raise ValueError(f"out must have shape ({self.n}, {self.conf.h.P + 6})")
        with nogil:
            for i in range(self.n):
                memset(&out[i, 0], 0, out.shape[1])
                for k in range(off[i], off[i + 1]):
                    out[i, ids[k]] = 1

    def first_illegal(self, const int32_t[::1] actions):
        """The first game whose action is not legal, or -1 (nothing is stepped)."""
        self.check_actions(actions)
        return self.first_illegal_(&actions[0], min(self.num_threads, self.n, 256))

    cdef int check_actions(self, const int32_t[::1] actions) except -1:
        """An initialised vector and one action per game (trusted ids otherwise)."""
        self.ready()
        if actions.shape[0] != self.n:
            raise ValueError(f"actions must have {self.n} entries")
        return 0

    cdef Py_ssize_t first_illegal_(self, const int32_t* actions, int k) noexcept:
        """:meth:`first_illegal` on ``k`` threads (shards of games; the first shard that
        has one names it, so the answer is the same for every ``k``)."""
        cdef Py_ssize_t bad[256]
        cdef Py_ssize_t s, n = self.n
        with nogil:
            if k == 1:
                bad[0] = self.shard_illegal(0, n, actions)
            else:
                for s in prange(k, num_threads=k, schedule="static"):
                    bad[s] = self.shard_illegal(n * s // k, n * (s + 1) // k, actions)
        for s in range(k):
            if bad[s] >= 0:
                return bad[s]
        return -1

    cdef Py_ssize_t shard_illegal(self, Py_ssize_t lo, Py_ssize_t hi, const int32_t* actions) noexcept nogil:
        """The first game of ``lo..hi`` whose action is not legal, or -1."""
        cdef Py_ssize_t i
        for i in range(lo, hi):
            if not hand_is_legal(&self.games[i], &self.conf.h, actions[i]):
                return i
        return -1

    # -- step() on several threads: shards of games, deterministic passes --
    cdef Py_ssize_t shard_apply(self, Py_ssize_t lo, Py_ssize_t hi, const int32_t* actions) noexcept nogil:
        """Pass 1 of a threaded step: games ``lo..hi`` take their actions (rewards, dones);
        each whose hand goes on is encoded and its legal ids counted into ``off_p[i + 1]``
        at once, while it is in cache. Returns how many hands ended, or -1 when out of memory."""
        cdef Py_ssize_t i, k, ended = 0
        cdef int res, S = self.conf.h.seats
        cdef VGame* g
        for i in range(lo, hi):
            g = &self.games[i]
            res = hand_apply(g, &self.conf.h, actions[i])
            if res < 0:
                return -1
            rewards(g, &self.conf, res, self.rew_p + i * S)
            self.done_p[i] = res != 0
            if res:
                ended += 1
            else:
                k = self.refresh(i, self.observe)
                if k < 0:
                    return -1
                self.off_p[i + 1] = k
        return ended

    cdef Py_ssize_t shard_next(self, Py_ssize_t lo, Py_ssize_t hi, uint64_t hand, const uint8_t* ended,
                               bint refresh) noexcept nogil:
        """The games of ``lo..hi`` marked in ``ended`` start hands ``hand``, ``hand + 1``, ...
        in game order (so the hands are those of one thread); with ``refresh`` (pass 2 of a
        threaded step) each is encoded and its legal ids counted into ``off_p[i + 1]``.
        Returns -1 when out of memory, else 0."""
        cdef Py_ssize_t i, k
        for i in range(lo, hi):
            if ended[i]:
                self.deal_hand(i, hand)
                hand += 1
                if refresh:
                    k = self.refresh(i, self.observe)
                    if k < 0:
                        return -1
                    self.off_p[i + 1] = k
        return 0

    cdef void shard_ids(self, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
        """Pass 3: the legal ids of ``lo..hi`` at their offsets."""
        cdef Py_ssize_t i
        for i in range(lo, hi):
            hand_write_ids(&self.games[i], &self.conf.h, self.ids_p + self.off_p[i])

    cdef object step_threads(self, int k):
        """:meth:`step_` on ``k`` threads (the actions checked): the same results as one."""
        cdef Py_ssize_t ended[256]
        cdef uint64_t at[256]
        cdef Py_ssize_t s, i, n = self.n, total = 0
        cdef bint failed = False
        cdef const int32_t* acts = self.acts_p
        with nogil:
            for s in prange(k, num_threads=k, schedule="static"):
                ended[s] = self.shard_apply(n * s // k, n * (s + 1) // k, acts)
        for s in range(k):
            if ended[s] < 0:
                raise MemoryError()
            at[s] = self.hands_dealt
            self.hands_dealt += ended[s]
        with nogil:
            for s in prange(k, num_threads=k, schedule="static"):
                if ended[s] and self.shard_next(n * s // k, n * (s + 1) // k, at[s], self.done_p, True) < 0:
                    failed = True
        if failed:
            raise MemoryError()
        self.off_p[0] = 0
        for i in range(n):
            total += self.off_p[i + 1]
            self.off_p[i + 1] = total
        if total > self.ids_cap:
            self.ids_cap = max(total, 2 * self.ids_cap)
            self.ids_buf = np.zeros(self.ids_cap, np.int32)
            self.ids_p = <int32_t*>cnp.PyArray_DATA(self.ids_buf)
        with nogil:
            for s in prange(k, num_threads=k, schedule="static"):
                self.shard_ids(n * s // k, n * (s + 1) // k)
        self.nids = total
        self.ids_view = None
        return -1

    cdef object step_(self, const int32_t[::1] actions):
        cdef Py_ssize_t i
        cdef int res = 0
        cdef VGame* g
        cdef float* rew = self.rew_p
        cdef uint8_t* done = self.done_p
        cdef int S = self.conf.h.seats
        cdef int threads = min(self.num_threads, self.n, 256)
        self.check_actions(actions)
        i = self.first_illegal_(&actions[0], threads)
        if i >= 0:
            return i
        if threads > 1:
            self.acts_p = &actions[0]
            return self.step_threads(threads)
        cdef Py_ssize_t k, total = 0
        cdef bint fits = True
        with nogil:
            self.off_p[0] = 0
            for i in range(self.n):
                g = &self.games[i]
                res = hand_apply(g, &self.conf.h, actions[i])
                if res < 0:
                    break
                rewards(g, &self.conf, res, rew + i * S)
                done[i] = res != 0
                if res:
                    self.next_hand(i)
                k = self.refresh(i, self.observe)
                if k < 0:
                    res = -1
                    break
                # the legal ids in the same pass, while the game is in cache
                if fits and total + k <= self.ids_cap:
                    hand_write_ids(g, &self.conf.h, self.ids_p + total)
                else:
                    fits = False
                total += k
                self.off_p[i + 1] = total
        if res < 0:
            raise MemoryError()
        if fits:
            self.nids = total
            self.ids_view = None
        else:
            self.write_all_ids()
        return -1

    cdef Py_ssize_t shard_play(self, Py_ssize_t lo, Py_ssize_t hi, uint64_t draw0, bint greedy,
                               int32_t* rec_row, int32_t* buf, uint8_t* ended, int64_t* sums) noexcept nogil:
        """One step of :meth:`play` for games ``lo..hi``: each chooses (the random policy's
        draw for game ``i`` is the policy stream's output number ``draw0 + i``), records and
        applies its action; an ended hand is marked in ``ended`` (its next hand is dealt by
        the caller, in game order) and its scores added to ``sums``. Returns the hands
        ended, or -1 when out of memory."""
        cdef Py_ssize_t i, k, count = 0
        cdef int res, s
        cdef int32_t a
        cdef uint64_t state
        cdef VGame* g
        for i in range(lo, hi):
            g = &self.games[i]
            k = hand_count_ids(g, &self.conf.h)
            if k < 0:
                return -1
            hand_write_ids(g, &self.conf.h, buf)
            state = self.pstate + (draw0 + <uint64_t>i) * <uint64_t>0x9E3779B97F4A7C15ULL
            a = choose(g, &self.conf, buf, k, greedy, &state)
            if rec_row != NULL:
                rec_row[i] = a
            res = hand_apply(g, &self.conf.h, a)
            if res < 0:
                return -1
            ended[i] = res != 0
            if res:
                count += 1
                if res == HAND_OVER:
                    for s in range(self.conf.h.seats):
                        sums[s] += g.scores[s]
        return count

    cdef object play_(self, Py_ssize_t steps, bint greedy, cnp.int32_t[:, ::1] record):
        """``steps`` steps of every game with the built-in policy, on ``num_threads``
        threads (shards of games; after each step the ended hands are dealt in game order),
        the same games, records and totals for every number of threads."""
        cdef Py_ssize_t t = 0, done = 0, upto, i, s, finished = 0, n = self.n
        cdef int k = min(self.num_threads, n, 256), seat, S = self.conf.h.seats
        cdef Py_ssize_t most = self.table.max_moves + 8
        cdef Py_ssize_t count[256]
        cdef uint64_t at[256]
        cdef int64_t sums[256][MAX_SEATS]
        cdef int64_t total[MAX_SEATS]
        cdef bint rec = record is not None, failed = False, dealt
        cdef int32_t* rec_row = NULL
        cdef int32_t* bufs
        cdef uint8_t* ended
        self.ready()
        if steps < 0 or (rec and (record.shape[0] != steps or record.shape[1] != n)):
            raise ValueError(f"steps must be >= 0 and record of shape (steps, {n})")
        bufs = <int32_t*>calloc(k * most, sizeof(int32_t))
        ended = <uint8_t*>calloc(n, sizeof(uint8_t))
        if bufs == NULL or ended == NULL:
            free(bufs)
            free(ended)
            raise MemoryError()
        memset(sums, 0, sizeof(sums))
        try:
            while done < steps:
                # chunks of about 2**18 decisions (tens of milliseconds), and of at most 128
                # steps on threads (two barriers a step, each slow when a core is taken by
                # another process), and Ctrl-C between them
                upto = min(steps, done + max(1, min((1 << 18) // n, 128 if k > 1 else steps)))
                with nogil:
                    t = done
                    while t < upto:
                        if rec:
                            rec_row = &record[t, 0]
                        if k == 1:
                            count[0] = self.shard_play(0, n, <uint64_t>t * <uint64_t>n, greedy, rec_row, bufs,
                                                       ended, &sums[0][0])
                        else:
                            for s in prange(k, num_threads=k, schedule="static"):
                                count[s] = self.shard_play(n * s // k, n * (s + 1) // k, <uint64_t>t * <uint64_t>n,
                                                           greedy, rec_row, bufs + s * most, ended, &sums[s][0])
                        dealt = False
                        for s in range(k):
                            if count[s] < 0:
                                failed = True
                            else:
                                at[s] = self.hands_dealt
                                self.hands_dealt += count[s]
                                finished += count[s]
                                dealt = dealt or count[s] > 0
                        if failed:
                            break
                        if dealt and k == 1:
                            self.shard_next(0, n, at[0], ended, False)
                        elif dealt:
                            for s in prange(k, num_threads=k, schedule="static"):
                                if count[s]:
                                    self.shard_next(n * s // k, n * (s + 1) // k, at[s], ended, False)
                        t += 1
                done = t
                if failed:
                    break
                if done < steps:
                    PyErr_CheckSignals()        # KeyboardInterrupt: the steps done so far stand
        finally:
            free(bufs)
            free(ended)
            if not failed:
                # whether all steps ran or Ctrl-C stopped them after ``done``: the games are
                # between two steps; the policy's stream, observations and ids follow them
                if not greedy:
                    self.pstate += <uint64_t>done * <uint64_t>n * <uint64_t>0x9E3779B97F4A7C15ULL
                with nogil:
                    for i in range(n):
                        self.refresh(i, self.observe)
                self.write_all_ids()
        if failed:
            raise MemoryError()
        for seat in range(S):
            total[seat] = 0
            for s in range(k):
                total[seat] += sums[s][seat]
        return finished, np.array([total[seat] for seat in range(S)], np.float64) * self.reward_scale

    # -- inspection --
    cdef int check_index(self, Py_ssize_t i) except -1:
        self.ready()
        if not 0 <= i < self.n:
            raise IndexError(f"game {i} of {self.n}")
        return 0

    def phase(self, Py_ssize_t i):
        """The phase name of game ``i``."""
        self.check_index(i)
        return PHASE_NAMES[self.games[i].phase]

    def hands(self, Py_ssize_t i):
        """Every seat's cards in game ``i`` as a new ``int64[seats, 15]`` array."""
        self.check_index(i)
        cdef VGame* g = &self.games[i]
        cdef int s, r
        out = np.zeros((self.conf.h.seats, NUM_RANKS), np.int64)
        cdef int64_t[:, ::1] o = out
        for s in range(self.conf.h.seats):
            for r in range(NUM_RANKS):
                o[s, r] = g.pc.hands[s][r] if g.phase == PH_PLAYING else g.hands[s][r]
        return out

    def info(self, Py_ssize_t i):
        """``(landlord, bid, robs, doubles, redeals, bottom_bonus, open_play, multiplier)`` of
        game ``i`` (-1: no landlord; ``open_play`` -1 not chosen, 0, 1; ``multiplier`` the
        referee's, as ``ddz.Game.multiplier``: robs, doubles, the bottom bonus, open play,
        bombs and rockets counted so far)."""
        self.check_index(i)
        cdef VGame* g = &self.games[i]
        cdef int n = g.robs + g.ndoubles + ((g.pc.bombs + g.pc.rockets) if g.in_play else 0)
        return (g.landlord, g.bid, g.robs, g.ndoubles, g.ndeals - 1, g.bonus, g.open,
                (<int64_t>hand_factor(g)) << n)

    def __reduce__(self):
        raise TypeError("a C VectorGame cannot be pickled")


# -- one seat against bots, N times (the Gymnasium vector env) ---------------------------

@cython.final
cdef class SeatCore:
    """``num_envs`` hands in C, one seat of each played by the caller and the others by
    random bots in C: each other seat's choice is ``legal[randrange(len(legal))]`` of its
    own ``random.Random(bot seed)``, over the legal actions in ``ddz.Game.legal_actions()``
    order (ascending env ids), as :class:`ddz.RandomBot` chooses. The engine of
    ``ddz.envs.gymnasium.DouDizhuVectorEnv``, which checks the arguments and keeps the
    episodes' generators; hands do not restart by themselves.

    :param seat: the caller's seat. Other arguments as :class:`VectorCore`'s."""

    cdef VGame* games
    cdef MTState* bots            # per game and seat: the bots' generators
    cdef int32_t* buf
    cdef Py_ssize_t n, cap
    cdef Conf conf
    cdef RuleTable table
    cdef readonly int seat
    cdef double scale

    def __cinit__(self, *args, **kwargs):
        self.games = NULL
        self.bots = NULL
        self.buf = NULL
        self.n = 0

    def __dealloc__(self):
        free_games(self.games, self.n)
        free(self.bots)
        free(self.buf)

    def __init__(self, Py_ssize_t num_envs, RuleTable table not None, dict settings, dict layout,
                 Py_ssize_t obs_size, bytes ranks, bytes suits, int seat, double reward_scale):
        cdef Py_ssize_t i
        if self.games != NULL:
            raise RuntimeError("SeatCore is initialised once")
        if not 1 <= num_envs <= 1 << 24:
            raise ValueError(f"num_envs must be 1..2**24, got {num_envs}")
        table.built()
        self.table = table
        conf_from(&self.conf, table, settings, layout, obs_size, ranks, suits)
        if not 0 <= seat < self.conf.h.seats:
            raise ValueError(f"seat must be 0..{self.conf.h.seats - 1}")
        self.seat = seat
        self.scale = reward_scale
        self.cap = table.max_moves + 8
        self.games = <VGame*>calloc(num_envs, sizeof(VGame))
        self.bots = <MTState*>calloc(num_envs * MAX_SEATS, sizeof(MTState))
        self.buf = <int32_t*>calloc(self.cap, sizeof(int32_t))
        if self.games == NULL or self.bots == NULL or self.buf == NULL:
            raise MemoryError(f"cannot allocate {num_envs:,} games")
        self.n = num_envs
        for i in range(num_envs):
            core_init(&self.games[i].pc)
            self.games[i].phase = PH_OVER
            self.games[i].current = -1

    cdef int check(self, Py_ssize_t i) except -1:
        if self.games == NULL:
            raise ValueError("this SeatCore was never initialised")
        if not 0 <= i < self.n:
            raise IndexError(f"game {i} of {self.n}")
        return 0

    cdef int bots_play(self, Py_ssize_t i) noexcept nogil:
        """The other seats of game ``i`` act until the caller's turn or the end: 0 (the
        caller's turn), ``HAND_OVER``, ``HAND_VOID``, or -1 when out of memory."""
        cdef VGame* g = &self.games[i]
        cdef Py_ssize_t k
        cdef int res
        while g.phase != PH_OVER and g.current != self.seat:
            k = hand_count_ids(g, &self.conf.h)
            if k < 0:
                return -1
            hand_write_ids(g, &self.conf.h, self.buf)
            res = hand_apply(g, &self.conf.h, self.buf[mt_below(&self.bots[i * MAX_SEATS + g.current], <uint32_t>k)])
            if res != 0:
                return res
        return 0 if g.phase != PH_OVER else HAND_VOID

    def seed_bots(self, Py_ssize_t i, tuple seeds):
        """Seed the bots of game ``i``: one int >= 0 per other seat, in seat order."""
        cdef int s, k = 0
        self.check(i)
        if len(seeds) != self.conf.h.seats - 1:
            raise ValueError("one bot seed per other seat")
        for s in range(self.conf.h.seats):
            if s != self.seat:
                if not 0 <= seeds[k] < 2 ** 64:
                    raise ValueError("a bot seed is an int 0 .. 2**64 - 1")
                mt_seed_u64(&self.bots[i * MAX_SEATS + s], <uint64_t>seeds[k])
                k += 1

    def deal(self, Py_ssize_t i, int64_t seed):
        """Deal ``ddz.Game(rules, seed=seed)``'s hand in game ``i`` and let the bots act:
        0 when it is the caller's turn, else the hand ended first (``HAND_OVER`` or
        ``HAND_VOID``)."""
        cdef int res
        self.check(i)
        if seed < 0:
            raise ValueError("a hand seed is >= 0")
        hand_new_hand(&self.games[i], &self.conf.h, seed)
        res = self.bots_play(i)
        if res < 0:
            raise MemoryError()
        return res

    def legal(self, Py_ssize_t i, int64_t a):
        """Whether env id ``a`` is legal for the caller in game ``i``."""
        self.check(i)
        return (self.games[i].current == self.seat and 0 <= a < self.conf.h.P + 6
                and hand_is_legal(&self.games[i], &self.conf.h, <int32_t>a))

    def step(self, const int64_t[::1] actions, const uint8_t[::1] active, int8_t[::1] status, double[::1] rewards):
        """The caller's seat takes ``actions[i]`` in every game with ``active[i]``, then the
        bots act: ``status[i]`` 0 (the caller's turn again), 1 (``HAND_OVER``; ``rewards[i]``
        its score times the scale), 2 (void), -2 (the action was not legal: nothing done)."""
        cdef Py_ssize_t i
        cdef int64_t a
        cdef int res = 0
        cdef VGame* g
        if self.games == NULL:
            raise ValueError("this SeatCore was never initialised")
        if actions.shape[0] != self.n or active.shape[0] != self.n or status.shape[0] != self.n \
                or rewards.shape[0] != self.n:
            raise ValueError(f"actions, active, status and rewards need {self.n} entries")
        with nogil:
            for i in range(self.n):
                rewards[i] = 0
                status[i] = 0
                if not active[i]:
                    continue
                g = &self.games[i]
                a = actions[i]
                if not (g.current == self.seat and 0 <= a < self.conf.h.P + 6
                        and hand_is_legal(g, &self.conf.h, <int32_t>a)):
                    status[i] = -2
                    continue
                res = hand_apply(g, &self.conf.h, <int32_t>a)
                if res == 0:
                    res = self.bots_play(i)
                if res < 0:
                    break
                status[i] = res
                if res == HAND_OVER:
                    rewards[i] = <double>g.scores[self.seat] * self.scale
        if res < 0:
            raise MemoryError()

    def observe(self, float[:, ::1] obs, int8_t[:, ::1] mask, const uint8_t[::1] blank):
        """The caller's observation of every game into ``obs`` and its legal ids as 0/1 into
        ``mask`` (zeros when it is not its turn, or where ``blank[i]``)."""
        cdef Py_ssize_t i, k = 0, j
        cdef VGame* g
        if self.games == NULL:
            raise ValueError("this SeatCore was never initialised")
        if obs.shape[0] != self.n or obs.shape[1] != self.conf.obs_size or mask.shape[0] != self.n \
                or mask.shape[1] != self.conf.h.P + 6 or blank.shape[0] != self.n:
            raise ValueError("obs, mask or blank of the wrong shape")
        with nogil:
            for i in range(self.n):
                g = &self.games[i]
                encode(g, &self.conf, self.seat, &obs[i, 0])
                memset(&mask[i, 0], 0, mask.shape[1])
                if not blank[i] and g.current == self.seat and g.phase != PH_OVER:
                    k = hand_count_ids(g, &self.conf.h)
                    if k < 0:
                        break
                    hand_write_ids(g, &self.conf.h, self.buf)
                    for j in range(k):
                        mask[i, self.buf[j]] = 1
        if k < 0:
            raise MemoryError()

    def outcome(self, Py_ssize_t i):
        """How game ``i``'s hand ended: ``None`` while it goes on; ``("void", deals)``; or
        ``(landlord, bid, bombs, rockets, spring, anti_spring, doubles, robs, bottom_bonus,
        multiplier, score, scores, open_play)``."""
        self.check(i)
        cdef VGame* g = &self.games[i]
        if g.phase != PH_OVER:
            return None
        if g.landlord < 0:
            return ("void", g.ndeals)
        return (g.landlord, g.bid, g.pc.bombs, g.pc.rockets, bool(g.spring), bool(g.anti), g.ndoubles, g.robs,
                g.bonus, g.multiplier, g.bid * g.multiplier, tuple([g.scores[s] for s in range(self.conf.h.seats)]),
                g.open == 1)

    def __reduce__(self):
        raise TypeError("a SeatCore cannot be pickled")


# -- the encoder of one ddz.Game ---------------------------------------------------------

@cython.final
cdef int read_counts(object counts, uint8_t* dst, const uint8_t* limit, str what) except -1:
    """``counts`` (15 ints, each within the deck's ``limit``) into ``dst``; a ValueError
    naming ``what`` otherwise (the encoder's checks of its hands and bottom)."""
    cdef int r, x
    if len(counts) != NUM_RANKS:
        raise ValueError(f"{what} is 15 counts")
    for r in range(NUM_RANKS):
        x = counts[r]
        if not 0 <= x <= limit[r]:
            raise ValueError("a count beyond the deck")
        dst[r] = <uint8_t>x
    return 0


cdef class GameEncoder:
    """The C observation encoder for one :class:`ddz.Game` at a time (the PettingZoo and
    Gymnasium envs, through :func:`ddz.envs.core.encode_observation`): the game's fields
    are copied into a game struct and :func:`encode` (the vector game's) writes the row.
    Arguments as :class:`VectorCore`'s; trusted."""

    cdef Conf conf
    cdef RuleTable table
    cdef readonly Py_ssize_t obs_size

    def __cinit__(self, *args, **kwargs):
        self.conf.h.v = NULL

    def __init__(self, RuleTable table not None, dict settings, dict layout, Py_ssize_t obs_size, bytes ranks,
                 bytes suits):
        self.obs_size = obs_size
        table.built()
        self.table = table
        conf_from(&self.conf, table, settings, layout, obs_size, ranks, suits)

    def encode(self, int seat, int phase, int current, PlayState ps, hands, left, bottom, int landlord,
               int bid, int robs, bids, doubles, int ndoubles, int bonus, int open_play, int face_seat,
               int face_rank, cnp.float32_t[::1] out):
        """Write the observation of ``seat`` into ``out`` (``float32[obs_size]``).

        :param phase: 0 bidding, 1 doubling, 3 playing, 4 over. :param current: the seat to
            act, -1 when over. :param ps: the game's ``PlayState`` (``None`` before the play
            phase). :param hands: the hands before the play phase (with the bottom once
            there is a landlord): the start of the play phase. :param left: cards left
            before the play phase. :param bottom: 15 counts, or ``None`` when not shown.
        :param bids: ``(seat, value)`` of this deal's auction. :param doubles: per seat
            ``None``/``False``/``True``. :param bonus: the bottom bonus so far (1..4).
        :param open_play: -1 not chosen, 0, 1. :param face_seat, face_rank: the face-up
            card (-1, 0 when none).
        """
        cdef VGame g
        cdef int s, S = self.conf.h.seats
        if self.conf.h.v == NULL:
            raise ValueError("this GameEncoder was never initialised")
        if out.shape[0] != self.conf.obs_size:
            raise ValueError("out has the wrong size")
        if not (0 <= seat < S and phase in (0, 1, 2, 3, 4) and -1 <= current < S and -1 <= landlord < S
                and 0 <= bid <= 3 and 0 <= robs <= 64 and 0 <= ndoubles <= S and 1 <= bonus <= 4
                and -1 <= open_play <= 1 and -1 <= face_seat < S and 0 <= face_rank < NUM_RANKS
                and (open_play != 1 or landlord >= 0)):
            raise ValueError("a seat, phase, bid or count out of range")
        if len(hands) != S or len(left) != S or len(doubles) != S:
            raise ValueError(f"hands, left and doubles need {S} entries")
        memset(&g, 0, sizeof(VGame))
        if ps is not None:
            if ps.c.v != self.conf.h.v:
                raise ValueError("the play state is of another table")
            memcpy(&g.pc, &ps.c, sizeof(PlayCore))      # read only: its buffers stay the PlayState's
            g.in_play = 1
        g.phase = phase
        g.current = current
        g.landlord = landlord
        for s in range(S):
            read_counts(hands[s], g.hands[s], self.conf.h.v.opts.limit, "a hand")
            g.left[s] = left[s]
            d = doubles[s]
            g.doubles[s] = -1 if d is None else (1 if d else 0)
        if bottom is not None:
            read_counts(bottom, g.bottom, self.conf.h.v.opts.limit, "the bottom")
        g.bid, g.robs, g.ndoubles = bid, robs, ndoubles
        g.bonus, g.open, g.face_seat, g.face_rank = bonus, open_play, face_seat, face_rank
        for who, value in bids:
            if not (0 <= who < S and 0 <= value <= 3):
                raise ValueError("a bid (seat, value) out of range")
            g.word[<int>who] = <int8_t>(1 + value)
        with nogil:
            encode(&g, &self.conf, seat, &out[0])

    def encode_hand(self, int seat, int phase, int current, PlayState ps, CHand hand not None, int face_seat,
                    int face_rank, cnp.float32_t[::1] out):
        """:meth:`encode` for a game on the C hand (``ddz.game._game.CHand``): the hand's
        struct is read as it is (its cards, auction, doubles, bonus and open play, the very
        fields of the vector's games), with the game's ``phase``, seat to act (-1 when over)
        and play state (``None`` before the play phase), and the face-up card (-1, 0: none)."""
        cdef VGame g
        cdef int S = self.conf.h.seats
        if self.conf.h.v == NULL:
            raise ValueError("this GameEncoder was never initialised")
        if out.shape[0] != self.conf.obs_size:
            raise ValueError("out has the wrong size")
        if hand.rules.c.v != self.conf.h.v or hand.rules.c.seats != S or hand.rules.c.four != self.conf.h.four:
            raise ValueError("the hand is of other rules")
        if not (0 <= seat < S and phase in (0, 1, 2, 3, 4) and -1 <= current < S and -1 <= face_seat < S
                and 0 <= face_rank < NUM_RANKS):
            raise ValueError("a seat, phase or face-up card out of range")
        memcpy(&g, &hand.h, sizeof(VGame))
        g.dealer = 0
        if ps is not None:
            if ps.c.v != self.conf.h.v:
                raise ValueError("the play state is of another table")
            memcpy(&g.pc, &ps.c, sizeof(PlayCore))      # read only: its buffers stay the PlayState's
            g.in_play = 1
        else:
            memset(&g.pc, 0, sizeof(PlayCore))
            g.in_play = 0
        g.phase = phase
        g.current = current
        g.face_seat, g.face_rank = face_seat, face_rank
        with nogil:
            encode(&g, &self.conf, seat, &out[0])
