"""The checks of the action space's array arguments (ids, batches of hands and plays to
beat, ``out`` buffers, ``threads``): each names the first bad row, whichever path runs."""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np

from ..core.cards import NUM_RANKS, RANK_NAMES, deck_counts, format_cards_unchecked, is_integer
from ..core.parallel import threads_arg
from ..core.play import CODE_TYPE_SHIFT
from ..errors import ActionIdError, DdzError, HandError, ImpossibleHandError, InvalidPlayError


def _threads_arg(threads: object) -> int:
    """``threads`` of the batch APIs, checked the same way on every path: the one rule of
    :func:`ddz.core.parallel.threads_arg` (0: every usable CPU; at most the usable CPUs;
    the kernel uses at most one per 128 rows)."""
    return threads_arg(threads)


def _check_out(out: object, shape: Tuple[int, ...], dtype) -> np.ndarray:
    """``out`` if it is a writeable C-contiguous array of ``shape`` and ``dtype``."""
    want = f"a writeable C-contiguous {np.dtype(dtype).name} array of shape {tuple(shape)}"
    if not isinstance(out, np.ndarray):
        raise HandError(f"out must be {want}, got {type(out).__name__}")
    problems = []
    if out.dtype != dtype:
        problems.append(f"dtype {out.dtype}")
    if out.shape != tuple(shape):
        problems.append(f"shape {out.shape}")
    if not out.flags.c_contiguous:
        problems.append("not C-contiguous")
    if not out.flags.writeable:
        problems.append("read-only")
    if problems:
        raise HandError(f"out must be {want}, got {', '.join(problems)}")
    return out


def _id_array(space, ids: object, what: str) -> np.ndarray:
    try:
        arr = np.asarray(ids)
    except Exception as exc:
        raise ActionIdError(f"{what} is not an array of ids: {ids!r}") from exc
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        if arr.size == 0:
            arr = arr.astype(np.int64)
        else:
            raise ActionIdError(f"{what} must be integers, got dtype {arr.dtype}")
    if arr.size:
        bad = np.flatnonzero((arr < 0) | (arr >= len(space)))
        if bad.size:
            j = int(bad[0])
            raise ActionIdError(
                f"{what}[{np.unravel_index(j, arr.shape) if arr.ndim != 1 else j}] = "
                f"{int(arr.flat[j])} is out of range 0..{len(space) - 1} of {space!r}")
    return arr.astype(np.intp, copy=False)

def _out_mask(space, out: Optional[np.ndarray], shape: Tuple[int, ...]) -> np.ndarray:
    if out is None:
        return np.zeros(shape, dtype=np.bool_)
    return _check_out(out, shape, np.bool_)

def _batch_args(space, hands: object, to_beat_ids: object) -> Tuple[np.ndarray, np.ndarray]:
    """Validate a batch; returns C-contiguous ``uint8[B,15]`` and ``int32[B]``."""
    try:
        h = np.asarray(hands)
    except Exception as exc:
        raise HandError(f"hands is not a uint8[B, 15] array: {hands!r}") from exc
    if h.ndim != 2 or h.shape[1] != NUM_RANKS:
        raise HandError(f"hands must have shape (B, 15), got {h.shape}")
    if h.dtype == np.bool_ or not np.issubdtype(h.dtype, np.integer):
        raise HandError(f"hands must be an integer array (uint8), got dtype {h.dtype}")
    b = h.shape[0]
    try:
        tb = np.asarray(to_beat_ids)
    except Exception as exc:
        raise HandError(f"to_beat_ids is not an int32[B] array: {to_beat_ids!r}") from exc
    if tb.shape != (b,):
        raise HandError(f"to_beat_ids must have shape ({b},) to match hands, got {tb.shape}")
    if b and (tb.dtype == np.bool_ or not np.issubdtype(tb.dtype, np.integer)):
        raise HandError(f"to_beat_ids must be an integer array (int32), got dtype {tb.dtype}")
    if (space._kern is not None and h.dtype == np.uint8 and tb.dtype == np.int32
            and h.flags.c_contiguous and tb.flags.c_contiguous):
        return h, tb  # the kernels check every row in C; _check_rows names a bad one
    return space._check_rows(h, tb)

def _check_rows(space, h: np.ndarray, tb: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Every row of a batch checked with numpy (the reference path, and the naming of
    an error the kernels found); returns C-contiguous ``uint8[B,15]`` and ``int32[B]``.

    :raises ActionIdError, InvalidPlayError, HandError, ImpossibleHandError: naming the row.
    """
    t = space._t
    limit = deck_counts(space.rules.decks)
    wide_limit = limit.astype(np.int64)
    if h.shape[0] == 0:
        return np.zeros((0, NUM_RANKS), np.uint8), np.zeros(0, np.int32)
    # ids
    bad = np.flatnonzero((tb < 0) | (tb >= len(space)))
    if bad.size:
        i = int(bad[0])
        raise ActionIdError(
            f"to_beat_ids[{i}] = {int(tb[i])} is out of range 0..{len(space) - 1} of {space!r}")
    tb = np.ascontiguousarray(tb, dtype=np.int32)
    if space.rules.forbidden:
        types = (t.codes[tb] >> CODE_TYPE_SHIFT) & 31
        banned = np.flatnonzero(np.isin(types, [int(x) for x in space.rules.forbidden]))
        if banned.size:
            i = int(banned[0])
            raise InvalidPlayError(
                f"to_beat_ids[{i}] = {int(tb[i])} is {t.notation[int(tb[i])]!r}, a banned "
                f"{t.plays[int(tb[i])].type.name}: it cannot be the play to beat under {space.rules!r}")
    # hands: counts within the deck (compared in the input dtype, before any cast, so
    # that a huge unsigned count cannot wrap), at most max_hand cards, and with the
    # play to beat
    if h.dtype != np.uint8:
        neg = np.flatnonzero((h < 0).any(axis=1)) if np.issubdtype(h.dtype, np.signedinteger) else ()
        if len(neg):
            i = int(neg[0])
            raise HandError(f"hands[{i}] has a negative count: {h[i].tolist()!r}")
    over = np.flatnonzero((h > limit).any(axis=1))
    if over.size:
        i = int(over[0])
        r = int(np.flatnonzero(h[i] > limit)[0])
        raise ImpossibleHandError(
            f"hands[{i}] holds {int(h[i, r])} copies of {RANK_NAMES[r]!r}; "
            f"the deck holds {int(limit[r])}")
    wide = h.astype(np.int64, copy=False)
    sizes = wide.sum(axis=1)
    big = np.flatnonzero(sizes > space.rules.max_hand)
    if big.size:
        i = int(big[0])
        raise ImpossibleHandError(
            f"hands[{i}] {format_cards_unchecked(wide[i])!r} has {int(sizes[i])} cards; "
            f"a player holds at most {space.rules.max_hand}")
    together = wide + t.counts[tb]
    clash = np.flatnonzero((together > wide_limit).any(axis=1))
    if clash.size:
        i = int(clash[0])
        r = int(np.flatnonzero(together[i] > wide_limit)[0])
        raise ImpossibleHandError(
            f"hands[{i}] {format_cards_unchecked(wide[i])!r} and its play to beat "
            f"{t.notation[int(tb[i])]!r} (id {int(tb[i])}) together hold {int(together[i, r])} "
            f"copies of {RANK_NAMES[r]!r}; the deck holds {int(limit[r])}")
    return np.ascontiguousarray(h, dtype=np.uint8), tb
