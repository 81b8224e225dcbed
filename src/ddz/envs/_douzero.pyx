# cython: language_level=3
"""DouZero's features of a :class:`ddz.Game` in C: the compiled half of
:func:`ddz.envs.douzero.get_obs` (layout and meaning in :mod:`ddz.envs.douzero`).

It reads the game's play state (the core's ``PlayCore``, ``ddz/_game.pxd``: hands, the
history of ids, the cached legal codes) and the rule set's table (each id's 15 counts and
code), and writes DouZero's arrays directly with the inline functions of
``ddz/envs/_dzfeat.pxd`` (which ``ddz.envs._vector`` shares): nothing is built per card or per move
in Python. :func:`ddz.envs.douzero.get_obs_py` is its plain-Python twin; the tests require
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
from libc.stdint cimport int8_t, int32_t, uint8_t, uint32_t

from ddz.core._core cimport CODE_TYPE_SHIFT, NUM_RANKS, RuleTable, TableView
from ddz.envs._dzfeat cimport DZ_ROW, DZ_X_FARMER, DZ_X_LORD, DZ_Z_SIZE, dz_ids, dz_rows, dz_state
from ddz.game._game cimport PlayCore, PlayState, core_fill

import numpy as np

from ddz.game.state import Game as _Game

cnp.import_array()

cdef extern from "numpy/arrayobject.h":
    ctypedef struct PyArray_Descr
    # steals a reference to descr
    object PyArray_NewFromDescr(PyTypeObject* subtype, PyArray_Descr* descr, int nd, cnp.npy_intp* dims,
                                cnp.npy_intp* strides, void* data, int flags, PyObject* obj)

cdef enum:
    ROW = DZ_ROW
    X_LORD = DZ_X_LORD
    X_FARMER = DZ_X_FARMER
    Z_SIZE = DZ_Z_SIZE

# set by ddz.envs.douzero (setup): its checks, its twin, the rules, the names, the card ints
cdef object _check = None
cdef object _twin = None
cdef object _rules = None
cdef object _accepted = None     # the last other Rules object the checks accepted
cdef tuple _names = None
cdef tuple _cards = None

# the table the id data below belongs to, and that data
cdef RuleTable _table = None
cdef const int32_t[::1] _setkey  # id -> the smallest id of the same card set
cdef const uint8_t[::1] _multi   # id -> 1 when its card set has other readings
cdef object _arrays = None       # (multi, setkey) as read-only numpy arrays
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
    global _table, _setkey, _multi, _dup_types, _tuples, _arrays
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
    setkey.setflags(write=False)
    multi.setflags(write=False)
    _arrays = (multi, setkey)
    _setkey = setkey
    _multi = multi
    _dup_types = types
    _tuples = [None] * n
    _table = t
    return 0


def table_data(RuleTable t not None):
    """``(multi uint8[ids], setkey int32[ids], dup_types)`` of a rule table: which ids'
    card sets have other readings, each id's first reading, and the play types among
    them (for ``VectorCore.douzero_rows``; read-only arrays)."""
    if t is not _table:
        use_table(t)
    return _arrays[0], _arrays[1], int(_dup_types)


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
        ps_obj = game.play_state
        if (rules is _rules or rules is _accepted) and type(ps_obj) is PlayState:
            ps = <PlayState>ps_obj
            if ps.c.current >= 0 and ps.table is not None:
                return encode(ps, game.landlord, as_lists)
    _check(game, lists)               # raises DdzError unless the game can be encoded
    _accepted = game.rules
    ps_obj = game.play_state
    if type(ps_obj) is not PlayState:
        return _twin(game, lists)
    return encode(<PlayState>ps_obj, game.landlord, as_lists)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef dict encode(PlayState ps, int lord, bint as_lists):
    cdef PlayCore* c = &ps.c
    cdef const TableView* v = c.v
    cdef const uint8_t* counts = v.counts
    cdef int pos = (c.current - lord + 3) % 3
    cdef int k, row_len, xna_len
    cdef Py_ssize_t n, m, i
    cdef int32_t* ids
    cdef cnp.npy_intp dims[3]
    cdef cnp.npy_intp strides[3]
    cdef cnp.ndarray block, small
    cdef object x_batch, z_batch, x_no_action, z, action_ids
    cdef char* base
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
    dims[0] = n * 4 + X_FARMER + Z_SIZE
    small = cnp.PyArray_EMPTY(1, dims, cnp.NPY_UINT8, 0)
    ids = <int32_t*>cnp.PyArray_DATA(small)
    xna = <int8_t*>(ids + n)
    zp = xna + xna_len

    m = dz_ids(c, v, n, &_multi[0], &_setkey[0], _dup_types, ids)
    if dz_state(c, v, lord, xna, zp) < 0:
        raise ValueError(f"douzero features: cards left {[c.left[0], c.left[1], c.left[2]]} or bombs out of "
                         f"DouZero's range")
    zfp = <float*>base + m * row_len
    with nogil:
        dz_rows(v, xna, xna_len, ids, m, <float*>base, row_len)
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
