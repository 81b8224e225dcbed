"""One table per move rule set, built once and shared (DESIGN.md, "Rule options are data").

:func:`table` returns the :class:`ddz.core._core.RuleTable` of a rule set: the kernel options,
the play universe as interned :class:`~ddz.Play` objects numbered by action id (each
made on first use), their codes, card counts and notation, and the code -> id hash that
the kernels use. The
chooser (:mod:`ddz.core.compiled`), :class:`ddz.ActionSpace`, :class:`ddz.Game` and
:mod:`ddz.interop` all get their tables here, keyed by :attr:`Rules.move_rules`, so two
rule sets that differ only in bidding or scoring share one table, and a rule set with
banned play types shares the plays, ids and hash of the same rules without bans
(:attr:`Rules.universe_rules`).

With ``DDZ_NO_EXTENSIONS=1`` the same attributes come from :class:`PyTable`, built from
the reference's universe (the kernels' methods are then absent).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Dict, Tuple

import numpy as np

from .implementation import compiled
from ..errors import DdzError, quote
from .rules import Rules

if TYPE_CHECKING:
    from .play import Play

__all__ = ["table", "PyTable"]

_core = compiled("core._core", "the compiled core (ddz.core._core)")

trusted_play = None if _core is None else _core._trusted_play
"""The :class:`~ddz.Play` of a code the core generated, decoded without the checks of
``Play.from_code`` (how a table makes its plays; the solver's too); ``None`` without the core."""

_lock = threading.RLock()
_TABLES: Dict[Rules, object] = {}


class PyTable:
    """The pure-Python stand-in of ``RuleTable`` (``DDZ_NO_EXTENSIONS=1``): the same
    read-only attributes (``rules``, ``plays``, ``codes``, ``counts``, ``notation``,
    ``index_of_play``, ``max_moves``, ``all_plays``, ``base``), built from
    :func:`ddz.core.reference.all_plays`."""

    def __init__(self, rules: Rules, base: "PyTable" = None) -> None:
        # the pure path's plays: the reference and the Play type are imported here, where they
        # are used, so that this module (which the compiled path imports) sits below them
        from . import reference
        from .play import PASS

        self.rules = rules
        self.base = self if base is None else base
        self.derived: Dict[str, object] = {}
        if base is None:
            plays = (PASS,) + tuple(reference.all_plays(rules))
            self.plays: Tuple[Play, ...] = plays
            self.codes = np.fromiter((p.code for p in plays), dtype=np.int64, count=len(plays))
            self.codes.setflags(write=False)
            self.counts = np.array([p.counts for p in plays], dtype=np.uint8).reshape(len(plays), 15)
            self.counts.setflags(write=False)
            self.notation = tuple(str(p) for p in plays)
            self.index_of_play = {p: i for i, p in enumerate(plays)}
            self.max_moves = len(plays)
        else:
            for name in ("plays", "codes", "counts", "notation", "index_of_play", "max_moves"):
                setattr(self, name, getattr(base, name))
        self._codes_index = {c: i for i, c in enumerate(self.codes.tolist())}
        self.all_plays = tuple(p for p in self.plays[1:] if p.type not in rules.excluded)

    def __len__(self) -> int:
        return len(self.plays)

    def index_of(self, code) -> int:
        """The id of a code (0 for the pass), or -1."""
        try:
            return self._codes_index.get(int(code), -1)
        except (TypeError, ValueError):
            return -1

    def ids_of_codes(self, codes) -> np.ndarray:
        """``int32[n]``: the id of each code, -1 for codes of no play."""
        arr = np.asarray(codes).reshape(-1)
        return np.fromiter((self._codes_index.get(int(c), -1) for c in arr.tolist()),
                           dtype=np.int32, count=arr.size)


def table(rules: Rules):
    """The shared table of ``rules``.

    Built on first use, once, under a lock (thread-safe); later calls are one dict hit.

    :param rules: a :class:`ddz.Rules`.
    :returns: a ``ddz.core._core.RuleTable`` (a :class:`PyTable` under ``DDZ_NO_EXTENSIONS=1``).
    :raises DdzError: ``rules`` is not a :class:`ddz.Rules`.
    """
    if type(rules) is Rules or isinstance(rules, Rules):
        t = _TABLES.get(rules)
        if t is not None:
            return t
    else:
        raise DdzError(f"rules must be a ddz.Rules, not {type(rules).__name__}: {quote(rules)}")
    with _lock:
        key = rules.move_rules
        t = _TABLES.get(key)
        if t is None:
            universe = rules.universe_rules
            make = PyTable if _core is None else _core.RuleTable
            base = _TABLES.get(universe)
            if base is None:
                base = _TABLES[universe] = make(universe)
            t = base if key == universe else make(key, base)
            _TABLES[key] = t
        _TABLES[rules] = t
        return t
