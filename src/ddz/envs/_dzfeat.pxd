# cython: language_level=3
"""DouZero's features of one play-phase position, as inline C functions (no module of its
own): ``ddz.envs._douzero`` (one ``Game``) and ``ddz.envs._vector`` (every game of a
``VectorGame``) both ``cimport`` them, so the two cannot drift. Layout and meaning:
``ddz.envs.douzero``. The functions trust their arguments (a three-player one-deck play
state under DouZero's move rules, ``codes`` filled) and write only the buffers given.
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from ddz.core._core cimport CODE_TYPE_SHIFT, NUM_RANKS, T_BOMB, T_ROCKET, TableView, view_index
from ddz.game._game cimport Entry, PlayCore

cdef enum:
    DZ_ROW = 54              # the columns of one card set
    DZ_X_LORD = 319          # x_no_action of the landlord
    DZ_X_FARMER = 430        # x_no_action of a farmer
    DZ_Z_MOVES = 15
    DZ_Z_SIZE = 810          # 5 x 162


ctypedef fused dz_cell:        # a feature row: int8 (the state, the history) or float32 (x_batch)
    int8_t
    float


cdef inline void dz_row(const uint8_t* cnt, dz_cell* out) noexcept nogil:
    """DouZero's ``_cards2array`` of 15 counts into 54 cells."""
    cdef int r, c
    for r in range(13):
        c = cnt[r]
        out[4 * r] = c > 0
        out[4 * r + 1] = c > 1
        out[4 * r + 2] = c > 2
        out[4 * r + 3] = c > 3
    out[52] = cnt[13]
    out[53] = cnt[14]


cdef inline Py_ssize_t dz_ids(const PlayCore* c, const TableView* v, Py_ssize_t n, const uint8_t* multi,
                              const int32_t* setkey, uint32_t dup_types, int32_t* ids) noexcept nogil:
    """The ids of the distinct legal actions (``c.codes[0:n]``, move order, a card set's
    first reading kept) into ``ids``; their number."""
    cdef Py_ssize_t i, j, m = 0, pid
    cdef int64_t code
    cdef bint first
    for i in range(n):
        code = c.codes[i]
        pid = view_index(v, code)
        if (dup_types >> ((code >> CODE_TYPE_SHIFT) & 31)) & 1 and multi[pid]:
            first = True
            for j in range(m):
                if setkey[ids[j]] == setkey[pid]:
                    first = False
                    break
            if not first:
                continue
        ids[m] = <int32_t>pid
        m += 1
    return m


cdef inline int dz_state(const PlayCore* c, const TableView* v, int lord, int8_t* xna, int8_t* z) noexcept nogil:
    """``x_no_action`` of the seat to act into ``xna`` (430 bytes of room) and ``z`` (810);
    the length of ``x_no_action`` (319 or 430), or -1 when cards left or bombs would index
    past DouZero's one-hots (nothing a three-player one-deck game reaches)."""
    cdef const uint8_t* counts = v.counts
    cdef int seat = c.current
    cdef int pos = (seat - lord + 3) % 3
    cdef int up = (lord + 2) % 3, down = (lord + 1) % 3
    cdef int mate, s, r, t, k, xna_len
    cdef Py_ssize_t h, nhist = c.nhist, pid
    cdef int32_t last_of[3]
    cdef int32_t last_move = 0       # DouZero's last_move: the last play, or the one before a pass
    cdef int bombs = 0
    cdef uint8_t played[3][NUM_RANKS + 1]
    cdef uint64_t lo[3]
    cdef uint64_t hi[3]
    cdef uint64_t word
    cdef uint8_t other[NUM_RANKS]
    cdef const Entry* e
    cdef int64_t code

    # the history: cards played and last move per seat, bombs, the last move not a pass.
    # A seat's played counts are summed eight ranks at a time (no count exceeds 4, so
    # no byte carries into the next): ranks 0..7 in lo, ranks 7..14 in hi (rank 7 twice)
    memset(lo, 0, sizeof(lo))
    memset(hi, 0, sizeof(hi))
    last_of[0] = last_of[1] = last_of[2] = 0
    for h in range(nhist):
        e = &c.hist[h]
        pid = e.id
        last_of[e.seat] = <int32_t>pid
        if pid:
            code = v.codes[pid]
            t = (code >> CODE_TYPE_SHIFT) & 31
            bombs += t == T_BOMB or t == T_ROCKET
            memcpy(&word, counts + pid * NUM_RANKS, 8)
            lo[e.seat] += word
            memcpy(&word, counts + pid * NUM_RANKS + 7, 8)
            hi[e.seat] += word
    for s in range(3):
        memcpy(played[s], &lo[s], 8)
        memcpy(played[s] + 7, &hi[s], 8)
    if nhist:
        last_move = c.hist[nhist - 1].id
        if last_move == 0 and nhist >= 2:
            last_move = c.hist[nhist - 2].id
    for r in range(NUM_RANKS):
        other[r] = 0
    for s in range(3):
        if s != seat:
            for r in range(NUM_RANKS):
                other[r] += c.hands[s][r]
    if not (0 < c.left[up] <= 17 and 0 < c.left[down] <= 17 and 0 < c.left[lord] <= 20 and 0 <= bombs <= 14):
        return -1

    xna_len = DZ_X_LORD if pos == 0 else DZ_X_FARMER
    memset(xna, 0, xna_len)
    dz_row(c.hands[seat], xna)
    dz_row(other, xna + DZ_ROW)
    if pos == 0:
        dz_row(counts + last_move * NUM_RANKS, xna + 2 * DZ_ROW)
        dz_row(played[up], xna + 3 * DZ_ROW)
        dz_row(played[down], xna + 4 * DZ_ROW)
        xna[5 * DZ_ROW + c.left[up] - 1] = 1
        xna[5 * DZ_ROW + 17 + c.left[down] - 1] = 1
        xna[5 * DZ_ROW + 34 + bombs] = 1
    else:
        mate = down if pos == 2 else up
        dz_row(played[lord], xna + 2 * DZ_ROW)
        dz_row(played[mate], xna + 3 * DZ_ROW)
        dz_row(counts + last_move * NUM_RANKS, xna + 4 * DZ_ROW)
        dz_row(counts + last_of[lord] * NUM_RANKS, xna + 5 * DZ_ROW)
        dz_row(counts + last_of[mate] * NUM_RANKS, xna + 6 * DZ_ROW)
        xna[7 * DZ_ROW + c.left[lord] - 1] = 1
        xna[7 * DZ_ROW + 20 + c.left[mate] - 1] = 1
        xna[7 * DZ_ROW + 37 + bombs] = 1

    # z: the last 15 moves, padded in front
    memset(z, 0, DZ_Z_SIZE)
    h = nhist - DZ_Z_MOVES if nhist > DZ_Z_MOVES else 0
    k = DZ_Z_MOVES - <int>(nhist - h)
    while h < nhist:
        dz_row(counts + c.hist[h].id * NUM_RANKS, z + k * DZ_ROW)
        h += 1
        k += 1
    return xna_len


cdef inline void dz_rows(const TableView* v, const int8_t* xna, int xna_len, const int32_t* ids, Py_ssize_t m,
                         float* out, Py_ssize_t stride) noexcept nogil:
    """``m`` rows of ``stride`` float32 at ``out``: ``x_no_action`` then action ``ids[i]``'s
    54 columns, zeros after them (a landlord's row in a farmer-wide block)."""
    cdef float tmpl[DZ_X_FARMER]
    cdef Py_ssize_t i
    cdef int k, used = xna_len + DZ_ROW
    for k in range(xna_len):
        tmpl[k] = xna[k]
    for i in range(m):
        memcpy(out, tmpl, xna_len * sizeof(float))
        dz_row(v.counts + ids[i] * NUM_RANKS, out + xna_len)
        if stride > used:
            memset(out + used, 0, (stride - used) * sizeof(float))
        out += stride
