"""The chooser: the public rules functions, from the Cython core or the reference.

Everyone imports the rules functions from here (``ddz.classify`` and friends are these).
``DDZ_NO_EXTENSIONS=1`` in the environment (read once, at import) forces the pure-Python
reference. ``IMPLEMENTATION`` says which one answers (``"core"`` or ``"reference"``).
Without that variable the compiled core must import: a failure is an ``ImportError``,
never a silent fall-back to pure Python.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import numpy as np
import numpy.typing as npt

from . import reference as _reference
from .play import PlayLike
from .implementation import NO_EXTENSIONS, compiled
from .cards import CardsLike
from .play import register_engine
from .rules import STANDARD, Rules

__all__ = ["IMPLEMENTATION", "readings", "classify", "beats", "legal_moves",
           "count_legal_moves", "all_plays", "legal_moves_array"]


def _reference_legal_moves_array(hand: CardsLike, to_beat: Optional[PlayLike] = None,
                                 rules: Rules = STANDARD) -> npt.NDArray[np.int64]:
    """:func:`ddz.core.reference.legal_moves` as ``int64[n]`` play codes (``Play.code``),
    the pass (0) first when responding; same arguments and errors."""
    return np.array([p.code for p in _reference.legal_moves(hand, to_beat, rules)],
                    dtype=np.int64)


if TYPE_CHECKING:
    # The choice below is made at run time, which hides the functions' types from a type
    # checker: it sees the core's (whose signatures equal the reference's, a tested fact;
    # tests/typing checks the public API under mypy --strict).
    from .compiled import (all_plays, beats, classify, count_legal_moves, legal_moves,
                       legal_moves_array, readings)

_impl = compiled("core.compiled", "the compiled core (ddz.core._core)")
if _impl is None:
    _impl = _reference
    IMPLEMENTATION: str = "reference"
    legal_moves_array = _reference_legal_moves_array
else:
    IMPLEMENTATION = "core"
    legal_moves_array = _impl.legal_moves_array

readings = _impl.readings
_readings = _impl._readings        # readings of a validated 15-tuple: the classifier for _args
trusted_readings = _readings      # the same, for the other packages (trusted arguments)
register_engine(_readings, getattr(_impl, "_lookup", None), getattr(_impl, "_texts_read", None))   # Play.parse
classify = _impl.classify
beats = _impl.beats
legal_moves = _impl.legal_moves
count_legal_moves = _impl.count_legal_moves
all_plays = _impl.all_plays
