"""The chooser: the public rules functions, from the Cython core or the reference.

Everyone imports the rules functions from here (``ddz.classify`` and friends are these).
``DDZ_NO_EXTENSIONS=1`` in the environment (read once, at import) forces the pure-Python
reference. ``IMPLEMENTATION`` says which one answers (``"core"`` or ``"reference"``).
"""

from __future__ import annotations

import os

from . import reference as _reference

__all__ = ["IMPLEMENTATION", "readings", "classify", "beats", "legal_moves",
           "count_legal_moves", "all_plays"]

if os.environ.get("DDZ_NO_EXTENSIONS"):
    _impl = _reference
    IMPLEMENTATION = "reference"
else:
    # Until the Cython core implements the rules, the reference answers.
    _impl = _reference
    IMPLEMENTATION = "reference"

readings = _impl.readings
classify = _impl.classify
beats = _impl.beats
legal_moves = _impl.legal_moves
count_legal_moves = _impl.count_legal_moves
all_plays = _impl.all_plays
