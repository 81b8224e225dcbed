"""RLCard (``rlcard.games.doudizhu``, 1.2.0): its action strings and action ids."""

from __future__ import annotations

from typing import Tuple, Union

import numpy as np

from ..core import arguments as _args
from .. import core as moves
from ..core.cards import NUM_RANKS, RANK_CHARS, format_cards_unchecked
from ..errors import NotationError, quote
from ..core.play import PASS, Play, play_arg
from ..core.rules import STANDARD, Rules
from ..core.tables import table
from ..game.actions import ActionSpace
from .engines import RLCARD, _engine_play, _three_player


def to_rlcard(play: Union[Play, str], rules: Rules = RLCARD) -> str:
    """RLCard's action string of a play: ``'pass'`` or its cards sorted ascending.

    Parameters
    ----------
    play : Play or notation
    rules : Rules
        Used to parse notation.

    Raises
    ------
    InvalidPlayError, NotationError
        Not a play under ``rules``.
    NotExpressibleError
        Cards that are none of RLCard's actions: a play of another profile's wings
        (``4444+BR``) or of the four-player game (``33333``, ``BB``).
    DdzError
        ``rules`` is not a three-player :class:`Rules`.
    """
    rules = _three_player(rules, "RLCard")
    p = play if isinstance(play, Play) else play_arg(play, rules, moves.trusted_readings)
    return "pass" if not p else format_cards_unchecked(_engine_play(p, RLCARD, "RLCard").counts)


def rlcard_counts(cards: str) -> np.ndarray:
    """Count vector of an RLCard card string (a hand such as ``'33456TTJQKA2BR'``).

    Raises
    ------
    NotationError, ImpossibleHandError
        Characters other than RLCard's ``3..9 T J Q K A 2 B R``, or more copies than a deck.
    """
    if not isinstance(cards, str):
        raise NotationError(f"an RLCard card string must be a str, not {type(cards).__name__}: {cards!r}")
    counts = [0] * NUM_RANKS
    for i, ch in enumerate(cards):
        r = RANK_CHARS.find(ch)
        if r < 0:
            raise NotationError(f"not an RLCard card {ch!r} at position {i} in {cards!r}")
        counts[r] += 1
    return np.asarray(_args.cards_arg(counts, STANDARD), dtype=np.uint8)


def rlcard_play(action: str, rules: Rules = RLCARD) -> Play:
    """The :class:`Play` of an RLCard action string (``'pass'`` is the pass).

    Raises
    ------
    NotationError, ImpossibleHandError
        Not an RLCard string.
    InvalidPlayError
        The cards form no play under ``rules``.
    DdzError
        ``rules`` is not a three-player :class:`Rules`.
    """
    rules = _three_player(rules, "RLCard")
    if not isinstance(action, str):
        raise NotationError(f"an RLCard action must be a str, not {type(action).__name__}: {quote(action)}")
    if action == "pass":
        return PASS
    counts = rlcard_counts(action)
    if not counts.any():
        raise NotationError("empty RLCard action (the pass is 'pass')")
    return moves.classify(counts, rules)


def _rlcard_map(rules: Rules) -> Tuple[np.ndarray, np.ndarray]:
    """The two id maps, built once per rule set and kept on its table."""
    derived = table(rules).derived
    maps = derived.get("rlcard_map")
    if maps is None:
        maps = derived["rlcard_map"] = _build_rlcard_map(rules)
    return maps


def _build_rlcard_map(rules: Rules) -> Tuple[np.ndarray, np.ndarray]:
    from rlcard.games.doudizhu.utils import ID_2_ACTION  # type: ignore[import-not-found]


    space = ActionSpace(rules, implementation="reference")
    ours = {("pass" if not p else format_cards_unchecked(p.counts)): i for i, p in enumerate(space)}
    to_rl = np.full(len(space), -1, dtype=np.int32)
    from_rl = np.full(len(ID_2_ACTION), -1, dtype=np.int32)
    for j, s in enumerate(ID_2_ACTION):
        i = ours.get(s)
        if i is not None:
            to_rl[i] = j
            from_rl[j] = i
    to_rl.setflags(write=False)
    from_rl.setflags(write=False)
    return to_rl, from_rl


def rlcard_id_map(rules: object = RLCARD) -> Tuple[np.ndarray, np.ndarray]:
    """The permutation between :class:`ddz.ActionSpace` ids and RLCard's action ids.

    Requires ``rlcard`` (imported on first call).

    Parameters
    ----------
    rules : Rules or ActionSpace, default ``Rules.profile("rlcard")``

    Returns
    -------
    to_rlcard : numpy.ndarray
        ``int32[len(space)]``: RLCard's id of each of our ids (``-1``: RLCard lacks it;
        never under the RLCard profile).
    from_rlcard : numpy.ndarray
        ``int32[27472]``: our id of each RLCard id (``-1``: not a play under ``rules``,
        e.g. ``'33344455'`` with ``kickers="distinct"``).

    Raises
    ------
    ImportError
        ``rlcard`` is not installed.
    DdzError
        ``rules`` is not a three-player :class:`Rules` or its ActionSpace.
    """

    if isinstance(rules, ActionSpace):
        rules = rules.rules
    return _rlcard_map(_three_player(rules, "RLCard"))
