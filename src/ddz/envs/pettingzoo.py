"""The PettingZoo AEC environment of one hand of Dou Dizhu (RULES.md §3–§7).

``env(**kwargs)`` is :class:`raw_env` wrapped the usual way (PettingZoo's
``TerminateIllegalWrapper`` with ``illegal_reward=-1`` and ``OrderEnforcingWrapper``, with
a check of the action's type and range in place of ``AssertOutOfBoundsWrapper``: an
action that is not an int id of the action space, or one given to an agent whose hand is
over, raises :class:`ddz.ActionIdError`, as ``raw_env`` does, and never an
``AssertionError``); ``raw_env(**kwargs)`` is the bare env, which raises
:class:`ddz.IllegalActionError` on an illegal action instead.

* Agents ``seat_0`` .. ``seat_{n-1}`` (n = ``rules.seats``: 3, or 4 with
  ``Rules.four_player()``); roles change from hand to hand and the observation says who is
  landlord. One episode is one hand, the auction included (and the doubling phase with
  ``Rules(doubling=True)``, the open-play choice in the four-player game).
* One ``Discrete(P + 6)`` action space for every agent and phase: the pass is 0 everywhere,
  ``1 .. P-1`` are the plays of :class:`ddz.ActionSpace`, then bid 1, 2, 3, call/rob,
  double, open (the table is in :mod:`ddz.envs.core`).
* Observations ``{"observation": float32[F], "action_mask": int8[P + 6]}`` of one shape
  for every agent (the layout of :mod:`ddz.envs.core`); the mask is all zeros for an agent
  that is not to act.
* Rewards at the end of the hand: the RULES.md §6 settlement (zero-sum; a void hand gives
  0 to everyone), times ``reward_scale``.
* ``render_mode="ansi"`` (``render()`` returns the table as text, every hand shown) or
  ``"human"`` (prints it after every step).
* ``reset(seed=s)`` makes the episode deterministic: the hand is ``ddz.Game(rules,
  seed=g)`` with ``g`` drawn from ``numpy.random.default_rng(s)``; later resets without a
  seed continue that generator.

Needs ``pettingzoo`` (``pip install "ddz[envs]"``).
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # the optional extra is missing: say how to install it
    raise ImportError(f"ddz.envs.pettingzoo needs PettingZoo and Gymnasium ({exc}); "
                      "install them with: pip install 'ddz[envs]'") from exc

from ..core import arguments as _args
from ..core.cards import is_integer
from ..errors import ActionIdError, DdzError, quote
from ..game.state import Game
from ..core.rules import STANDARD, Rules
from .core import encode_observation, env_actions, observation_high, reward_scale_arg

__all__ = ["env", "raw_env"]

SEED_BOUND = 2 ** 62


def env(**kwargs: Any) -> AECEnv:
    """:class:`raw_env` (same keyword arguments) wrapped as PettingZoo's classic envs are:
    an illegal action ends the hand with reward -1 for the agent that made it (and 0 for
    the others), and the API order is enforced.

    :raises ActionIdError: (from ``step``) an action that is not an int id of the action
        space (a bool, a float, an array, -1, ``P + 6``...), or not ``None`` for an agent
        whose hand is over. PettingZoo's ``AssertOutOfBoundsWrapper`` would raise an
        ``AssertionError`` (or numpy's ``ValueError`` for ``True``), and not at all under
        ``python -O``.
    """
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = _CheckActionWrapper(e)
    e = _OrderEnforcing(e)
    return e


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with a :class:`ddz.DdzError` (not an
    ``AssertionError``, which ``python -O`` drops) for a step or an observation before
    ``reset()``."""

    def step(self, action: Any) -> None:
        if not self._has_reset:
            raise DdzError("call reset() before step()")
        super().step(action)

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            raise DdzError("call reset() before observe()")
        return super().observe(agent)


class _CheckActionWrapper(wrappers.BaseWrapper):
    """``AssertOutOfBoundsWrapper`` with a :class:`ddz.ActionIdError` naming the action."""

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ActionIdError(f"{agent}'s hand is over: its only action is None, not {quote(action)}")
        else:
            n = self.action_space(agent).n
            if not is_integer(action) or not 0 <= action < n:
                raise ActionIdError(f"an action is an int id 0..{n - 1} of the action space, got "
                                    f"{type(action).__name__} {quote(action)}")
        super().step(action)


class raw_env(AECEnv):
    """One hand of Dou Dizhu as a PettingZoo AEC env (module docstring).

    :param rules: a :class:`ddz.Rules` (any rule set, the four-player game included).
    :param render_mode: ``None``, ``"ansi"`` or ``"human"``.
    :param reward_scale: a number from 1e-12 to 1e12 multiplying the scores (1: the raw
        RULES.md §6 scores; :func:`ddz.envs.core.reward_scale_arg`).
    :raises DdzError: a bad argument.
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "ddz_v0", "is_parallelizable": False}

    def __init__(self, rules: Rules = STANDARD, render_mode: Optional[str] = None,
                 reward_scale: float = 1.0) -> None:
        super().__init__()
        self.rules = _args.rules_arg(rules)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise DdzError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.render_mode = render_mode
        self.reward_scale = reward_scale_arg(reward_scale)
        self._acts = env_actions(self.rules)
        self.possible_agents = [f"seat_{i}" for i in range(self.rules.seats)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        high = observation_high(self.rules)
        obs_space = spaces.Dict({
            "observation": spaces.Box(low=0, high=high, shape=high.shape, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self._acts.size,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self._acts.size) for a in self.possible_agents}
        self._rng: Optional[np.random.Generator] = None
        self.game: Optional[Game] = None

    def observation_space(self, agent: str) -> spaces.Space:
        """The ``Dict`` space of ``agent``'s observations (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(P + 6)``, the same for every agent."""
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Deal a new hand (``seed``: an int >= 0 makes it and what follows deterministic)."""
        if seed is not None:
            self._rng = np.random.default_rng(_args.seed_arg(seed, "reset(seed=...) (or None)"))
        elif self._rng is None:
            self._rng = np.random.default_rng()
        self.game = Game(self.rules, seed=int(self._rng.integers(0, SEED_BOUND)))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        """``{"observation": float32[F], "action_mask": int8[P + 6]}`` of ``agent``; the mask
        is zero unless ``agent`` is to act."""
        game = self._need_game()
        seat = self._seat.get(agent)
        if seat is None:
            raise DdzError(f"no agent {quote(agent)}: the agents are {', '.join(self.possible_agents)}")
        mask = np.zeros(self._acts.size, np.int8)
        if game.current_player == seat:
            mask[self._acts.legal_ids(game)] = 1
        return {"observation": encode_observation(game, seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        """The selected agent takes env id ``action`` (``None`` for an agent whose hand is
        over).

        :raises ActionIdError, IllegalActionError: a bad or illegal id (the state is
            unchanged); ``env()`` turns illegal ids into a lost hand instead.
        """
        game = self._need_game()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, np.integer):
            action = int(action)
        self._acts.step(game, action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if game.result is not None:
            for a in self.agents:
                self.rewards[a] = game.result.scores[self._seat[a]] * self.reward_scale
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        """``"ansi"``: the table as text (``str(game)``, every hand shown); ``"human"``: print
        it (returns ``None``)."""
        if self.render_mode is None:
            return None
        text = str(self._need_game())
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def _need_game(self) -> Game:
        if self.game is None:
            raise DdzError("call reset() before using the env (step, observe, render)")
        return self.game
