"""Reinforcement-learning environments over :class:`ddz.Game` (RULES.md §3–§7).

* :class:`VectorGame` (:mod:`ddz.envs.vector`): N games stepped in one call, numpy in
  and out; needs nothing beyond numpy. In C (:class:`CVectorGame`) when the core is
  compiled, else :class:`PyVectorGame` (a loop over ``ddz.Game``).
* :mod:`ddz.envs.pettingzoo`: the PettingZoo AEC env (``env()``, ``raw_env``), every seat
  an agent (needs ``pettingzoo``: ``pip install "ddz[envs]"``).
* :mod:`ddz.envs.gymnasium`: one seat against bots; importing :mod:`ddz.envs` registers
  it as ``gymnasium.make("ddz/DouDizhu-v0", ...)`` when ``gymnasium`` is installed, and
  its vector env in C as ``gymnasium.make_vec("ddz/DouDizhu-v0", num_envs=N,
  vectorization_mode="vector_entry_point")``.
* :mod:`ddz.envs.core`: the action table and the observation layout they share;
  :mod:`ddz.envs.packed`: the observation as bits (``pack_observations``,
  ``unpack_observations``, ``packed_size``), the rows of ``obs_dtype="packed"``.
* :mod:`ddz.envs.douzero`: DouZero's features of a game (``get_obs(game)``, the dict of
  DouZero's own ``get_obs``), in C when the core is compiled; not imported here.

``import ddz`` never imports this package, and this package imports PettingZoo and
Gymnasium only in the modules that need them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .core import (AUCTION_ACTIONS, EnvActions, encode_observation, encode_observation_py, env_actions,
                   observation_high, observation_layout, observation_size)

if TYPE_CHECKING:       # for type checkers; at run time the vector loads on first use (below)
    from .packed import pack_observations, packed_size, unpack_observations
    from .vector import CVectorGame, PyVectorGame, VectorGame, VectorMemoryError

_VECTOR_NAMES = ("VectorGame", "CVectorGame", "PyVectorGame", "VectorMemoryError")
_PACKED_NAMES = ("pack_observations", "unpack_observations", "packed_size")


def __getattr__(name: str) -> Any:
    """The vector's names and the packed rows' helpers, loaded from :mod:`ddz.envs.vector`
    and :mod:`ddz.envs.packed` on first use (PEP 562): the package's import chain stays
    one module shorter (docs/DESIGN.md, import floors)."""
    if name in _VECTOR_NAMES or name in _PACKED_NAMES:
        # start-up time and the import chain: each module when it is asked for
        if name in _VECTOR_NAMES:
            from . import vector as module  # import floor: loaded on first use
        else:
            from . import packed as module  # import floor: loaded on first use
        value = getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ddz.envs' has no attribute {name!r}")


def __dir__() -> list:
    return sorted(set(globals()) | set(_VECTOR_NAMES) | set(_PACKED_NAMES))

__all__ = ["VectorGame", "CVectorGame", "PyVectorGame", "VectorMemoryError", "EnvActions", "env_actions", "encode_observation",
           "encode_observation_py", "observation_layout", "observation_size", "observation_high",
           "AUCTION_ACTIONS", "ENV_ID", "pack_observations", "unpack_observations", "packed_size"]

#: the Gymnasium id of :class:`ddz.envs.gymnasium.DouDizhuEnv`
ENV_ID = "ddz/DouDizhu-v0"


def _register() -> None:
    """Register :data:`ENV_ID` with Gymnasium, if it is installed (once)."""
    try:
        import gymnasium   # optional dependency (the envs extra)
    except ImportError:
        return
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="ddz.envs.gymnasium:DouDizhuEnv",
                           vector_entry_point="ddz.envs.gymnasium:DouDizhuVectorEnv")


_register()
