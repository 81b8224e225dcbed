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
* An illegal action (one whose mask bit is 0): with ``illegal_action="terminate"``
  (default) the episode ends with reward ``illegal_reward`` and ``info["illegal_action"]``
  is ``True``; with ``"raise"`` it raises :class:`ddz.IllegalActionError` and nothing
  changes.
* ``reset(seed=s)``: the hand is ``ddz.Game(rules, seed=g)`` with ``g`` drawn from the
  env's ``np_random`` (seeded by ``s``), and bots named by a string are seeded from it
  too, so the episode is deterministic. A hand that ends before the agent's first turn
  (the landlord going out with its first play) is skipped: a new one is dealt.

Needs ``gymnasium`` (``pip install "ddz[envs]"``).
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as exc:  # the optional extra is missing: say how to install it
    raise ImportError(f"ddz.envs.gymnasium needs Gymnasium ({exc}); install it with: "
                      "pip install 'ddz[envs]'") from exc

from ..core import arguments as _args
from ..search.bots import Bot, GreedyBot, RandomBot
from ..errors import DdzError
from ..game.state import Game
from ..core.rules import STANDARD, Rules
from .core import encode_observation, env_actions, observation_high, reward_scale_arg

__all__ = ["DouDizhuEnv"]

SEED_BOUND = 2 ** 62
Opponent = Union[str, Bot]


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
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
            raise DdzError(f"reset(seed=...) takes an int >= 0 or None, got {seed!r}")
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
        :raises ActionIdError, IllegalActionError: with ``illegal_action="raise"``.
        """
        game = self.game
        if game is None or game.result is not None or self._illegal:
            raise DdzError("the episode is over: call reset()")
        if isinstance(action, np.integer):
            action = int(action)
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
