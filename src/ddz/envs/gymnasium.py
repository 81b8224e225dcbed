"""The Gymnasium environment: one seat of Dou Dizhu against bots (RULES.md §3–§7).

After ``import ddz.envs``, ``gymnasium.make("ddz/DouDizhu-v0", rules=..., seat=0,
opponents="random")`` builds :class:`DouDizhuEnv`. One episode is one hand, the auction
included; the other seats are played by bots (:class:`ddz.RandomBot`,
:class:`ddz.GreedyBot` or any :class:`ddz.Bot`) between the agent's turns.

* Actions: ``Discrete(P + 6)``, the env action table of :mod:`ddz.envs.core` (the pass is
  0 in every phase, the plays of :class:`ddz.ActionSpace`, then bid 1..3, call/rob, double,
  open).
* Observations: ``{"observation": float32[F], "action_mask": int8[P + 6]}`` (the layout of
  :mod:`ddz.envs.core`); ``info["action_mask"]`` is the same mask (Stable-Baselines3's
  ``MaskablePPO`` and RLlib read either).
* Reward: 0 until the hand ends, then the agent's RULES.md §6 score (zero-sum settlement;
  0 for a void hand) times ``reward_scale``.
* An illegal action (an integer id whose mask bit is 0, or out of range): with
  ``illegal_action="terminate"`` (default) the episode ends with reward
  ``illegal_reward`` and ``info["illegal_action"]`` is ``True``; with ``"raise"`` it
  raises :class:`ddz.IllegalActionError` (:class:`ddz.ActionIdError` out of range) and
  nothing changes. An action that is no integer id at all (``'3'``, ``None``, ``1.5``,
  ``[0]``) raises :class:`ddz.ActionTypeError` (a ``DdzError`` and a ``TypeError``) in
  either mode, as the PettingZoo env does: it is a bug of the agent, not a move. Python
  and numpy integers, and numpy integer arrays of shape ``()`` (what
  ``gymnasium.spaces.Discrete`` accepts), are ids.
* ``reset(seed=s)``: the hand is ``ddz.Game(rules, seed=g)`` with ``g`` drawn from the
  env's ``np_random`` (seeded by ``s``), and bots named by a string are seeded from it
  too, so the episode is deterministic. A hand that ends before the agent's first turn
  (the landlord going out with its first play) is skipped: a new one is dealt.

Gymnasium's vector API: ``gymnasium.make_vec("ddz/DouDizhu-v0", num_envs=N,
vectorization_mode="vector_entry_point", rules=..., seat=0)`` builds
:class:`DouDizhuVectorEnv`, ``N`` of these episodes stepped in C (the hands and the random
opponents), with the same observations, masks, rewards, ends and infos as
``gymnasium.vector.SyncVectorEnv`` of ``N`` :class:`DouDizhuEnv` seeded alike (the test
suite steps both side by side), autoreset ``NEXT_STEP``.

Needs ``gymnasium`` (``pip install "ddz[envs]"``).
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as exc:  # the optional extra is missing: say how to install it
    raise ImportError(f"ddz.envs.gymnasium needs Gymnasium ({exc}); install it with: "
                      "pip install 'ddz[envs]'") from exc

from ..core import arguments as _args
from ..core.implementation import compiled
from ..search.bots import Bot, GreedyBot, RandomBot
from ..errors import ActionIdError, ActionTypeError, DdzError, IllegalActionError, quote
from ..game.results import Result, void_reason
from ..game.state import Game
from ..core.rules import STANDARD, Rules
from .core import c_arguments, encode_observation, env_actions, observation_high, reward_scale_arg

__all__ = ["DouDizhuEnv", "DouDizhuVectorEnv"]

_vector = compiled("envs._vector", "the compiled vectorised game (ddz.envs._vector)")

SEED_BOUND = 2 ** 62
Opponent = Union[str, Bot]


def _action_id(action: Any) -> int:
    """An env action as an int: a Python or numpy integer, or a numpy integer array of
    shape ``()``.

    :raises ActionTypeError: anything else (a str, ``None``, a float, a bool, a list, an
        array of another shape or dtype)."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action[()]
    if isinstance(action, np.integer):
        return int(action)
    if type(action) is int or (isinstance(action, int) and not isinstance(action, bool)):
        return int(action)
    raise ActionTypeError(f"an action is an integer id of the env's Discrete action space, not "
                          f"{type(action).__name__}: {quote(action)}")


class DouDizhuEnv(gymnasium.Env):
    """One seat against bots (module docstring).

    :param rules: a :class:`ddz.Rules` (the four-player game included).
    :param seat: the agent's seat, ``0 .. seats - 1``.
    :param opponents: ``"random"`` or ``"greedy"`` for every other seat, or a sequence of
        one bot (or bot name) per other seat, in seat order; a bot is anything with
        ``act(observation, legal) -> action`` (:class:`ddz.Bot`).
    :param reward_scale: a number from 1e-12 to 1e12 multiplying the scores
        (:func:`ddz.envs.core.reward_scale_arg`).
    :param illegal_action: ``"terminate"`` (default) or ``"raise"``.
    :param illegal_reward: the reward of an illegal action under ``"terminate"`` (-1): a
        finite number.
    :param render_mode: ``None``, ``"ansi"`` or ``"human"``.
    :raises DdzError: a bad argument (it names which).
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(self, rules: Rules = STANDARD, seat: int = 0, opponents: Union[Opponent, Sequence[Opponent]] = "random",
                 reward_scale: float = 1.0, illegal_action: str = "terminate", illegal_reward: float = -1.0,
                 render_mode: Optional[str] = None) -> None:
        self.rules = _args.rules_arg(rules)
        n = self.rules.seats
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
            raise DdzError(f"seat must be a seat 0..{n - 1}, got {seat!r}")
        self.seat = int(seat)
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            opponents = [opponents] * (n - 1)
        opponents = list(opponents)
        if len(opponents) != n - 1:
            raise DdzError(f"opponents needs one bot per other seat ({n - 1}), got {len(opponents)}")
        for k, bot in enumerate(opponents):
            if isinstance(bot, str):
                if bot not in ("random", "greedy"):
                    raise DdzError(f"opponents[{k}]: unknown bot {bot!r} (say 'random' or 'greedy', or give a Bot)")
            elif not callable(getattr(bot, "act", None)):
                raise DdzError(f"opponents[{k}] is not a bot (it needs act(observation, legal)): {bot!r}")
        self.opponents: List[Opponent] = opponents
        self.reward_scale = reward_scale_arg(reward_scale)
        if isinstance(illegal_reward, (bool, np.bool_)) or not isinstance(illegal_reward, (int, float, np.integer, np.floating)) \
                or not math.isfinite(illegal_reward):
            raise DdzError(f"illegal_reward must be a finite number, got {illegal_reward!r}")
        if illegal_action not in ("terminate", "raise"):
            raise DdzError(f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise DdzError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self._acts = env_actions(self.rules)
        high = observation_high(self.rules)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low=0, high=high, shape=high.shape, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self._acts.size,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(self._acts.size)
        self.game: Optional[Game] = None
        self._bots: Dict[int, Any] = {}

    # -- gymnasium API --
    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
              ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        """Deal a hand and let the bots act until the agent's turn.

        :returns: ``(observation, info)``.
        """
        if seed is not None:
            seed = _args.seed_arg(seed, "reset(seed=...) (or None)")
        super().reset(seed=seed)
        rng = self.np_random
        others = [s for s in range(self.rules.seats) if s != self.seat]
        self._bots = {}
        for s, bot in zip(others, self.opponents):
            if bot == "random":
                bot = RandomBot(int(rng.integers(0, SEED_BOUND)))
            elif bot == "greedy":
                bot = GreedyBot()
            self._bots[s] = bot
        while True:
            self.game = Game(self.rules, seed=int(rng.integers(0, SEED_BOUND)))
            self._play_bots()
            if self.game.result is None:
                break
        return self._observe(), self._info()

    def step(self, action: Any) -> Tuple[Dict[str, np.ndarray], float, bool, bool, Dict[str, Any]]:
        """The agent takes env id ``action``; the bots play until its next turn or the end.

        :returns: ``(observation, reward, terminated, truncated, info)``.
        :raises DdzError: called before :meth:`reset` or after the episode ended.
        :raises ActionTypeError: ``action`` is not an integer (module docstring).
        :raises ActionIdError, IllegalActionError: with ``illegal_action="raise"``.
        """
        game = self.game
        if game is None or game.result is not None or self._illegal:
            raise DdzError("the episode is over: call reset()")
        action = _action_id(action)
        try:
            self._acts.step(game, action)
        except DdzError:
            if self.illegal_action == "raise":
                raise
            self._illegal = True
            return self._observe(), self.illegal_reward, True, False, self._info()
        self._play_bots()
        reward = 0.0
        if game.result is not None:
            reward = game.result.scores[self.seat] * self.reward_scale
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, game.result is not None, False, self._info()

    def render(self) -> Optional[str]:
        """``"ansi"``: the table as text (``str(game)``, every hand shown); ``"human"``: print
        it."""
        if self.render_mode is None or self.game is None:
            return None
        text = str(self.game)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    # -- helpers --
    def _play_bots(self) -> None:
        game = self.game
        self._illegal = False
        while game.current_player is not None and game.current_player != self.seat:
            seat = game.current_player
            game.step(self._bots[seat].act(game.observation(seat), game.legal_actions()))

    def _mask(self) -> np.ndarray:
        mask = np.zeros(self._acts.size, np.int8)
        game = self.game
        if not self._illegal and game.current_player == self.seat:
            mask[self._acts.legal_ids(game)] = 1
        return mask

    def _observe(self) -> Dict[str, np.ndarray]:
        self._last_mask = self._mask()
        return {"observation": encode_observation(self.game, self.seat), "action_mask": self._last_mask}

    def _info(self) -> Dict[str, Any]:
        info: Dict[str, Any] = {"action_mask": self._last_mask.copy(), "illegal_action": self._illegal}
        if self.game.result is not None:
            info["result"] = self.game.result
        return info


class DouDizhuVectorEnv(VectorEnv):
    """``num_envs`` episodes of :class:`DouDizhuEnv` in C (module docstring): Gymnasium's
    ``VectorEnv`` with autoreset ``NEXT_STEP`` (the step after an episode ends resets that
    env: its action is ignored, its reward 0).

    :param num_envs: an int from 1 to 2**24.
    :param rules, seat, reward_scale, illegal_action, illegal_reward: as
        :class:`DouDizhuEnv`'s (checked the same way); ``render_mode`` must be ``None``.
    :param opponents: ``"random"`` only: the other seats are random bots played in C,
        choosing as :class:`ddz.RandomBot` does from its own seed.
    :raises DdzError: a bad argument, or the compiled core is absent; ``step`` before
        ``reset``.

    After an episode ends, its env's mask is all zeros until the next step, which resets
    it and ignores its action (any id will do, e.g. 0), as ``SyncVectorEnv`` does.

    ``reset(seed=s)`` seeds env ``i`` with ``s + i`` (a list: one seed per env; ``None``:
    the envs' generators go on), as ``SyncVectorEnv`` does; ``options={"reset_mask":
    bool[N]}`` resets only those envs. ``step(actions int[N])`` returns ``(observations
    {"observation": float32[N, F], "action_mask": int8[N, P + 6]}, rewards float64[N],
    terminations bool[N], truncations bool[N], infos)``; the observations are buffers
    that the next call overwrites (copy them to keep them; ``SyncVectorEnv`` copies),
    the rest new arrays. ``infos`` holds ``action_mask`` (after a step, the observation's
    very array) and ``illegal_action`` for every env and ``result`` (a
    :class:`ddz.Result`) for the envs whose episode ended, each with its ``_name`` mask.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1, rules: Rules = STANDARD, seat: int = 0, opponents: Any = "random",
                 reward_scale: float = 1.0, illegal_action: str = "terminate", illegal_reward: float = -1.0,
                 render_mode: Optional[str] = None) -> None:
        if _vector is None:
            raise DdzError("DouDizhuVectorEnv needs the compiled core (DDZ_NO_EXTENSIONS=1 is set): use "
                           "gymnasium.make_vec(..., vectorization_mode='sync')")
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or not 1 <= num_envs <= 1 << 24:
            raise DdzError(f"num_envs must be an int from 1 to 2**24, got {num_envs!r}")
        if render_mode is not None:
            raise DdzError(f"the vector env does not render (render_mode={render_mode!r}): render a single "
                           "DouDizhuEnv, or use gymnasium.make_vec(..., vectorization_mode='sync')")
        single = DouDizhuEnv(rules, seat, opponents, reward_scale, illegal_action, illegal_reward)  # the checks
        if any(bot != "random" for bot in single.opponents):
            raise DdzError(f"the vector env plays the opponents in C: opponents='random' only, got {opponents!r} "
                           "(other bots: gymnasium.make_vec(..., vectorization_mode='sync'))")
        self.rules, self.seat, self.reward_scale = single.rules, single.seat, single.reward_scale
        self.illegal_action, self.illegal_reward = single.illegal_action, single.illegal_reward
        self.num_envs = n = int(num_envs)
        self.single_observation_space = single.observation_space
        self.single_action_space = single.action_space
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self.render_mode = None
        rules = self.rules
        self._acts = env_actions(rules)
        self._size = self._acts.size
        args = c_arguments(rules)
        self._obs_size = args[3]
        self._core = _vector.SeatCore(n, *args, self.seat, self.reward_scale)
        self._rngs: List[Optional[np.random.Generator]] = [None] * n
        self._autoreset = np.zeros(n, np.bool_)
        self._illegal = np.zeros(n, np.bool_)
        self._status = np.zeros(n, np.int8)
        self._rewards = np.zeros(n, np.float64)
        self._obs = np.zeros((n, self._obs_size), np.float32)
        self._masks = np.zeros((n, self._size), np.int8)
        self._all = np.ones(n, np.bool_)
        self._started = False

    # -- the episodes' generators, as DouDizhuEnv.reset draws from them --
    def _reset_one(self, i: int) -> None:
        rng = self._rngs[i]
        if rng is None:
            rng = self._rngs[i] = seeding.np_random(None)[0]
        core = self._core
        core.seed_bots(i, tuple(int(rng.integers(0, SEED_BOUND)) for _ in range(self.rules.seats - 1)))
        while core.deal(i, int(rng.integers(0, SEED_BOUND))):
            pass            # the hand ended before the agent's first turn: another one
        self._illegal[i] = False

    def reset(self, *, seed: Any = None, options: Optional[Dict[str, Any]] = None
              ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        """Deal a hand in every env (or those of ``options["reset_mask"]``) and let the bots
        act until the agent's turn. :returns: ``(observations, infos)``."""
        n = self.num_envs
        if seed is None or (isinstance(seed, (int, np.integer)) and not isinstance(seed, bool)):
            seeds = [None] * n if seed is None else [int(seed) + i for i in range(n)]
        elif isinstance(seed, (list, tuple)) and len(seed) == n:
            seeds = list(seed)
        else:
            raise DdzError(f"reset(seed=...) takes None, an int >= 0 or a list of {n} of them, got {seed!r}")
        for s in seeds:
            if s is not None and (isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0):
                raise DdzError(f"reset(seed=...): a seed is an int >= 0 or None, got {s!r}")
        mask = np.ones(n, np.bool_)
        if options is not None and "reset_mask" in options:
            mask = options["reset_mask"]
            if not (isinstance(mask, np.ndarray) and mask.dtype == np.bool_ and mask.shape == (n,) and mask.any()):
                raise DdzError(f"options['reset_mask'] must be a bool array of shape ({n},) with a True value")
        for i in np.flatnonzero(mask).tolist():
            if seeds[i] is not None:
                self._rngs[i] = seeding.np_random(int(seeds[i]))[0]
            self._reset_one(i)
            self._autoreset[i] = False
        self._started = True
        obs, masks = self._observe()
        infos = self._infos(masks, np.flatnonzero(mask), ())
        return obs, infos

    def step(self, actions: Any) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """The agent of every env acts (module docstring); a finished env resets instead.

        :raises ActionTypeError: ``actions`` is not ``int[num_envs]`` (an :class:`ActionIdError`).
        :raises IllegalActionError: with ``illegal_action="raise"``, an illegal action
            (nothing is stepped then).
        """
        n = self.num_envs
        if not self._started:
            raise DdzError("call reset() before step(): no episode has begun")
        a = np.asarray(actions)
        if a.shape != (n,) or a.dtype == np.bool_ or not np.issubdtype(a.dtype, np.integer):
            raise ActionTypeError(f"actions must be an int array of shape ({n},), got {a.dtype} {a.shape}")
        a = np.ascontiguousarray(a, np.int64)
        resets = np.flatnonzero(self._autoreset)
        active = ~self._autoreset
        if self.illegal_action == "raise":
            for i in np.flatnonzero(active).tolist():
                if not 0 <= a[i] < self._size:
                    raise ActionIdError(f"actions[{i}] = {int(a[i])} is out of range 0..{self._size - 1}; "
                                        "nothing was stepped")
                if not self._core.legal(i, int(a[i])):
                    raise IllegalActionError(f"actions[{i}] = {int(a[i])} is not legal in env {i}; nothing was stepped")
        for i in resets.tolist():
            self._reset_one(i)
        status, rewards = self._status, self._rewards
        self._core.step(a, active.view(np.uint8), status, rewards)
        illegal = status == -2
        ended = (status == 1) | (status == 2)
        rewards = rewards.copy()
        rewards[illegal] = self.illegal_reward
        self._illegal[:] = illegal
        terminated = illegal | ended
        self._autoreset = terminated.copy()
        obs, masks = self._observe()
        infos = self._infos(masks, np.arange(n), np.flatnonzero(ended))
        return obs, rewards, terminated, np.zeros(n, np.bool_), infos

    def _observe(self) -> Tuple[Dict[str, np.ndarray], np.ndarray]:
        obs, masks = self._obs, self._masks
        self._core.observe(obs, masks, self._illegal.view(np.uint8))
        return {"observation": obs, "action_mask": masks}, masks

    def _infos(self, masks: np.ndarray, rows: np.ndarray, ended: Any) -> Dict[str, Any]:
        """The infos of ``SyncVectorEnv``: ``action_mask`` and ``illegal_action`` for the
        envs of ``rows``, ``result`` for those of ``ended``, each with its mask."""
        n = self.num_envs
        if len(rows) == n:       # every env (step): the mask is the observation's
            shown, mask = self._all, masks
        else:
            shown = np.zeros(n, np.bool_)
            shown[rows] = True
            mask = np.where(shown[:, None], masks, 0).astype(np.int8)
        infos: Dict[str, Any] = {"action_mask": mask, "_action_mask": shown.copy(),
                                 "illegal_action": self._illegal & shown, "_illegal_action": shown.copy()}
        if len(ended):
            results = np.full(n, None, dtype=object)
            have = np.zeros(n, np.bool_)
            for i in np.asarray(ended).tolist():
                results[i] = self._result(i)
                have[i] = True
            infos["result"], infos["_result"] = results, have
        return infos

    def _result(self, i: int) -> Result:
        """The :class:`ddz.Result` of env ``i``'s finished hand (as ``ddz.Game`` scores it)."""
        out = self._core.outcome(i)
        seats = self.rules.seats
        if out[0] == "void":
            return Result.voided(void_reason(self.rules, out[1]), seats)
        lord, bid, bombs, rockets, spring, anti, doubles, robs, bonus, multiplier, score, scores, open_play = out
        return Result.won(lord, scores[lord] > 0, seats, base=bid, bombs=bombs, rockets=rockets, spring=spring,
                          anti_spring=anti, doubles=doubles, robs=robs, bottom_bonus=bonus,
                          multiplier=multiplier, score=score, scores=scores, open_play=open_play)
