"""Packed observation rows (``VectorGame(..., obs_dtype="packed")``, issue 30): the
observation of :mod:`ddz.envs.core` as bits, 88 bytes a row for three players (184 for
four) against the 610 of the compact ``uint8`` row and the 2,440 of the ``float32`` one.
:func:`pack_observations` says the layout; :func:`unpack_observations` turns packed rows
back into the ``uint8`` ones. Plain numpy: these are the reference of the C encoder
(``ddz.envs._vector``), which the tests compare with them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.rules import Rules
from ..errors import DdzError, quote
from .core import _rules_arg, compact_observation, observation_layout, observation_size

__all__ = ["COUNT_BLOCKS", "packed_size", "pack_observations", "unpack_observations"]

#: the observation's blocks that hold counts rather than 0/1 features: in a packed row
#: they are bytes after the bits (:func:`pack_observations`)
COUNT_BLOCKS = ("cards_left", "robs", "log2_multiplier")


def _count_features(rules: Rules) -> npt.NDArray[np.intp]:
    """The indices of the count features (:data:`COUNT_BLOCKS`), in layout order."""
    return np.concatenate([np.arange(start, stop) for name, start, stop in observation_layout(rules)
                           if name in COUNT_BLOCKS])


def packed_size(rules: Rules) -> int:
    """The bytes of a packed observation row (:func:`pack_observations`): 88 for three
    players, one deck (610 features), 184 for the four-player game (1,379).

    :raises DdzError: ``rules`` is not a :class:`ddz.Rules`."""
    rules = _rules_arg(rules)
    return ((observation_size(rules) + 7) // 8 + rules.seats + 2 + 7) // 8 * 8


def pack_observations(obs: Any, rules: Rules) -> npt.NDArray[np.uint8]:
    """The packed form of observations (``VectorGame(..., obs_dtype="packed")``, issue
    30): a row of :func:`packed_size` bytes, about a seventh of the ``uint8`` row. With
    ``F = observation_size(rules)`` and ``T = ceil(F / 8)``:

    * bytes ``0 .. T-1``: feature ``i`` of the :func:`observation_layout` as bit ``i % 8``
      of byte ``i // 8`` (``numpy.unpackbits(..., bitorder="little")`` order), for every
      0/1 feature; the bits of the count features (:data:`COUNT_BLOCKS`: ``cards_left``,
      ``robs``, ``log2_multiplier``) are 0;
    * bytes ``T .. T+S+1``: the count features in layout order (``cards_left`` per relative
      seat, ``robs``, then ``log2_multiplier`` in :func:`compact_observation`'s quarter
      steps), one byte each;
    * zeros up to a multiple of 8 bytes.

    :func:`unpack_observations` turns such rows back into the compact ``uint8`` ones.

    :param obs: ``float32`` (:func:`encode_observation`) or compact ``uint8`` observations,
        ``[..., F]``.
    :returns: a new ``uint8[..., packed_size(rules)]`` array.
    :raises DdzError: ``obs`` is not such an array.
    """
    rules = _rules_arg(rules)
    size = observation_size(rules)
    if not isinstance(obs, np.ndarray) or obs.dtype not in (np.float32, np.uint8) or obs.ndim < 1 \
            or obs.shape[-1] != size:
        raise DdzError(f"obs must be a float32 or uint8 array of observations (last axis {size}), "
                       f"not {quote(obs)}")
    compact = compact_observation(obs, rules) if obs.dtype == np.float32 else obs
    counts = _count_features(rules)
    bits = compact.copy()
    bits[..., counts] = 0
    tail = (size + 7) // 8
    out = np.zeros(obs.shape[:-1] + (packed_size(rules),), np.uint8)
    out[..., :tail] = np.packbits(bits, axis=-1, bitorder="little")
    out[..., tail:tail + counts.size] = compact[..., counts]
    return out


def unpack_observations(packed: Any, rules: Rules) -> npt.NDArray[np.uint8]:
    """Packed observation rows (:func:`pack_observations`) as the compact ``uint8`` ones
    (``VectorGame(..., obs_dtype=numpy.uint8)``: the same values feature for feature).

    :param packed: ``uint8[..., packed_size(rules)]``.
    :returns: a new ``uint8[..., observation_size(rules)]`` array.
    :raises DdzError: ``packed`` is not such an array.
    """
    rules = _rules_arg(rules)
    size, width = observation_size(rules), packed_size(rules)
    if not isinstance(packed, np.ndarray) or packed.dtype != np.uint8 or packed.ndim < 1 \
            or packed.shape[-1] != width:
        raise DdzError(f"packed must be a uint8 array of packed observations (last axis {width}), "
                       f"not {quote(packed)}")
    tail = (size + 7) // 8
    counts = _count_features(rules)
    out = np.unpackbits(packed[..., :tail], axis=-1, count=size, bitorder="little")
    out[..., counts] = packed[..., tail:tail + counts.size]
    return out
