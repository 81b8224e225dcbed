# cython: language_level=3
"""DouZero's features of a :class:`ddz.Game` in C: the compiled half of
:func:`ddz.envs.douzero.get_obs` (layout and meaning in :mod:`ddz.envs.douzero`).

It reads the game's play state (the core's ``PlayCore``, ``ddz/_game.pxd``: hands, the
history of ids, the cached legal codes) and the rule set's table (each id's 15 counts and
code), and writes DouZero's arrays directly: nothing is built per card or per move in
Python. :func:`ddz.envs.douzero.get_obs_py` is its plain-Python twin; the tests require
equal dicts.

Anything but the fast case (a ``ddz.Game`` whose rules were already accepted, in its play
phase, on a compiled play state) goes through the Python checks of
``ddz.envs.douzero`` (which raise ``DdzError``) and, on a pure-Python play state, to the
twin.
"""

cimport cython
cimport numpy as cnp
from cpython.list cimport PyList_GET_ITEM, PyList_New, PyList_SET_ITEM
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from ddz._core cimport CODE_TYPE_SHIFT, NUM_RANKS, RuleTable, T_BOMB, T_ROCKET, TableView, view_index
from ddz._game cimport Entry, PlayCore, PlayState, core_fill

import numpy as np

from ddz import Game as _Game

cnp.import_array()

cdef extern from "numpy/arrayobject.h":
    ctypedef struct PyArray_Descr
    # steals a reference to descr
    object PyArray_NewFromDescr(PyTypeObject* subtype, PyArray_Descr* descr, int nd, cnp.npy_intp* dims,
                                cnp.npy_intp* strides, void* data, int flags, PyObject* obj)

cdef enum:
    ROW = 54                 # the columns of one card set
    X_LORD = 319             # x_no_action of the landlord
    X_FARMER = 430           # x_no_action of a farmer
    Z_MOVES = 15
    Z_SIZE = 810             # 5 x 162

# set by ddz.envs.douzero (setup): its checks, its twin, the rules, the names, the card ints
cdef object _check = None
cdef object _twin = None
cdef object _rules = None
cdef object _accepted = None     # the last other Rules object the checks accepted
cdef tuple _names = None
cdef tuple _cards = None

# the table the id data below belongs to, and that data
cdef RuleTable _table = None
cdef int32_t[::1] _setkey        # id -> the smallest id of the same card set
cdef uint8_t[::1] _multi         # id -> 1 when its card set has other readings
cdef list _tuples = None         # id -> DouZero's card tuple of the id (made on first use), or None
cdef uint32_t _dup_types = 0     # bit t: some play of type t shares its cards with another play
cdef PyObject* _card_objs[NUM_RANKS]   # the items of _cards

cdef object K_POSITION = "position"
cdef object K_X_BATCH = "x_batch"
cdef object K_Z_BATCH = "z_batch"
cdef object K_LEGAL = "legal_actions"
cdef object K_X_NO_ACTION = "x_no_action"
cdef object K_Z = "z"
cdef object K_IDS = "action_ids"


def setup(check, twin, rules, tuple names, tuple cards):
    """Called once by ``ddz.envs.douzero``: the game check (raises ``DdzError``), the
    pure-Python twin, the accepted rules, the three position names and the 15 card ints."""
    global _check, _twin, _rules, _names, _cards
    if len(names) != 3 or len(cards) != NUM_RANKS or not all(type(c) is int for c in cards):
        raise ValueError("setup: three names and 15 ints")
    _check, _twin, _rules, _names, _cards = check, twin, rules, names, cards
    for r in range(NUM_RANKS):
        _card_objs[r] = <PyObject*>cards[r]        # kept alive by _cards


cdef int use_table(RuleTable t) except -1:
    """Build the per-id data of ``t`` (once per table)."""
    global _table, _setkey, _multi, _dup_types, _tuples
    counts = np.ascontiguousarray(t.counts, dtype=np.uint8)
    n = counts.shape[0]
    setkey = np.empty(n, np.int32)
    multi = np.zeros(n, np.uint8)
    first = {}
    rows = counts.view(np.dtype((np.void, NUM_RANKS))).reshape(n)
    for i in range(n):
        key = rows[i].tobytes()
        j = first.setdefault(key, i)
        setkey[i] = j
        if j != i:
            multi[i] = multi[j] = 1
    codes = np.asarray(t.codes, dtype=np.int64)
    types = 0
    for i in np.flatnonzero(multi).tolist():
        types |= 1 << int((codes[i] >> CODE_TYPE_SHIFT) & 31)
    _setkey = setkey
    _multi = multi
    _dup_types = types
    _tuples = [None] * n
    _table = t
    return 0


cdef inline list card_list(const uint8_t* cnt):
    """A new list of DouZero's card ints of 15 counts, ascending."""
    cdef int r, j, k = 0
    cdef PyObject* card
    for r in range(NUM_RANKS):
        k += cnt[r]
    cdef list lst = PyList_New(k)
    k = 0
    for r in range(NUM_RANKS):
        card = _card_objs[r]
        for j in range(cnt[r]):
            Py_INCREF(<object>card)
            PyList_SET_ITEM(lst, k, <object>card)
            k += 1
    return lst


cdef inline object card_tuple(Py_ssize_t pid, const uint8_t* cnt):
    """DouZero's card ints of id ``pid`` (counts ``cnt``) as a tuple, made once per id."""
    cdef object t = <object>PyList_GET_ITEM(_tuples, pid)
    if t is None:
        t = tuple(card_list(cnt))
        _tuples[pid] = t
    return t


cdef inline void row_i8(const uint8_t* cnt, int8_t* out) noexcept nogil:
    """DouZero's ``_cards2array`` of 15 counts into 54 int8."""
    cdef int r, c
    for r in range(13):
        c = cnt[r]
        out[4 * r] = c > 0
        out[4 * r + 1] = c > 1
        out[4 * r + 2] = c > 2
        out[4 * r + 3] = c > 3
    out[52] = cnt[13]
    out[53] = cnt[14]


cdef inline void row_f32(const uint8_t* cnt, float* out) noexcept nogil:
    """The same into 54 float32."""
    cdef int r, c
    for r in range(13):
        c = cnt[r]
        out[4 * r] = c > 0
        out[4 * r + 1] = c > 1
        out[4 * r + 2] = c > 2
        out[4 * r + 3] = c > 3
    out[52] = cnt[13]
    out[53] = cnt[14]


cdef object view(cnp.ndarray block, int typenum, int nd, cnp.npy_intp* dims, cnp.npy_intp* strides, void* data,
                 bint writeable):
    """An array of ``data`` (inside ``block``, its base): C-contiguous unless ``strides``."""
    cdef cnp.dtype descr = cnp.PyArray_DescrFromType(typenum)
    Py_INCREF(descr)                  # PyArray_NewFromDescr steals it
    cdef object a = PyArray_NewFromDescr(<PyTypeObject*>cnp.ndarray, <PyArray_Descr*><PyObject*>descr, nd, dims,
                                         strides, data, cnp.NPY_ARRAY_WRITEABLE if writeable else 0, NULL)
    cnp.set_array_base(a, block)
    return a


@cython.boundscheck(False)
@cython.wraparound(False)
def get_obs(game, lists=True):
    """DouZero's observation of the seat to act (see ``ddz.envs.douzero.get_obs``)."""
    global _accepted
    cdef PlayState ps
    cdef object ps_obj, rules
    cdef bint as_lists
    if lists is True:
        as_lists = True
    elif lists is False:
        as_lists = False
    else:
        _check(game, lists)           # raises DdzError: lists must be a bool
        as_lists = True
    if type(game) is _Game:
        rules = game.rules
        ps_obj = game._ps
        if (rules is _rules or rules is _accepted) and type(ps_obj) is PlayState:
            ps = <PlayState>ps_obj
            if ps.c.current >= 0 and ps.table is not None:
                return encode(ps, game.landlord, as_lists)
    _check(game, lists)               # raises DdzError unless the game can be encoded
    _accepted = game.rules
    ps_obj = game._ps
    if type(ps_obj) is not PlayState:
        return _twin(game, lists)
    return encode(<PlayState>ps_obj, game.landlord, as_lists)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef dict encode(PlayState ps, int lord, bint as_lists):
    cdef PlayCore* c = &ps.c
    cdef const TableView* v = c.v
    cdef const uint8_t* counts = v.counts
    cdef int seat = c.current
    cdef int pos = (seat - lord + 3) % 3
    cdef int up = (lord + 2) % 3, down = (lord + 1) % 3
    cdef int mate, s, r, t, k, row_len, xna_len
    cdef Py_ssize_t n, m, i, j, h, nhist = c.nhist, pid, first
    cdef int32_t last_of[3]
    cdef int32_t last_move = 0       # DouZero's last_move: the last play, or the one before a pass
    cdef int bombs = 0
    cdef uint8_t played[3][NUM_RANKS + 1]
    cdef uint64_t lo[3]
    cdef uint64_t hi[3]
    cdef uint64_t word
    cdef uint8_t other[NUM_RANKS]
    cdef float tmpl[X_FARMER]
    cdef int32_t* ids
    cdef const Entry* e
    cdef int64_t code
    cdef cnp.npy_intp dims[3]
    cdef cnp.npy_intp strides[3]
    cdef cnp.ndarray block, small
    cdef object x_batch, z_batch, x_no_action, z, action_ids
    cdef char* base
    cdef float* xb
    cdef float* zfp
    cdef int8_t* zp
    cdef int8_t* xna
    cdef list legal
    cdef object lst

    if ps.table is not _table:
        use_table(ps.table)
    n = core_fill(c)
    if n < 0:
        raise MemoryError()
    xna_len = X_LORD if pos == 0 else X_FARMER
    row_len = xna_len + ROW

    # two blocks hold the arrays' data (each array is a view of one, its base): the big
    # one the float32 x_batch rows (n at most) and z's float32 copy (z_batch's data); the
    # small one the int32 ids, the int8 x_no_action and the int8 z (kept alone, as a
    # replay buffer may keep them, they do not hold the rows)
    dims[0] = (n * row_len + Z_SIZE) * 4
    block = cnp.PyArray_EMPTY(1, dims, cnp.NPY_UINT8, 0)
    base = <char*>cnp.PyArray_DATA(block)
    dims[0] = n * 4 + xna_len + Z_SIZE
    small = cnp.PyArray_EMPTY(1, dims, cnp.NPY_UINT8, 0)
    ids = <int32_t*>cnp.PyArray_DATA(small)
    xna = <int8_t*>(ids + n)
    zp = xna + xna_len

    # the distinct legal actions: ids in move order, a card set's first reading kept
    m = 0
    for i in range(n):
        code = c.codes[i]
        pid = view_index(v, code)
        if (_dup_types >> ((code >> CODE_TYPE_SHIFT) & 31)) & 1 and _multi[pid]:
            first = 1
            for j in range(m):
                if _setkey[ids[j]] == _setkey[pid]:
                    first = 0
                    break
            if not first:
                continue
        ids[m] = <int32_t>pid
        m += 1
    zfp = <float*>base + m * row_len

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

    # cards left and bombs index one-hots: a three-player one-deck game keeps them in range
    # (a seat to wait holds 1..17 cards, the landlord 1..20; at most 14 bombs and rockets)
    if not (0 < c.left[up] <= 17 and 0 < c.left[down] <= 17 and 0 < c.left[lord] <= 20 and 0 <= bombs <= 14):
        raise ValueError(f"douzero features: cards left {[c.left[0], c.left[1], c.left[2]]} or bombs {bombs} "
                         f"out of DouZero's range")

    # x_no_action
    memset(xna, 0, xna_len)
    row_i8(c.hands[seat], xna)
    row_i8(other, xna + ROW)
    if pos == 0:
        row_i8(counts + last_move * NUM_RANKS, xna + 2 * ROW)
        row_i8(played[up], xna + 3 * ROW)
        row_i8(played[down], xna + 4 * ROW)
        xna[5 * ROW + c.left[up] - 1] = 1
        xna[5 * ROW + 17 + c.left[down] - 1] = 1
        xna[5 * ROW + 34 + bombs] = 1
    else:
        mate = down if pos == 2 else up
        row_i8(played[lord], xna + 2 * ROW)
        row_i8(played[mate], xna + 3 * ROW)
        row_i8(counts + last_move * NUM_RANKS, xna + 4 * ROW)
        row_i8(counts + last_of[lord] * NUM_RANKS, xna + 5 * ROW)
        row_i8(counts + last_of[mate] * NUM_RANKS, xna + 6 * ROW)
        xna[7 * ROW + c.left[lord] - 1] = 1
        xna[7 * ROW + 20 + c.left[mate] - 1] = 1
        xna[7 * ROW + 37 + bombs] = 1

    # x_batch: x_no_action then the action, per row
    for k in range(xna_len):
        tmpl[k] = xna[k]
    xb = <float*>base
    with nogil:
        for i in range(m):
            memcpy(xb, tmpl, xna_len * sizeof(float))
            row_f32(counts + ids[i] * NUM_RANKS, xb + xna_len)
            xb += row_len

    # z: the last 15 moves, padded in front, and its float32 copy for z_batch
    memset(zp, 0, Z_SIZE)
    h = nhist - Z_MOVES if nhist > Z_MOVES else 0
    k = Z_MOVES - <int>(nhist - h)
    while h < nhist:
        row_i8(counts + c.hist[h].id * NUM_RANKS, zp + k * ROW)
        h += 1
        k += 1
    for k in range(Z_SIZE):
        zfp[k] = zp[k]

    dims[0] = m
    dims[1] = row_len
    x_batch = view(block, cnp.NPY_FLOAT32, 2, dims, NULL, base, True)
    dims[1] = 5
    dims[2] = 162
    strides[0] = 0
    strides[1] = 162 * sizeof(float)
    strides[2] = sizeof(float)
    z_batch = view(block, cnp.NPY_FLOAT32, 3, dims, strides, zfp, False)
    action_ids = view(small, cnp.NPY_INT32, 1, dims, NULL, ids, True)
    dims[0] = xna_len
    x_no_action = view(small, cnp.NPY_INT8, 1, dims, NULL, xna, True)
    dims[0] = 5
    dims[1] = 162
    z = view(small, cnp.NPY_INT8, 2, dims, NULL, zp, True)

    # legal_actions: a new list of new lists, or of the shared tuples
    legal = PyList_New(m)
    for i in range(m):
        if as_lists:
            lst = card_list(counts + ids[i] * NUM_RANKS)
        else:
            lst = card_tuple(ids[i], counts + ids[i] * NUM_RANKS)
        Py_INCREF(lst)
        PyList_SET_ITEM(legal, i, lst)

    return {K_POSITION: _names[pos], K_X_BATCH: x_batch, K_Z_BATCH: z_batch, K_LEGAL: legal,
            K_X_NO_ACTION: x_no_action, K_Z: z, K_IDS: action_ids}
