# cython: language_level=3
"""Kernels of :mod:`ddz.game.actions`: legal action ids and masks of batches of positions.

Built on the core's ``legal_codes`` (``ddz.core._core``), which writes the legal move codes of
one position in move order, and on the rule set's :class:`ddz.core._core.RuleTable`, whose
code -> id hash turns them into action ids (which therefore come out ascending).

Every function here checks its own arguments before releasing the GIL (shapes, dtypes,
id range, possible hands, the play to beat allowed and within the deck beside the hand)
and raises a :class:`ddz.DdzError` naming the first bad row; :class:`ddz.ActionSpace`
relies on that check and only re-examines a batch to word an error in full. No input
makes them read or write out of bounds, and there are no module-level scratch buffers.

Rows are split into chunks run by OpenMP threads (``prange``) when the build has OpenMP
(:data:`OPENMP`), serially otherwise; the GIL is released either way.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset
from cython.parallel cimport prange

import os

import numpy as np

cimport numpy as cnp

from ddz.errors import ActionIdError, HandError, ImpossibleHandError, InvalidPlayError

from ddz.core._core cimport (NUM_RANKS, ROW_NO_PLAY, ROW_OVER_DECK, ROW_TOO_BIG, RuleTable, TableView,
                       hands_view, legal_codes, row_problem, view_index)

cnp.import_array()

cdef extern from *:
    """
    #ifdef _OPENMP
    #define DDZ_HAVE_OPENMP 1
    #else
    #define DDZ_HAVE_OPENMP 0
    #endif
    """
    int DDZ_HAVE_OPENMP

OPENMP = bool(DDZ_HAVE_OPENMP)
"""Whether this build runs batches on OpenMP threads."""

cdef enum:
    STACK_IDS = 1024      # one position's moves fit on the stack up to this many


cdef inline Py_ssize_t row_ids(const TableView* v, const uint8_t* hand, int32_t tb,
                               int64_t* scratch, Py_ssize_t cap, int32_t* out) noexcept nogil:
    """Legal ids of one position into ``out`` (room for ``cap``); returns how many were
    written (``legal_codes`` never finds more than ``max_moves`` for a checked row)."""
    cdef Py_ssize_t n = legal_codes(v.opts, hand, v.codes[tb], scratch, cap)
    cdef Py_ssize_t j
    if n > cap:
        n = cap
    for j in range(n):
        out[j] = <int32_t>view_index(v, scratch[j])
    return n


cdef int mask_chunk(const TableView* v, const uint8_t* hands, const int32_t* tbs,
                    uint8_t* mask, Py_ssize_t width, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Rows ``lo..hi-1``: zero each mask row, then set its legal ids. -1 if out of memory."""
    cdef Py_ssize_t cap = v.max_moves
    cdef int64_t* scratch = <int64_t*>malloc(cap * sizeof(int64_t))
    cdef Py_ssize_t i, j, n, a
    cdef uint8_t* row
    if scratch == NULL:
        return -1
    # One memset for the whole chunk: for a large batch the C library streams it to
    # memory (non-temporal stores), which per-row memsets through the cache do not.
    memset(mask + lo * width, 0, (hi - lo) * width)
    for i in range(lo, hi):
        row = mask + i * width
        n = legal_codes(v.opts, hands + i * NUM_RANKS, v.codes[tbs[i]], scratch, cap)
        if n > cap:
            n = cap
        for j in range(n):
            a = view_index(v, scratch[j])
            if 0 <= a < width:
                row[a] = 1
    free(scratch)
    return 0


cdef int ids_chunk(const TableView* v, const uint8_t* hands, const int32_t* tbs,
                   Py_ssize_t lo, Py_ssize_t hi, int64_t* row_counts,
                   int32_t** buf_out, Py_ssize_t* len_out) noexcept nogil:
    """Rows ``lo..hi-1`` into a fresh ``malloc``'d id buffer (caller frees). -1 if out of memory."""
    cdef Py_ssize_t per = v.max_moves
    cdef int64_t* scratch = <int64_t*>malloc(per * sizeof(int64_t))
    cdef Py_ssize_t cap = (hi - lo) * 64 + per
    cdef int32_t* buf = <int32_t*>malloc(cap * sizeof(int32_t))
    cdef int32_t* grown
    cdef Py_ssize_t i, n, used = 0
    buf_out[0] = NULL
    len_out[0] = 0
    if scratch == NULL or buf == NULL:
        free(scratch)
        free(buf)
        return -1
    for i in range(lo, hi):
        if used + per > cap:
            cap = 2 * (used + per)
            grown = <int32_t*>realloc(buf, cap * sizeof(int32_t))
            if grown == NULL:
                free(scratch)
                free(buf)
                return -1
            buf = grown
        n = row_ids(v, hands + i * NUM_RANKS, tbs[i], scratch, per, buf + used)
        row_counts[i] = n
        used += n
    free(scratch)
    buf_out[0] = buf
    len_out[0] = used
    return 0


cdef int check_rows(const TableView* v, const uint8_t[:, ::1] hands, const int32_t[::1] tbs) except -1:
    """Every row a possible position of the rule set, or a DdzError naming the first bad
    row: 15 columns, as many ids as rows, each id in range and a play that may be played
    (or the pass), counts within the deck alone and with the play to beat, at most
    ``max_hand`` cards (the core's ``row_problem``)."""
    cdef Py_ssize_t b = hands.shape[0], i, bad = -1
    cdef int what = 0
    cdef int32_t t
    if hands.shape[1] != NUM_RANKS:
        raise HandError(f"hands must have shape (B, 15), got (B, {hands.shape[1]})")
    if tbs.shape[0] != b:
        raise HandError(f"to_beat_ids must have shape ({b},) to match hands, got ({tbs.shape[0]},)")
    with nogil:
        for i in range(b):
            t = tbs[i]
            if t < 0 or t >= v.n_ids:
                what = -1
            else:
                what = row_problem(v, &hands[i, 0], t, v.codes[t])
            if what:
                bad = i
                break
    if what == -1:
        raise ActionIdError(f"to_beat_ids[{bad}] = {tbs[bad]} is out of range 0..{v.n_ids - 1}")
    if what == ROW_NO_PLAY:
        raise InvalidPlayError(f"to_beat_ids[{bad}] = {tbs[bad]} is a banned play: it cannot be the play to beat")
    if what == ROW_OVER_DECK:
        raise ImpossibleHandError(f"hands[{bad}] (alone or with its play to beat) holds more copies of a "
                                  "rank than the deck")
    if what == ROW_TOO_BIG:
        raise ImpossibleHandError(f"hands[{bad}] has more than {v.opts.max_hand} cards")
    return 0


cdef int check_table(RuleTable table) except -1:
    if table.view.keys == NULL:
        raise ValueError("this RuleTable was never built: get tables with ddz.core.tables.table(rules)")
    return 0


cdef int threads_arg(object threads) except? -1:
    """``threads`` as a C int: an integer (not a bool or float) of int32 range; values
    <= 0 mean every CPU (see ``_threads``), and more than 65,536 are capped."""
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
        raise TypeError(f"threads must be an int, not {type(threads).__name__}")
    if not -(1 << 31) <= threads < (1 << 31):
        raise OverflowError(f"threads {threads!r} is out of the int32 range")
    return <int>min(threads, 1 << 16)


cdef tuple views(object hands, object tbs):
    """``(uint8[B, 15], int32[B])`` views of batch arguments, or a :class:`ddz.HandError`."""
    cdef const int32_t[::1] t
    if tbs is None:
        raise HandError("to_beat_ids must be an int32[B] array, not None")
    h = hands_view(hands)
    try:
        t = tbs
    except (ValueError, TypeError, BufferError) as exc:
        raise HandError(f"to_beat_ids must be a C-contiguous int32[B] array ({exc})") from None
    return h, t


def _threads(Py_ssize_t rows, int threads):
    """Threads to use: ``threads`` if > 0, else OMP_NUM_THREADS or the CPU count;
    never more than one per 128 rows (a thread team costs more than 128 positions);
    1 in a serial build."""
    if not DDZ_HAVE_OPENMP or threads == 1 or rows < 256:
        return 1
    if threads <= 0:
        env = os.environ.get("OMP_NUM_THREADS", "")
        threads = int(env) if env.isdigit() and int(env) > 0 else (os.cpu_count() or 1)
    return max(1, min(threads, rows // 128))


def legal_ids_one(RuleTable table not None, hand, to_beat_id):
    """``int32[M]``: legal ids of one position: ``hand`` a C-contiguous ``uint8[15]`` array,
    ``to_beat_id`` 0 when leading. Checked like a row of a batch (:class:`ddz.DdzError`
    on bad input), without building a batch."""
    cdef int64_t stack_codes[STACK_IDS]
    cdef int32_t stack_ids[STACK_IDS]
    cdef int64_t* scratch = stack_codes
    cdef int32_t* ids = stack_ids
    cdef Py_ssize_t n, cap = STACK_IDS, t
    cdef const TableView* v = &table.view
    cdef const uint8_t* h
    cdef cnp.ndarray res
    cdef cnp.npy_intp dims[1]
    cdef int what
    check_table(table)
    if isinstance(to_beat_id, bool) or not isinstance(to_beat_id, (int, np.integer)) \
            or not 0 <= to_beat_id < v.n_ids:
        raise ActionIdError(f"the play to beat (id) {to_beat_id!r} is not an id 0..{v.n_ids - 1}")
    t = to_beat_id
    if not (cnp.PyArray_Check(hand) and cnp.PyArray_TYPE(<cnp.ndarray>hand) == cnp.NPY_UINT8
            and cnp.PyArray_NDIM(<cnp.ndarray>hand) == 1 and cnp.PyArray_DIM(<cnp.ndarray>hand, 0) == NUM_RANKS
            and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray>hand)):
        raise HandError(f"hand must be a C-contiguous uint8[15] array, not {type(hand).__name__} "
                        f"{getattr(hand, 'shape', '')}")
    h = <const uint8_t*>cnp.PyArray_DATA(<cnp.ndarray>hand)
    what = row_problem(v, h, t, v.codes[t])
    if what == ROW_NO_PLAY:
        raise InvalidPlayError(f"the play to beat (id {t}) is a banned play: it cannot be the play to beat")
    if what == ROW_OVER_DECK:
        raise ImpossibleHandError("the hand (alone or with the play to beat) holds more copies of a rank than the deck")
    if what == ROW_TOO_BIG:
        raise ImpossibleHandError(f"the hand has more than {v.opts.max_hand} cards")
    n = legal_codes(v.opts, h, v.codes[t], scratch, cap)
    if n > cap:
        scratch = <int64_t*>malloc(n * sizeof(int64_t))
        ids = <int32_t*>malloc(n * sizeof(int32_t))
        if scratch == NULL or ids == NULL:
            free(scratch)
            free(ids)
            raise MemoryError()
        cap = n
    try:
        n = row_ids(v, h, <int32_t>t, scratch, cap, ids)
        dims[0] = n
        res = cnp.PyArray_EMPTY(1, dims, cnp.NPY_INT32, 0)
        if n:
            memcpy(cnp.PyArray_DATA(res), ids, n * sizeof(int32_t))
    finally:
        if cap != STACK_IDS:
            free(scratch)
            free(ids)
    return res


def legal_mask_one(RuleTable table not None, hand, to_beat_id):
    """``bool[len(table)]``: the legal-move mask of one position (arguments and checks as
    :func:`legal_ids_one`), written in C into a zeroed array."""
    cdef cnp.ndarray ids = legal_ids_one(table, hand, to_beat_id)
    cdef cnp.npy_intp dims[1]
    cdef const int32_t* src = <const int32_t*>cnp.PyArray_DATA(ids)
    cdef Py_ssize_t i, n = cnp.PyArray_DIM(ids, 0)
    cdef uint8_t* dst
    dims[0] = table.view.n_ids
    res = cnp.PyArray_ZEROS(1, dims, cnp.NPY_BOOL, 0)
    dst = <uint8_t*>cnp.PyArray_DATA(res)
    for i in range(n):
        if 0 <= src[i] < dims[0]:
            dst[src[i]] = 1
    return res


def legal_masks(RuleTable table not None, hands, tbs, mask_arr, threads):
    """Fill ``mask_arr`` (``bool[B, len(table)]``, C-contiguous, writeable) with the legal
    ids of each row of ``hands`` (``uint8[B, 15]``) against ``tbs`` (``int32[B]`` ids)."""
    cdef const uint8_t[:, ::1] h
    cdef const int32_t[::1] tb
    cdef uint8_t[:, ::1] mask
    cdef const TableView* v = &table.view
    cdef Py_ssize_t b, width, nchunks, c
    cdef int nt
    cdef int failed = 0
    check_table(table)
    nt = threads_arg(threads)
    if not (isinstance(mask_arr, np.ndarray) and mask_arr.dtype == np.bool_):
        raise HandError(f"out must be a numpy bool array, not {type(mask_arr).__name__}")
    # inputs that share memory with the output would change under the kernel: copy them
    if np.may_share_memory(mask_arr, hands):
        hands = np.array(hands, copy=True)
    if np.may_share_memory(mask_arr, tbs):
        tbs = np.array(tbs, copy=True)
    h, tb = views(hands, tbs)
    check_rows(v, h, tb)
    try:
        mask = np.ndarray.view(mask_arr, np.uint8)
    except (ValueError, TypeError, BufferError) as exc:
        raise HandError(f"out must be C-contiguous and writeable ({exc})") from None
    if mask.shape[0] != h.shape[0] or mask.shape[1] != v.n_ids:
        raise HandError(f"out must have shape ({h.shape[0]}, {v.n_ids}), got ({mask.shape[0]}, {mask.shape[1]})")
    b = h.shape[0]
    width = mask.shape[1]
    nt = _threads(b, nt)
    nchunks = min(b, <Py_ssize_t>nt * 4) if nt > 1 else 1
    if b == 0:
        return
    if nt == 1:
        with nogil:
            failed = mask_chunk(v, &h[0, 0], &tb[0], &mask[0, 0], width, 0, b)
    else:
        for c in prange(nchunks, nogil=True, num_threads=nt, schedule="dynamic"):
            if mask_chunk(v, &h[0, 0], &tb[0], &mask[0, 0], width,
                          c * b // nchunks, (c + 1) * b // nchunks) != 0:
                failed += 1
    if failed:
        raise MemoryError("ddz.ActionSpace.legal_masks: out of memory")


def legal_ids_csr(RuleTable table not None, hands, tbs, threads):
    """(``int32[M]`` ids, ``int64[B+1]`` offsets) of the rows of ``hands`` (``uint8[B, 15]``)
    against ``tbs`` (``int32[B]`` ids)."""
    cdef const uint8_t[:, ::1] h
    cdef const int32_t[::1] tb
    cdef const TableView* v = &table.view
    cdef Py_ssize_t b, c, total = 0, pos, nchunks
    cdef int nt
    cdef int failed = 0
    cdef int64_t[::1] off
    cdef int32_t** bufs
    cdef Py_ssize_t* lens
    check_table(table)
    nt = threads_arg(threads)
    h, tb = views(hands, tbs)
    check_rows(v, h, tb)
    b = h.shape[0]
    nt = _threads(b, nt)
    nchunks = min(b, <Py_ssize_t>nt * 4) if nt > 1 else 1
    offsets = np.zeros(b + 1, dtype=np.int64)
    if b == 0:
        return np.zeros(0, dtype=np.int32), offsets
    off = offsets
    bufs = <int32_t**>malloc(nchunks * sizeof(int32_t*))
    lens = <Py_ssize_t*>malloc(nchunks * sizeof(Py_ssize_t))
    if bufs == NULL or lens == NULL:
        free(bufs)
        free(lens)
        raise MemoryError("ddz.ActionSpace.legal_ids_batch: out of memory")
    for c in range(nchunks):
        bufs[c] = NULL
        lens[c] = 0
    try:
        if nchunks == 1:
            with nogil:
                failed = ids_chunk(v, &h[0, 0], &tb[0], 0, b, &off[1], &bufs[0], &lens[0])
        else:
            for c in prange(nchunks, nogil=True, num_threads=nt, schedule="dynamic"):
                if ids_chunk(v, &h[0, 0], &tb[0], c * b // nchunks,
                             (c + 1) * b // nchunks, &off[1], &bufs[c], &lens[c]) != 0:
                    failed += 1
        if failed:
            raise MemoryError("ddz.ActionSpace.legal_ids_batch: out of memory")
        for c in range(nchunks):
            total += lens[c]
        ids = np.empty(total, dtype=np.int32)
        pos = 0
        for c in range(nchunks):
            if lens[c]:
                memcpy(<int32_t*>cnp.PyArray_DATA(ids) + pos, bufs[c], lens[c] * sizeof(int32_t))
            pos += lens[c]
    finally:
        for c in range(nchunks):
            free(bufs[c])
        free(bufs)
        free(lens)
    np.cumsum(offsets, out=offsets)
    return ids, offsets
