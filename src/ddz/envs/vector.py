"""N games stepped in one call (RULES.md §3–§7): :class:`VectorGame`.

Every game is a :class:`ddz.Game` (its play phase is the compiled ``ddz._game.PlayState``,
or its pure-Python twin under ``DDZ_NO_EXTENSIONS=1``): the vector game is no second
implementation of the rules. Actions are ids of the env action table of
:mod:`ddz.envs.core` (the pass is 0 in every phase, then the plays of
:class:`ddz.ActionSpace`, then bid 1..3, call/rob, double, open), and observations are the
layout of :func:`ddz.envs.core.encode_observation`, from the point of view of the seat to
act in each game.

Seeds: the ``j``-th hand dealt by ``VectorGame(n, rules, seed)`` (counting game 0..n-1 at
:meth:`VectorGame.reset`, then every auto-reset in game order within a step) is
``ddz.Game(rules, seed=s_j)`` with ``s_j = numpy.random.default_rng(seed).integers(0,
2**62, size=j + 1)[j]`` (drawn one at a time), so any hand can be replayed alone.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

from .. import _args
from ..errors import ActionIdError, DdzError, IllegalActionError
from ..game import Game
from ..rules import STANDARD, Rules
from .core import encode_observation, env_actions, observation_size

__all__ = ["VectorGame"]

SEED_BOUND = 2 ** 62


class VectorGame:
    """``num_envs`` hands of Dou Dizhu stepped together, each restarted when it ends.

    :param num_envs: an int >= 1.
    :param rules: a :class:`ddz.Rules` (any: the four-player game included).
    :param seed: an int >= 0 (see the module docstring for the hands it deals).
    :param reward_scale: a float multiplying the RULES.md §6 scores in the rewards.
    :raises DdzError: a bad argument.

    ``obs`` is ``float32[num_envs, observation_size]`` (:mod:`ddz.envs.core`), the view of
    the seat to act (:attr:`current_players`). The buffers of :meth:`step` are preallocated
    and reused: copy them to keep them past the next step.
    """

    def __init__(self, num_envs: int, rules: Rules = STANDARD, seed: int = 0, reward_scale: float = 1.0) -> None:
        if not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, bool) or num_envs < 1:
            raise DdzError(f"num_envs must be an int >= 1, got {num_envs!r}")
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
            raise DdzError(f"seed must be an int >= 0, got {seed!r}")
        if isinstance(reward_scale, bool) or not isinstance(reward_scale, (int, float, np.floating, np.integer)):
            raise DdzError(f"reward_scale must be a number, got {reward_scale!r}")
        self.num_envs = n = int(num_envs)
        self.rules = _args.rules_arg(rules)
        self.seed = int(seed)
        self.reward_scale = float(reward_scale)
        self.actions = env_actions(self.rules)
        self.num_actions = self.actions.size
        self.num_players = self.rules.seats
        self.observation_size = observation_size(self.rules)
        self._obs = np.zeros((n, self.observation_size), np.float32)
        self._rewards = np.zeros((n, self.num_players), np.float32)
        self._dones = np.zeros(n, np.bool_)
        self._current = np.zeros(n, np.int32)
        self.seeds = np.zeros(n, np.int64)
        self._rng = np.random.default_rng(self.seed)
        self.games: List[Game] = []
        self._ids: Optional[Tuple[np.ndarray, np.ndarray]] = None
        self.reset()

    def _new_game(self, i: int) -> Game:
        s = int(self._rng.integers(0, SEED_BOUND))
        self.seeds[i] = s
        return Game(self.rules, seed=s)

    def _observe(self, i: int) -> None:
        g = self.games[i]
        seat = g.current_player
        self._current[i] = seat
        encode_observation(g, seat, self._obs[i])

    def reset(self) -> npt.NDArray[np.float32]:
        """Deal a new hand in every game (the next seeds, module docstring).

        :returns: the observation buffer, ``float32[num_envs, observation_size]``.
        """
        self.games = [self._new_game(i) for i in range(self.num_envs)]
        for i in range(self.num_envs):
            self._observe(i)
        self._ids = None
        return self._obs

    @property
    def current_players(self) -> npt.NDArray[np.int32]:
        """The seat to act in each game, ``int32[num_envs]`` (a reused buffer)."""
        return self._current

    def legal_ids(self) -> Tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]:
        """The legal env ids of every game in CSR form: game ``i``'s are
        ``ids[offsets[i]:offsets[i+1]]``, ascending (never empty: a game that ends is
        restarted).

        :returns: ``(ids int32[M], offsets int64[num_envs + 1])``.
        """
        if self._ids is None:
            rows = [self.actions.legal_ids(g) for g in self.games]
            offsets = np.zeros(self.num_envs + 1, np.int64)
            np.cumsum([len(r) for r in rows], out=offsets[1:])
            self._ids = (np.concatenate(rows).astype(np.int32, copy=False), offsets)
        return self._ids

    def legal_masks(self, out: Optional[np.ndarray] = None) -> npt.NDArray[np.int8]:
        """The legal ids as 0/1 masks, ``int8[num_envs, num_actions]`` (into ``out``).

        :raises DdzError: ``out`` of the wrong shape or dtype.
        """
        shape = (self.num_envs, self.num_actions)
        if out is None:
            out = np.zeros(shape, np.int8)
        elif not isinstance(out, np.ndarray) or out.shape != shape or out.dtype != np.int8:
            raise DdzError(f"out must be an int8 array of shape {shape}")
        else:
            out[:] = 0
        ids, offsets = self.legal_ids()
        rows = np.repeat(np.arange(self.num_envs), np.diff(offsets))
        out[rows, ids] = 1
        return out

    def _check_actions(self, actions: Any) -> np.ndarray:
        """``actions`` as int64[num_envs], every one legal in its game, or raise (nothing
        is stepped then)."""
        try:
            a = np.asarray(actions)
        except Exception:
            raise ActionIdError(f"actions must be an int array of shape ({self.num_envs},)") from None
        if a.shape != (self.num_envs,) or a.dtype == np.bool_ or not np.issubdtype(a.dtype, np.integer):
            raise ActionIdError(f"actions must be an int array of shape ({self.num_envs},), got "
                                f"{getattr(a, 'dtype', type(a))} {getattr(a, 'shape', '')}")
        a = a.astype(np.int64)
        ids, offsets = self.legal_ids()
        size = self.num_actions
        keys = np.repeat(np.arange(self.num_envs, dtype=np.int64), np.diff(offsets)) * size + ids
        want = np.arange(self.num_envs, dtype=np.int64) * size + a
        pos = np.searchsorted(keys, want)
        ok = (a >= 0) & (a < size) & (pos < len(keys))
        ok[ok] = keys[pos[ok]] == want[ok]
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            x = int(a[i])
            if not 0 <= x < size:
                raise ActionIdError(f"actions[{i}] = {x} is out of range 0..{size - 1}")
            g = self.games[i]
            raise IllegalActionError(f"actions[{i}] = {x} ({self.actions.describe(x)}) is not legal in game {i} "
                                     f"(phase {g.phase.value}, seat {g.current_player}); nothing was stepped")
        return a

    def step(self, actions: Any) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Each game's seat to act takes ``actions[i]`` (an env id); a game that ends
        is scored and restarted with the next seed.

        :param actions: ``int[num_envs]`` env ids, each legal in its game.
        :returns: ``(obs float32[num_envs, observation_size], rewards float32[num_envs,
            players], dones bool[num_envs])``: rewards are the RULES.md §6 scores (zero-sum,
            times ``reward_scale``) in the step that ends a game and 0 otherwise; ``dones[i]``
            says game ``i`` ended (void hands too, with zero rewards) and ``obs[i]`` is the
            first observation of its new hand. Reused buffers.
        :raises ActionIdError: not an int array of shape ``(num_envs,)``, or an id out of range.
        :raises IllegalActionError: an id not legal in its game (the message names the
            game); nothing is stepped then.
        """
        a = self._check_actions(actions).tolist()
        rewards, dones = self._rewards, self._dones
        rewards[:] = 0
        dones[:] = False
        step = self.actions.step
        for i, g in enumerate(self.games):
            step(g, a[i])
            if g.result is not None:
                rewards[i] = g.result.scores
                dones[i] = True
                g = self.games[i] = self._new_game(i)
            self._observe(i)
        if self.reward_scale != 1.0:
            rewards *= self.reward_scale
        self._ids = None
        return self._obs, rewards, dones

    def __repr__(self) -> str:
        return f"<ddz.envs.VectorGame num_envs={self.num_envs} rules={self.rules!r} seed={self.seed}>"
