"""The arguments of the vectorised games (:mod:`ddz.envs.vector`), checked once at the
boundary: each helper returns the value the games take, or raises :class:`ddz.DdzError`
(:class:`ddz.ActionIdError` for actions) naming what was wrong."""

from __future__ import annotations

import warnings
from typing import Any, Optional, Tuple

import numpy as np

from ..core import arguments as _args
from ..core.cards import is_integer
from ..core.parallel import threads_arg
from ..core.rules import Rules
from ..errors import ActionIdError, DdzError, quote

__all__ = ["MAX_ENVS", "MAX_THREADS"]

MAX_ENVS = 1 << 24
"""The most games one vector holds (the C games' limit; both implementations keep it)."""


def _observe_arg(value: Any) -> bool:
    """``observe`` (the constructor's and the settable attribute): a bool. :raises DdzError: else."""
    if not isinstance(value, (bool, np.bool_)):
        raise DdzError(f"observe must be True or False, got {value!r}")
    return bool(value)


def _check_args(num_envs: Any, rules: Any, seed: Any, observe: Any = True) -> Tuple[int, Rules, int]:
    """The constructor's arguments but ``reward_scale`` (``ddz.envs.core.reward_scale_arg``),
    checked. :raises DdzError: a bad one."""
    _observe_arg(observe)
    if not is_integer(num_envs) or not 1 <= num_envs <= MAX_ENVS:
        raise DdzError(f"num_envs must be an int from 1 to {MAX_ENVS} (2**24), got {num_envs!r}")
    return int(num_envs), _args.rules_arg(rules), _args.seed_arg(seed, "seed")


MAX_THREADS = 256    #: the most threads a VectorGame steps on (its shards' tables)


#: ``obs_dtype="packed"``: packed observation rows (:func:`ddz.envs.packed.pack_observations`)
PACKED = "packed"


def _dtype_arg(obs_dtype: Any) -> int:
    """``obs_dtype`` as the kind of row: 0 ``float32``, 1 ``uint8`` (compact), 2 ``"packed"``.

    :raises DdzError: anything else."""
    if isinstance(obs_dtype, str) and obs_dtype == PACKED:
        return 2
    try:
        dt = np.dtype(obs_dtype)
    except TypeError:
        dt = None
    if dt not in (np.dtype(np.float32), np.dtype(np.uint8)) or isinstance(obs_dtype, bool):
        raise DdzError(f"obs_dtype must be numpy.float32, numpy.uint8 (compact) or \"packed\", got {quote(obs_dtype)}")
    return 0 if dt == np.float32 else 1


def _threads_arg(threads: Any, num_envs: int, num_threads: Any = None) -> int:
    """``threads`` of a VectorGame (``num_threads``, its old name, with a
    DeprecationWarning): the one rule of :func:`ddz.core.parallel.threads_arg` (an int
    >= 0, 0 every usable CPU, at most the usable CPUs), at most the games and
    :data:`MAX_THREADS`. :raises DdzError: a bad count, or both names given."""
    if num_threads is not None:
        warnings.warn("VectorGame's num_threads is now called threads", DeprecationWarning, stacklevel=3)
        if not (type(threads) is int and threads == 1):
            raise DdzError("give threads or num_threads (its old name), not both")
        threads = num_threads
    return threads_arg(threads, work=min(num_envs, MAX_THREADS))


class _OldThreadsName:
    """``num_threads``: the old name of the ``threads`` property (a DeprecationWarning)."""

    @property
    def num_threads(self) -> int:
        """Deprecated: :attr:`threads`."""
        warnings.warn("VectorGame's num_threads is now called threads", DeprecationWarning, stacklevel=2)
        return self.threads

    @num_threads.setter
    def num_threads(self, value: int) -> None:
        warnings.warn("VectorGame's num_threads is now called threads", DeprecationWarning, stacklevel=2)
        self.threads = value


def _index_arg(i: Any, n: int) -> int:
    if not is_integer(i) or not 0 <= i < n:
        raise DdzError(f"a game index is an int 0..{n - 1}, got {i!r}")
    return int(i)


def _seeds_arg(seeds: Any, n: int) -> Optional[np.ndarray]:
    """``reset``'s ``seeds``: ``None``, or ``int64[n]`` hand seeds 0 .. 2**63 - 1 (an integer
    array, or a list, tuple or range of ints; else DdzError)."""
    if seeds is None:
        return None
    if isinstance(seeds, np.ndarray):
        ok = (seeds.shape == (n,) and seeds.dtype != np.bool_ and np.issubdtype(seeds.dtype, np.integer)
              and not (n and (int(seeds.min()) < 0 or int(seeds.max()) >= 2 ** 63)))
    else:
        # element by element: numpy would turn a ragged list into an error of its own and a
        # mix of int64 and uint64 into floats
        ok = (isinstance(seeds, (list, tuple, range)) and len(seeds) == n
              and all(is_integer(s) and 0 <= s < 2 ** 63 for s in seeds))
    if not ok:
        raise DdzError(f"seeds must be None or {n} hand seeds, ints 0 .. 2**63 - 1, got {quote(seeds)}")
    if not isinstance(seeds, np.ndarray):
        seeds = [int(s) for s in seeds]
    return np.ascontiguousarray(seeds, np.int64)


def _int_actions(actions: Any, n: int) -> np.ndarray:
    """``actions`` as an integer array of shape ``(n,)``, its ids not yet checked (both
    implementations' ``step``). :raises ActionIdError: anything else."""
    try:
        a = np.asarray(actions)
    except Exception:
        raise ActionIdError(f"actions must be an int array of shape ({n},)") from None
    if a.shape != (n,) or a.dtype == np.bool_ or not np.issubdtype(a.dtype, np.integer):
        raise ActionIdError(f"actions must be an int array of shape ({n},), got "
                            f"{getattr(a, 'dtype', type(a))} {getattr(a, 'shape', '')}")
    return a


#: the vector's built-in policies (``play(steps, policy)``): whether each is the most-cards
#: rule. ``"greedy"`` is ``"most_cards"``'s old name (issue 42: ``ddz.GreedyBot`` is another
#: rule, RULES.md's lowest answer, so the vector's one is named for what it does)
POLICIES = {"random": False, "most_cards": True, "greedy": True}


def _play_args(steps: Any, policy: Any, record: Any, n: int) -> Tuple[int, bool]:
    if not is_integer(steps) or not 0 <= steps < 2 ** 63:
        raise DdzError(f"steps must be an int from 0 to 2**63 - 1, got {steps!r}")
    if not isinstance(policy, str) or policy not in POLICIES:
        raise DdzError(f"policy must be 'random' or 'most_cards' ('greedy', its old name), got {policy!r}")
    if record is not None and (not isinstance(record, np.ndarray) or record.dtype != np.int32
                               or record.shape != (int(steps), n) or not record.flags.c_contiguous
                               or not record.flags.writeable):
        raise DdzError(f"record must be a writeable C-contiguous int32 array of shape ({int(steps)}, {n}) or None")
    return int(steps), POLICIES[policy]
