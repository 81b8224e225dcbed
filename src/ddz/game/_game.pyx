# cython: language_level=3
"""The hand in C: its play phase (RULES.md §5, §6: one implementation of the rules of play),
the deal's generators and the hand around the play phase (§3, §4, §6, §7).

Three files, one module (issue 42): ``_game_play.pxi`` (``PlayCore``, :class:`PlayState`),
``_game_deal.pxi`` (:class:`Twister`, the deal stream, :class:`DealStream`) and
``_game_hand.pxi`` (the ``Hand`` struct, ``hand_new_hand`` and the ``hand_*`` steps,
:class:`CHand`), included at the end of this file.

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


# The module is written in three files by concept (issue 42), each ``include``d here so
# that it stays one compiled module (the hot cdef functions inline across them):
include "_game_play.pxi"     # the play phase: PlayCore, PlayState
include "_game_deal.pxi"     # the deal's generators: Twister, the deal stream, DealStream
include "_game_hand.pxi"     # the hand: Hand, hand_new_hand and the hand_* steps, CHand
