"""N games stepped in one call (RULES.md §3–§7): :class:`VectorGame`.

``VectorGame(num_envs, rules, seed)`` is one of two implementations with the same
interface, chosen at construction:

* :class:`CVectorGame`, whenever the core is compiled, for every rule set: the games live
  in C (``ddz.envs._vector``) and are stepped without the GIL; the play phase is the
  core's ``PlayCore`` state machine, the very one :class:`ddz.Game` steps through
  ``ddz.game._game.PlayState``, and the whole hand around it is in C too: the deal (the
  face-up card included), the auction (points once or until passes, rob, the four-player
  forced bid), doubling, the four-player open play, redeals and void hands, scoring
  (spring, anti-spring, ``doubling_bombs``, ``bottom_bonus``) and the observation
  encoding, twins of :mod:`ddz.game.deal`, :mod:`ddz.game.auction`, :class:`ddz.Game`
  and :func:`ddz.envs.core.encode_observation`.
* :class:`PyVectorGame`, the pure-Python reference: a list of :class:`ddz.Game`, used
  under ``DDZ_NO_EXTENSIONS=1`` and by the tests as the oracle.

The test suite steps both, and independent :class:`ddz.Game` objects, in lockstep and
requires identical hands, legal ids, observations, rewards and ends.

Actions are ids of the env action table of :mod:`ddz.envs.core` (the pass is 0 in every
phase, then the plays of :class:`ddz.ActionSpace`, then bid 1..3, call/rob, double,
open), and observations are the layout of :func:`ddz.envs.core.encode_observation`, from
the point of view of the seat to act in each game.

Seeds: hand ``j`` (0, 1, ...) of ``VectorGame(n, rules, seed)`` (counting games 0..n-1 at
construction and at each :meth:`~PyVectorGame.reset`, then every auto-reset in game order
within a step; hands dealt from ``reset(seeds=...)`` are not counted) is ``ddz.Game(rules, seed=s_j)`` with
``s_j = ddz.game.deal.vector_hand_seed(seed, j)`` (a counter-based hash of the seed and
``j``, module :mod:`ddz.game.deal`), so any hand can be replayed alone, and found from
``(seed, j)`` without dealing the hands before it.

Built-in policies (``play(steps, policy)``, for data generation): ``"random"`` picks
``ids[(z >> 32) * m >> 32]`` of the ``m`` legal ids (ascending) of each game, in game
order, with ``z`` the next output of a splitmix64 generator whose state starts at
``seed ^ 0x5DEECE66D`` (one output per game and step: a shard of games on a thread finds
its own); ``"most_cards"`` takes in the auction the highest id (bid 3, call/rob,
double) and in the play phase the play of the most cards (the lowest such id). Its old
name ``"greedy"`` still works; it is not :class:`ddz.GreedyBot`'s rule (issue 42).
"""

from __future__ import annotations

import abc
from typing import Any, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

from ..core.implementation import compiled
from ..errors import ActionIdError, DdzError, IllegalActionError, VectorMemoryError
from ..game.deal import mix64, vector_hand_seed
from ..game.state import Game
from ..core.rules import STANDARD, Rules
from .memory import _available_bytes, _memory_error
from .core import c_arguments, compact_observation, encode_observation, env_actions, observation_size, reward_scale_arg
from .vector_args import (MAX_ENVS, MAX_THREADS, _dtype_arg, _index_arg, _int_actions, _observe_arg, _play_args,
                          _seeds_arg, _threads_arg, _OldThreadsName)
from . import vector_args as _vargs

__all__ = ["VectorGame", "CVectorGame", "PyVectorGame", "VectorMemoryError", "MAX_ENVS", "MAX_THREADS"]

_vector = compiled("envs._vector", "the compiled vectorised game (ddz.envs._vector)")


#: bytes one game of :class:`PyVectorGame` takes before it plays, besides its observation row
#: (a :class:`ddz.Game` and its part of the buffers: measured with ``tracemalloc``, 5-6 KB)
PY_GAME_BYTES = 6 * 1024


def _check_memory(n: int, per_game: int, kind: str) -> None:
    """Refuse ``n`` games of ``per_game`` bytes before allocating them when they do not fit
    in the memory available (:func:`_available_bytes`): on Linux a large allocation
    succeeds lazily and the kernel kills the process once the games touch it.

    :raises VectorMemoryError: they do not fit, saying how much they need and how much is
        available."""
    available = _available_bytes()
    if available is not None and n * per_game > available:
        raise _memory_error(n, per_game, available, kind)


def _check_args(num_envs: Any, rules: Any, seed: Any, reward_scale: Any,
                observe: Any = True) -> Tuple[int, Rules, int, float]:
    """The constructor's arguments, checked (:mod:`ddz.envs.vector_args`). :raises DdzError: a bad one."""
    return (*_vargs._check_args(num_envs, rules, seed, observe), reward_scale_arg(reward_scale))

_MASK64 = (1 << 64) - 1


def _policy_seed(seed: int) -> int:
    return (seed & _MASK64) ^ 0x5DEECE66D


def _splitmix(state: int) -> Tuple[int, int]:
    """splitmix64: ``(new state, output)``."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    return state, mix64(state)


class VectorGame(abc.ABC):
    """``num_envs`` hands of Dou Dizhu stepped together, each restarted when it ends
    (RULES.md §3–§7).

    ``VectorGame(num_envs, rules=STANDARD, seed=0, reward_scale=1.0)`` returns a
    :class:`CVectorGame` when the core is compiled, else (``DDZ_NO_EXTENSIONS=1``) a
    :class:`PyVectorGame`; both are instances of
    ``VectorGame`` and behave identically (module docstring).

    :param num_envs: an int from 1 to ``MAX_ENVS`` = 2**24.
    :param rules: a :class:`ddz.Rules`.
    :param seed: an int 0 .. 2**64 - 1 (the module docstring says which hands it deals).
    :param reward_scale: a number from 1e-12 to 1e12 multiplying the RULES.md §6 scores
        in the rewards (:func:`ddz.envs.core.reward_scale_arg`).
    :param observe: ``False`` leaves the observation buffer untouched (zeros): for loops
        that need only the legal ids, rewards and ends (the attribute can be switched).
    :param obs_dtype: ``numpy.float32`` (default); ``numpy.uint8``: compact observations,
        a quarter of the bytes (:func:`ddz.envs.core.compact_observation` says how); or
        ``"packed"``: the same values in ``uint8[num_envs, packed_size(rules)]`` rows of
        bits and counts, 88 bytes for three players against 2,440
        (:func:`ddz.envs.packed.pack_observations`; :func:`~ddz.envs.packed.unpack_observations`
        gives the ``uint8`` rows back).
    :param threads: ``step`` and ``play`` run on this many native threads without the
        GIL, each on a shard of the games (OpenMP; settable): an int >= 0, 0 for every
        usable CPU, at most the usable CPUs and the games (:func:`ddz.core.parallel.threads_arg`;
        ``num_threads``, the old name, still works with a DeprecationWarning). The
        results, observations, legal ids, seeds, records and totals are the same for every
        value. The pure-Python ``PyVectorGame`` runs in one thread.
    :raises DdzError: a bad argument.
    :raises VectorMemoryError: the games need more memory than is available (checked
        before they are allocated; the message says how much they need).

    Interface: ``reset() -> obs``; ``legal_ids() -> (ids int32[M], offsets
    int64[num_envs + 1])``; ``legal_masks(out=None) -> int8[num_envs, num_actions]``;
    ``step(actions int[num_envs]) -> (obs float32[num_envs, observation_size], rewards
    float32[num_envs, players], dones bool[num_envs])``; ``play(steps, policy="random",
    record=None)``; ``current_players`` (``int32[num_envs]``), ``observations``,
    ``seeds`` (``int64[num_envs]``, the seed of each game's hand), ``hands(i)``;
    ``num_envs``, ``num_actions``, ``num_players``, ``observation_size``, ``rules``,
    ``seed``, ``reward_scale``. Returned arrays are preallocated buffers, overwritten by
    the next call: copy them to keep them.
    """

    def __new__(cls, num_envs: int, rules: Rules = STANDARD, seed: int = 0,
                reward_scale: float = 1.0, observe: bool = True, threads: int = 1,
                obs_dtype: Any = np.float32, *, num_threads: Optional[int] = None) -> Any:
        _, rules, _, _ = _check_args(num_envs, rules, seed, reward_scale, observe)
        threads = _threads_arg(threads, num_envs, num_threads)
        if _vector is not None:
            return CVectorGame(num_envs, rules, seed, reward_scale, observe, threads, obs_dtype)
        return PyVectorGame(num_envs, rules, seed, reward_scale, observe, threads, obs_dtype)


class CVectorGame(_OldThreadsName):
    """:class:`VectorGame` in C (module docstring): the games are C structs stepped
    without the GIL by ``ddz.envs._vector``. Same arguments and interface as
    :class:`VectorGame`.

    :raises VectorMemoryError: the games need more memory than is available.
    :raises DdzError: a bad argument, or the compiled core is absent (``DDZ_NO_EXTENSIONS=1``).

    It cannot be pickled or copied (``TypeError``): rebuild it with the same seed, or use
    :class:`PyVectorGame`.
    """

    def __init__(self, num_envs: int, rules: Rules = STANDARD, seed: int = 0, reward_scale: float = 1.0,
                 observe: bool = True, threads: int = 1, obs_dtype: Any = np.float32, *,
                 num_threads: Optional[int] = None) -> None:
        n, rules, seed, scale = _check_args(num_envs, rules, seed, reward_scale, observe)
        threads = _threads_arg(threads, n, num_threads)
        kind = _dtype_arg(obs_dtype)
        if _vector is None:
            raise DdzError("CVectorGame needs the compiled core (DDZ_NO_EXTENSIONS=1 is set): use PyVectorGame")
        self.num_envs, self.rules, self.seed, self.reward_scale = n, rules, seed, scale
        self.actions = env_actions(rules)
        self.num_actions = self.actions.size
        self.num_players = rules.seats
        self.observation_size = observation_size(rules)
        per_game = _vector.game_bytes(self.observation_size, rules.seats)
        _check_memory(n, per_game, "CVectorGame")
        try:
            self._core = _vector.VectorCore(n, *c_arguments(rules), seed, scale, kind)
        except MemoryError:
            raise _memory_error(n, per_game, _available_bytes(), "CVectorGame") from None
        self._core.observe = bool(observe)
        self._core.num_threads = threads
        self._core.reset()

    @property
    def threads(self) -> int:
        """The native threads :meth:`step` runs on (settable, as the argument)."""
        return int(self._core.num_threads)

    @threads.setter
    def threads(self, value: int) -> None:
        self._core.num_threads = _threads_arg(value, self.num_envs)

    @property
    def observe(self) -> bool:
        """Whether :meth:`step` encodes the observations (settable)."""
        return bool(self._core.observe)

    @observe.setter
    def observe(self, value: bool) -> None:
        self._core.observe = _observe_arg(value)

    def reset(self, seeds: Any = None) -> npt.NDArray[np.float32]:
        """Deal a new hand in every game: the next seeds (module docstring), or ``seeds``.

        :param seeds: ``None``, or ``int[num_envs]`` hand seeds (0 .. 2**63 - 1): game
            ``i`` deals ``ddz.Game(rules, seed=seeds[i])``'s hand (to replay chosen hands;
            the games' later hands take the next seeds of the stream as before).
        :returns: the observation buffer, ``float32[num_envs, observation_size]``.
        :raises DdzError: bad ``seeds``.
        """
        return self._core.reset(_seeds_arg(seeds, self.num_envs))

    @property
    def observations(self) -> npt.NDArray[np.float32]:
        """The observation buffer, ``float32[num_envs, observation_size]`` (reused)."""
        return self._core.obs

    @property
    def current_players(self) -> npt.NDArray[np.int32]:
        """The seat to act in each game, ``int32[num_envs]`` (a reused buffer)."""
        return self._core.current_players

    @property
    def seeds(self) -> npt.NDArray[np.int64]:
        """The seed of each game's hand (``ddz.Game(rules, seed=...)`` replays it)."""
        return self._core.seeds

    @property
    def hands_started(self) -> int:
        """Hands dealt from the vector's seed so far: the next is hand ``j`` = this (module
        docstring)."""
        return self._core.hands_started

    def legal_ids(self) -> Tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]:
        """The legal env ids of every game in CSR form: game ``i``'s are
        ``ids[offsets[i]:offsets[i+1]]``, ascending (never empty).

        :returns: ``(ids int32[M], offsets int64[num_envs + 1])``, views of reused buffers.
        """
        return self._core.legal_ids()

    def legal_masks(self, out: Optional[np.ndarray] = None) -> npt.NDArray[np.int8]:
        """The legal ids as 0/1 masks, ``int8[num_envs, num_actions]`` (into ``out``).

        :raises DdzError: ``out`` of the wrong shape or dtype, or not C-contiguous.
        """
        shape = (self.num_envs, self.num_actions)
        if out is None:
            out = np.empty(shape, np.int8)
        elif (not isinstance(out, np.ndarray) or out.shape != shape or out.dtype != np.int8
              or not out.flags.c_contiguous or not out.flags.writeable):
            raise DdzError(f"out must be a writeable C-contiguous int8 array of shape {shape}")
        self._core.legal_masks(out)
        return out

    def _actions_arg(self, actions: Any) -> np.ndarray:
        """``actions`` as a C-contiguous ``int32[num_envs]`` (ids not yet checked)."""
        a = _int_actions(actions, self.num_envs)
        if a.dtype != np.int32:
            wide = a.astype(np.int64)
            bad = np.flatnonzero((wide < 0) | (wide >= self.num_actions))
            if len(bad):
                i = int(bad[0])
                raise ActionIdError(f"actions[{i}] = {int(a[i])} is out of range 0..{self.num_actions - 1}")
            a = wide
        return np.ascontiguousarray(a, np.int32)

    def step(self, actions: Any) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Each game's seat to act takes ``actions[i]`` (an env id); a game that ends
        is scored and restarted with the next seed (RULES.md §3–§6).

        :param actions: ``int[num_envs]`` env ids, each legal in its game (``int32``
            C-contiguous is taken as is; other integer arrays are converted).
        :returns: ``(obs float32[num_envs, observation_size], rewards float32[num_envs,
            players], dones bool[num_envs])``: rewards are the RULES.md §6 scores (zero-sum,
            times ``reward_scale``) in the step that ends a game and 0 otherwise; ``dones[i]``
            says game ``i`` ended (void hands too, with zero rewards) and ``obs[i]`` is the
            first observation of its new hand. Reused buffers.
        :raises ActionIdError: not an int array of shape ``(num_envs,)``, or an id out of range.
        :raises IllegalActionError: an id not legal in its game (the message names the
            game); nothing is stepped then.
        """
        a = actions
        if type(a) is not np.ndarray or a.dtype != np.int32 or a.shape != (self.num_envs,) \
                or not a.flags.c_contiguous:
            a = self._actions_arg(actions)
        core = self._core
        i = core.step(a)
        if i >= 0:
            x = int(a[i])
            if not 0 <= x < self.num_actions:
                raise ActionIdError(f"actions[{i}] = {x} is out of range 0..{self.num_actions - 1}")
            raise IllegalActionError(f"actions[{i}] = {x} ({self.actions.describe(x)}) is not legal in game {i} "
                                     f"(phase {self._core.phase(i)}, seat {int(self.current_players[i])}); "
                                     "nothing was stepped")
        return core.obs, core.rewards, core.dones

    def play(self, steps: int, policy: str = "random",
             record: Optional[np.ndarray] = None) -> Tuple[int, npt.NDArray[np.float64]]:
        """Step every game ``steps`` times with a built-in policy chosen in C, without the
        GIL (module docstring), for data generation; the observations and legal ids are
        brought up to date once, at the end.

        On ``threads`` threads each step is one pass over shards of the games, the
        hands that ended being dealt after it in game order: the same games for any number.

        :param steps: an int >= 0. :param policy: ``"random"`` or ``"most_cards"`` (``"greedy"``, its old name).
        :param record: ``int32[steps, num_envs]`` to receive the actions, or ``None``.
        :returns: ``(hands finished, float64[players])``: the hands that ended (void ones
            too) and the scores of those played out summed per seat (exact integers),
            times ``reward_scale``.
        :raises DdzError: a bad argument.
        """
        steps, most_cards = _play_args(steps, policy, record, self.num_envs)
        return self._core.play(steps, most_cards, record)

    def play_random(self, steps: int) -> Tuple[int, npt.NDArray[np.float64]]:
        """``play(steps, "random")``."""
        return self.play(steps, "random")

    def hands(self, i: int) -> npt.NDArray[np.int64]:
        """Every seat's cards in game ``i``: a new ``int64[seats, 15]`` array.

        :raises DdzError: ``i`` is not a game index."""
        return self._core.hands(_index_arg(i, self.num_envs))

    def __reduce__(self) -> Any:
        raise TypeError("a CVectorGame cannot be pickled or copied: build a new one with the same "
                        "arguments (the seed replays the same hands), or use PyVectorGame")

    def __repr__(self) -> str:
        return f"<ddz.envs.CVectorGame num_envs={self.num_envs} rules={self.rules!r} seed={self.seed}>"


class PyVectorGame(_OldThreadsName):
    """``num_envs`` hands of Dou Dizhu stepped together, each restarted when it ends: the
    pure-Python reference (a list of :class:`ddz.Game`), any rule set.

    :param num_envs: an int >= 1.
    :param rules: a :class:`ddz.Rules` (any: the four-player game included).
    :param seed: an int 0 .. 2**64 - 1 (see the module docstring for the hands it deals).
    :param reward_scale: a number from 1e-12 to 1e12 multiplying the RULES.md §6 scores
        in the rewards.
    :raises DdzError: a bad argument.
    :raises VectorMemoryError: the games need more memory than is available.

    ``obs`` is ``float32[num_envs, observation_size]`` (:mod:`ddz.envs.core`), the view of
    the seat to act (:attr:`current_players`). The buffers of :meth:`step` are preallocated
    and reused: copy them to keep them past the next step.
    """

    def __init__(self, num_envs: int, rules: Rules = STANDARD, seed: int = 0, reward_scale: float = 1.0,
                 observe: bool = True, threads: int = 1, obs_dtype: Any = np.float32, *,
                 num_threads: Optional[int] = None) -> None:
        n, self.rules, self.seed, self.reward_scale = _check_args(num_envs, rules, seed, reward_scale, observe)
        self._kind = _dtype_arg(obs_dtype)          # 0 float32, 1 uint8, 2 packed
        from .packed import pack_observations, packed_size   # import floor: the packed rows' module on use
        self._pack = pack_observations
        self.threads = _threads_arg(threads, n, num_threads)     # kept; the reference steps in one thread
        self._observe_flag = bool(observe)
        self.num_envs = n
        self.actions = env_actions(self.rules)
        self.num_actions = self.actions.size
        self.num_players = self.rules.seats
        self.observation_size = observation_size(self.rules)
        per_game = 4 * self.observation_size + PY_GAME_BYTES
        _check_memory(n, per_game, "PyVectorGame")
        try:
            self._obs = np.zeros((n, (self.observation_size, self.observation_size, packed_size(self.rules))[self._kind]),
                                 np.float32 if self._kind == 0 else np.uint8)
            self._rewards = np.zeros((n, self.num_players), np.float32)
            self._dones = np.zeros(n, np.bool_)
            self._current = np.zeros(n, np.int32)
            self.seeds = np.zeros(n, np.int64)
            self.hands_started = 0          # hands dealt from the seed: the next is hand j = this
            self._score_sums = np.zeros(self.num_players, np.int64)   # every ended hand's scores (play)
            self.games: List[Game] = []
            self._pstate: Optional[int] = None
            self._ids: Optional[Tuple[np.ndarray, np.ndarray]] = None
            self.reset()
        except MemoryError:
            self.games = []
            raise _memory_error(n, per_game, _available_bytes(), "PyVectorGame") from None

    def _new_game(self, i: int, seed: Optional[int] = None) -> Game:
        if seed is None:
            s = vector_hand_seed(self.seed, self.hands_started)
            self.hands_started += 1
        else:
            s = seed
        self.seeds[i] = s
        return Game(self.rules, seed=s)

    @property
    def observe(self) -> bool:
        """Whether :meth:`step` encodes the observations (settable: ``True`` or ``False``)."""
        return self._observe_flag

    @observe.setter
    def observe(self, value: bool) -> None:
        self._observe_flag = _observe_arg(value)

    def _observe(self, i: int) -> None:
        g = self.games[i]
        seat = g.current_player
        self._current[i] = seat
        if self.observe:
            if self._kind == 0:
                encode_observation(g, seat, self._obs[i])
            elif self._kind == 1:
                self._obs[i] = compact_observation(encode_observation(g, seat), self.rules)
            else:
                self._obs[i] = self._pack(encode_observation(g, seat), self.rules)

    def reset(self, seeds: Any = None) -> npt.NDArray[np.float32]:
        """Deal a new hand in every game: the next seeds (module docstring), or ``seeds``.

        :param seeds: ``None``, or ``int[num_envs]`` hand seeds (0 .. 2**63 - 1): game
            ``i`` deals ``ddz.Game(rules, seed=seeds[i])``'s hand.
        :returns: the observation buffer, ``float32[num_envs, observation_size]``.
        :raises DdzError: bad ``seeds``.
        """
        chosen = _seeds_arg(seeds, self.num_envs)
        self.games = [self._new_game(i, None if chosen is None else int(chosen[i])) for i in range(self.num_envs)]
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
        given = _int_actions(actions, self.num_envs)
        a = given.astype(np.int64)              # a uint64 beyond 2**63 - 1 wraps below 0: refused
        ids, offsets = self.legal_ids()
        size = self.num_actions
        keys = np.repeat(np.arange(self.num_envs, dtype=np.int64), np.diff(offsets)) * size + ids
        want = np.arange(self.num_envs, dtype=np.int64) * size + a
        pos = np.searchsorted(keys, want)
        ok = (a >= 0) & (a < size) & (pos < len(keys))
        ok[ok] = keys[pos[ok]] == want[ok]
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            x = int(given[i])
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
                self._score_sums += g.result.scores
                dones[i] = True
                g = self.games[i] = self._new_game(i)
            self._observe(i)
        if self.reward_scale != 1.0:
            rewards *= self.reward_scale
        self._ids = None
        return self._obs, rewards, dones

    @property
    def observations(self) -> npt.NDArray[np.float32]:
        """The observation buffer, ``float32[num_envs, observation_size]`` (reused)."""
        return self._obs

    def hands(self, i: int) -> npt.NDArray[np.int64]:
        """Every seat's cards in game ``i``: a new ``int64[seats, 15]`` array.

        :raises DdzError: ``i`` is not a game index."""
        i = _index_arg(i, self.num_envs)
        return np.array([self.games[i].hand(s) for s in range(self.num_players)], np.int64)

    def play(self, steps: int, policy: str = "random",
             record: Optional[np.ndarray] = None) -> Tuple[int, npt.NDArray[np.float64]]:
        """:meth:`step` every game ``steps`` times with a built-in policy (module
        docstring: the same choices as the C :class:`CVectorGame`, for data generation).

        :param steps: an int >= 0. :param policy: ``"random"`` or ``"most_cards"`` (``"greedy"``, its old name).
        :param record: ``int32[steps, num_envs]`` to receive the actions, or ``None``.
        :returns: ``(hands finished, float64[players])``: the hands that ended and the
            scores of those played out summed per seat, times ``reward_scale``.
        :raises DdzError: a bad argument.
        """
        steps, most_cards = _play_args(steps, policy, record, self.num_envs)
        state = _policy_seed(self.seed) if self._pstate is None else self._pstate
        counts = self.actions.space.card_counts if most_cards else None
        finished, before = 0, self._score_sums.copy()
        for t in range(steps):
            ids, offsets = self.legal_ids()
            acts = np.empty(self.num_envs, np.int64)
            for i in range(self.num_envs):
                row = ids[offsets[i]:offsets[i + 1]]
                if not most_cards:
                    state, z = _splitmix(state)
                    acts[i] = row[((z >> 32) * len(row)) >> 32]
                elif self.games[i].phase != "playing":
                    acts[i] = row[-1]
                else:
                    acts[i] = row[int(np.argmax([sum(counts[x]) for x in row.tolist()]))]
            if record is not None:
                record[t] = acts
            _, rewards, dones = self.step(acts)
            finished += int(dones.sum())
        self._pstate = state
        return finished, (self._score_sums - before).astype(np.float64) * self.reward_scale

    def play_random(self, steps: int) -> Tuple[int, npt.NDArray[np.float64]]:
        """``play(steps, "random")``."""
        return self.play(steps, "random")

    def __repr__(self) -> str:
        return f"<ddz.envs.PyVectorGame num_envs={self.num_envs} rules={self.rules!r} seed={self.seed}>"


VectorGame.register(CVectorGame)
VectorGame.register(PyVectorGame)
