# cython: language_level=3
"""Kernels of :mod:`ddz.actions`: legal action ids and masks of batches of positions.

Built on the core's ``legal_codes`` (``ddz._core``), which writes the legal move codes of
one position in move order; a code → id hash table (built once per rule set by
:class:`ddz.actions._Tables`) turns them into action ids, which therefore come out
ascending. Everything here trusts its input: :class:`ddz.ActionSpace` validates every
row (shape, dtype, id range, possible hands) before calling, with the GIL held.

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

from ddz._core cimport MAX_MOVES, NUM_RANKS, legal_codes

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

cdef uint64_t HASH_MUL = 0x9E3779B97F4A7C15ULL
cdef uint64_t EMPTY_SLOT = 0xFFFFFFFFFFFFFFFFULL
# scratch of the single-position path, which keeps the GIL (it takes microseconds)
cdef int64_t _SCRATCH[MAX_MOVES]
cdef int32_t _IDS[MAX_MOVES]


cdef struct Lookup:
    const uint64_t* slots   # (code << 15) | id, all ones when empty
    const int64_t* codes    # id -> code (codes[0] == 0: the pass / leading)
    int shift
    uint64_t mask


cdef inline int32_t code_id(const Lookup* L, int64_t code) noexcept nogil:
    cdef uint64_t h = (<uint64_t>code * HASH_MUL) >> L.shift
    cdef uint64_t s
    while True:
        s = L.slots[h]
        if (s >> 15) == <uint64_t>code:
            return <int32_t>(s & 0x7FFF)
        if s == EMPTY_SLOT:
            return -1
        h = (h + 1) & L.mask


cdef inline Py_ssize_t row_ids(const Lookup* L, const uint8_t* hand, int32_t tb, int repeat,
                               int64_t* scratch, int32_t* out) noexcept nogil:
    cdef Py_ssize_t n = legal_codes(hand, L.codes[tb], repeat, scratch)
    cdef Py_ssize_t j
    for j in range(n):
        out[j] = code_id(L, scratch[j])
    return n


cdef int mask_chunk(const Lookup* L, const uint8_t* hands, const int32_t* tbs, int repeat,
                    uint8_t* mask, Py_ssize_t width, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Rows ``lo..hi-1``: zero each mask row, then set its legal ids. -1 if out of memory."""
    cdef int64_t* scratch = <int64_t*>malloc(MAX_MOVES * sizeof(int64_t))
    cdef Py_ssize_t i, j, n
    cdef uint8_t* row
    cdef int32_t a
    if scratch == NULL:
        return -1
    # One memset for the whole chunk: for a large batch the C library streams it to
    # memory (non-temporal stores), which per-row memsets through the cache do not.
    memset(mask + lo * width, 0, (hi - lo) * width)
    for i in range(lo, hi):
        row = mask + i * width
        n = legal_codes(hands + i * NUM_RANKS, L.codes[tbs[i]], repeat, scratch)
        for j in range(n):
            a = code_id(L, scratch[j])
            if a >= 0:
                row[a] = 1
    free(scratch)
    return 0


cdef int ids_chunk(const Lookup* L, const uint8_t* hands, const int32_t* tbs, int repeat,
                   Py_ssize_t lo, Py_ssize_t hi, int64_t* row_counts,
                   int32_t** buf_out, Py_ssize_t* len_out) noexcept nogil:
    """Rows ``lo..hi-1`` into a fresh ``malloc``'d id buffer (caller frees). -1 if out of memory."""
    cdef int64_t* scratch = <int64_t*>malloc(MAX_MOVES * sizeof(int64_t))
    cdef Py_ssize_t cap = (hi - lo) * 64 + MAX_MOVES
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
        if used + MAX_MOVES > cap:
            cap = 2 * cap
            grown = <int32_t*>realloc(buf, cap * sizeof(int32_t))
            if grown == NULL:
                free(scratch)
                free(buf)
                return -1
            buf = grown
        n = row_ids(L, hands + i * NUM_RANKS, tbs[i], repeat, scratch, buf + used)
        row_counts[i] = n
        used += n
    free(scratch)
    buf_out[0] = buf
    len_out[0] = used
    return 0


cdef Lookup make_lookup(tables, const uint64_t[::1] slots, const int64_t[::1] codes):
    cdef Lookup L
    L.slots = &slots[0]
    L.codes = &codes[0]
    L.shift = tables.hash_shift
    L.mask = slots.shape[0] - 1
    return L


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


def legal_ids_one(tables, const uint8_t[::1] hand, int32_t tb, bint repeat):
    """``int32[M]``: legal ids of one validated position (``tb`` 0 when leading).
    Keeps the GIL (it uses module-level scratch buffers)."""
    cdef const uint64_t[::1] slots = tables.hash_slots
    cdef const int64_t[::1] codes = tables.codes
    cdef Lookup L = make_lookup(tables, slots, codes)
    cdef Py_ssize_t n = row_ids(&L, &hand[0], tb, repeat, _SCRATCH, _IDS)  # GIL held: shared buffers
    res = np.empty(n, dtype=np.int32)
    if n:
        memcpy(cnp.PyArray_DATA(res), _IDS, n * sizeof(int32_t))
    return res


def legal_masks(tables, const uint8_t[:, ::1] hands, const int32_t[::1] tbs, bint repeat,
                mask_arr, int threads):
    """Fill ``mask_arr`` (``bool[B, N]``, C-contiguous) with the legal ids of each row."""
    cdef uint8_t[:, ::1] mask = mask_arr.view(np.uint8)
    cdef const uint64_t[::1] slots = tables.hash_slots
    cdef const int64_t[::1] codes = tables.codes
    cdef Lookup L = make_lookup(tables, slots, codes)
    cdef Py_ssize_t b = hands.shape[0], width = mask.shape[1]
    cdef int nt = _threads(b, threads)
    cdef Py_ssize_t nchunks = min(b, <Py_ssize_t>nt * 4) if nt > 1 else 1
    cdef Py_ssize_t c
    cdef int failed = 0
    if b == 0:
        return
    if nt == 1:
        with nogil:
            failed = mask_chunk(&L, &hands[0, 0], &tbs[0], repeat, &mask[0, 0], width, 0, b)
    else:
        for c in prange(nchunks, nogil=True, num_threads=nt, schedule="dynamic"):
            if mask_chunk(&L, &hands[0, 0], &tbs[0], repeat, &mask[0, 0], width,
                          c * b // nchunks, (c + 1) * b // nchunks) != 0:
                failed += 1
    if failed:
        raise MemoryError("ddz.ActionSpace.legal_masks: out of memory")


def legal_ids_csr(tables, const uint8_t[:, ::1] hands, const int32_t[::1] tbs, bint repeat,
                  int threads):
    """(``int32[M]`` ids, ``int64[B+1]`` offsets) of validated rows."""
    cdef const uint64_t[::1] slots = tables.hash_slots
    cdef const int64_t[::1] codes = tables.codes
    cdef Lookup L = make_lookup(tables, slots, codes)
    cdef Py_ssize_t b = hands.shape[0]
    cdef int nt = _threads(b, threads)
    cdef Py_ssize_t nchunks = min(b, <Py_ssize_t>nt * 4) if nt > 1 else 1
    cdef Py_ssize_t c, total = 0, pos
    cdef int failed = 0
    offsets = np.zeros(b + 1, dtype=np.int64)
    if b == 0:
        return np.zeros(0, dtype=np.int32), offsets
    cdef int64_t[::1] off = offsets
    cdef int32_t** bufs = <int32_t**>malloc(nchunks * sizeof(int32_t*))
    cdef Py_ssize_t* lens = <Py_ssize_t*>malloc(nchunks * sizeof(Py_ssize_t))
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
                failed = ids_chunk(&L, &hands[0, 0], &tbs[0], repeat, 0, b, &off[1], &bufs[0], &lens[0])
        else:
            for c in prange(nchunks, nogil=True, num_threads=nt, schedule="dynamic"):
                if ids_chunk(&L, &hands[0, 0], &tbs[0], repeat, c * b // nchunks,
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


def ids_of_codes(tables, const int64_t[::1] query):
    """``int32[n]``: the id of each code as the kernels map it (-1: not a play); a
    Python-callable twin of the code -> id lookup, for tests."""
    cdef const uint64_t[::1] slots = tables.hash_slots
    cdef const int64_t[::1] codes = tables.codes
    cdef Lookup L = make_lookup(tables, slots, codes)
    cdef Py_ssize_t i
    out = np.empty(query.shape[0], dtype=np.int32)
    cdef int32_t[::1] o = out
    for i in range(query.shape[0]):
        o[i] = code_id(&L, query[i])
    return out


def rows_ok(const uint8_t[:, ::1] hands, const int32_t[::1] tbs, const uint8_t[:, ::1] play_counts,
            const uint8_t[::1] limit, int max_hand):
    """True if every row is a possible position: ``0 <= tbs[i] < len(play_counts)``, counts
    within ``limit``, at most ``max_hand`` cards, and within ``limit`` together with the
    play to beat. The fast check before the kernels; on False, the caller finds and
    reports the first bad row."""
    cdef Py_ssize_t b = hands.shape[0], n = play_counts.shape[0], i
    cdef int r, total, ok = 1
    cdef int32_t t
    if hands.shape[1] != NUM_RANKS or play_counts.shape[1] != NUM_RANKS or limit.shape[0] != NUM_RANKS \
            or tbs.shape[0] != b:
        return False
    with nogil:
        for i in range(b):
            t = tbs[i]
            if t < 0 or t >= n:
                ok = 0
                break
            total = 0
            for r in range(NUM_RANKS):
                total += hands[i, r]
                if hands[i, r] + play_counts[t, r] > limit[r]:
                    ok = 0
            if total > max_hand or not ok:
                ok = 0
                break
    return bool(ok)
