"""Cards as arrays of features for learning: DouZero's layout (:func:`encode_cards`).

Card encoding (``encode_cards``)
--------------------------------
One deck: 54 ``uint8`` features, exactly DouZero's ``_cards2array``: for each rank 3..2
(index ``r`` = 0..12), four "at least k copies" bits at ``4*r + k - 1`` (k = 1..4), then
the small joker at 52 and the big joker at 53.

Two decks (the four-player game, RULES.md §7): the same layout with ``d = 2`` copies of
every plane, 108 features: for rank ``r`` in 0..12, "at least k copies" at
``8*r + k - 1`` (k = 1..8), then the small joker's "at least 1, 2" at 104, 105 and the big
joker's at 106, 107. In general ``54 * d`` features (:func:`encoding_size`); a model made
for DouZero's 54 planes needs its input layer widened for two decks.
"""

from __future__ import annotations

from typing import Optional, Union

import numpy as np
import numpy.typing as npt

from ..core import arguments as _args
from ..core.cards import NUM_RANKS, RANK_NAMES, CardsLike, deck_counts
from ..core.rules import STANDARD, Rules
from ..errors import HandError, ImpossibleHandError
from .action_arguments import _check_out

__all__ = ["ENCODING_SIZE", "encoding_size", "encode_cards"]

ENCODING_SIZE = 54
"""Length of one card encoding (:func:`encode_cards`) with one deck."""


def encoding_size(rules: Rules = STANDARD) -> int:
    """Length of one card encoding under ``rules``: ``54 * rules.decks`` (54, or 108 for
    the four-player game)."""
    return 54 * _args.rules_arg(rules).decks


def _encoded(t) -> np.ndarray:
    """``uint8[len(t), 54 * decks]``: the card encoding of every id of table ``t`` (built once)."""
    enc = t.derived.get("encoded")
    if enc is None:
        enc = encode_cards(t.counts, rules=t.rules)
        enc.setflags(write=False)
        t.derived["encoded"] = enc
    return enc


def encode_cards(counts: Union[CardsLike, np.ndarray], out: Optional[np.ndarray] = None,
                 rules: Rules = STANDARD) -> npt.NDArray[np.uint8]:
    """Encode card counts as 54 bits per deck, DouZero's ``_cards2array`` layout.

    With ``d = rules.decks``: for rank index ``r`` in 0..12 (3..2),
    ``enc[4*d*r + k - 1] = counts[r] >= k`` for k = 1..4d; then for the small joker
    ``enc[52*d + k - 1]`` and the big joker ``enc[53*d + k - 1]``, k = 1..d. One deck:
    ``enc[52]`` is the small joker, ``enc[53]`` the big joker (module docstring).

    Parameters
    ----------
    counts : str, int[15] or int[B, 15]
        Notation, one count vector, or a batch of them (any integer dtype).
    out : uint8[E] or uint8[B, E], optional
        Buffer to fill and return; ``E = 54 * d``.
    rules : Rules, default ``ddz.STANDARD``
        Only ``rules.decks`` matters (1, or 2 for the four-player game).

    Returns
    -------
    numpy.ndarray
        ``uint8[E]`` or ``uint8[B, E]`` of 0/1.

    Raises
    ------
    NotationError
        Bad notation.
    HandError
        Wrong shape (last axis not 15, or more than 2 axes), non-integer dtype, negative
        counts, or ``out`` of the wrong shape or dtype.
    ImpossibleHandError
        More copies of a rank than the decks hold (4 per deck, 1 per deck of each joker,
        RULES.md §1): the encoding cannot hold them. The message names the row.
    DdzError
        ``rules`` is not a :class:`ddz.Rules`.
    """
    rules = _args.rules_arg(rules)
    d = rules.decks
    if isinstance(counts, str):
        arr = _args.cards_arg(counts, rules)
        arr = np.asarray(arr, dtype=np.int64)
    else:
        try:
            arr = np.asarray(counts)
        except Exception as exc:
            raise HandError(f"counts is not an int[15] or int[B, 15] array: {counts!r}") from exc
        if arr.ndim not in (1, 2) or arr.shape[-1] != NUM_RANKS:
            raise HandError(f"counts must have shape (15,) or (B, 15), got {arr.shape}")
        if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
            raise HandError(f"counts must be integers, got dtype {arr.dtype}")
        limit = deck_counts(d)
        rows = arr.reshape(-1, NUM_RANKS)
        # checked in the input dtype, before any cast: a huge uint64 must not wrap negative
        neg = (np.flatnonzero((rows < 0).any(axis=1)) if np.issubdtype(arr.dtype, np.signedinteger)
               else np.zeros(0, np.intp))
        if neg.size:
            i = int(neg[0])
            raise HandError(f"counts{'' if arr.ndim == 1 else f'[{i}]'} has a negative count: {rows[i].tolist()!r}")
        over = np.flatnonzero((rows > limit).any(axis=1))
        if over.size:
            i = int(over[0])
            r = int(np.flatnonzero(rows[i] > limit)[0])
            raise ImpossibleHandError(
                f"counts{'' if arr.ndim == 1 else f'[{i}]'} holds {int(rows[i, r])} copies of "
                f"{RANK_NAMES[r]!r}, more than {'one deck' if d == 1 else f'{d} decks'}'s {int(limit[r])} "
                f"(the encoding has {4 * d} bits per rank, {d} per joker)")
        arr = arr.astype(np.int64, copy=False)
    shape = arr.shape[:-1] + (54 * d,)
    if out is None:
        out = np.empty(shape, dtype=np.uint8)
    else:
        _check_out(out, shape, np.uint8)
    planes = arr[..., :13, None] >= np.arange(1, 4 * d + 1)
    out[..., :52 * d] = planes.reshape(arr.shape[:-1] + (52 * d,))
    jokers = arr[..., 13:, None] >= np.arange(1, d + 1)
    out[..., 52 * d:] = jokers.reshape(arr.shape[:-1] + (2 * d,))
    return out
