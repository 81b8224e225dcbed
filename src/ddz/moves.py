"""The chooser: the public rules functions, from the Cython core or the reference.

Everyone imports the rules functions from here (``ddz.classify`` and friends are these).
``DDZ_NO_EXTENSIONS=1`` in the environment (read once, at import) forces the pure-Python
reference. ``IMPLEMENTATION`` says which one answers (``"core"`` or ``"reference"``).
Without that variable the compiled core must import: a failure is an ``ImportError``,
never a silent fall-back to pure Python.
"""

from __future__ import annotations

import importlib
import os
from typing import Optional

import numpy as np

from . import reference as _reference
from .cards import CardsLike
from .play import Play
from .rules import STANDARD, Rules

__all__ = ["IMPLEMENTATION", "readings", "classify", "beats", "legal_moves",
           "count_legal_moves", "all_plays", "legal_moves_array"]


def _reference_legal_moves_array(hand: CardsLike, to_beat: Optional[Play] = None,
                                 rules: Rules = STANDARD) -> np.ndarray:
    """:func:`ddz.reference.legal_moves` as ``int64[n]`` play codes (``Play.code``),
    the pass (0) first when responding; same arguments and errors."""
    return np.array([p.code for p in _reference.legal_moves(hand, to_beat, rules)],
                    dtype=np.int64)


NO_EXTENSIONS = bool(os.environ.get("DDZ_NO_EXTENSIONS"))
"""``DDZ_NO_EXTENSIONS=1`` was set (read once, here, for every module)."""


def compiled(name: str, what: str):
    """The module ``ddz.<name>`` built on the compiled extensions, or ``None`` when
    ``DDZ_NO_EXTENSIONS=1`` asks for pure Python.

    :raises ImportError: the extension failed to import (a broken build must not quietly
        run pure Python); the message names ``what``.
    """
    if NO_EXTENSIONS:
        return None
    try:
        return importlib.import_module(f"ddz.{name}")
    except ImportError as exc:
        raise ImportError(
            f"ddz: {what} failed to import: {exc}. Reinstall ddz so that it compiles, or "
            "set DDZ_NO_EXTENSIONS=1 to use the pure-Python path on purpose.") from exc


_impl = compiled("fast", "the compiled core (ddz._core)")
if _impl is None:
    _impl = _reference
    IMPLEMENTATION = "reference"
    legal_moves_array = _reference_legal_moves_array
else:
    IMPLEMENTATION = "core"
    legal_moves_array = _impl.legal_moves_array

readings = _impl.readings
classify = _impl.classify
beats = _impl.beats
legal_moves = _impl.legal_moves
count_legal_moves = _impl.count_legal_moves
all_plays = _impl.all_plays
