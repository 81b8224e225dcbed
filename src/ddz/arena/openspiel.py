"""OpenSpiel's searchers as ddz bots: ``openspiel-mcts`` and ``openspiel-ismcts`` (issue 45;
docs/openspiel.md).

Both play any rule set through ``python_ddz`` (:mod:`ddz.envs.openspiel`) and see only the
:class:`ddz.Observation` of their seat. At each decision the bot turns the observation
into what the seat knows (its cards, the face-up card, the bottom once shown, every
action; a farmer's double it has not seen yet is unknown) and draws the hidden cards
uniformly among the deals consistent with it (the game's resampler), then:

* ``openspiel-mcts``: OpenSpiel's ``MCTSBot`` (UCT, random rollouts) on that one deal;
* ``openspiel-ismcts``: OpenSpiel's ``ISMCTSBot`` from it, which draws a new deal of the
  information state for every simulation through the same resampler.

The budget is ``seconds`` a decision (the number of simulations is set from the rate of
the previous decisions) or a fixed number of ``simulations`` (deterministic given the
seed). A decision with one legal action is taken at once. ``pyspiel`` is imported when a
bot is made, not by ``import ddz.arena``.
"""

from __future__ import annotations

import random
import time
from typing import Any, List, Optional

from ..errors import DdzError, quote

__all__ = ["OpenSpielBot", "make_openspiel_bot", "register_bots", "KINDS", "OpenSpielMCTS", "OpenSpielISMCTS"]

KINDS = ("mcts", "ismcts")
"""The searchers: ``"mcts"`` (``openspiel-mcts``) and ``"ismcts"`` (``openspiel-ismcts``)."""


def _number(value: Any, what: str, low: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= low or value != value \
            or value == float("inf"):
        raise DdzError(f"{what} must be a finite number >= {low}, got {quote(value)}")
    return value


class OpenSpielBot:
    """One of OpenSpiel's searchers playing a seat of any rule set (module docstring).

    :param kind: ``"mcts"`` or ``"ismcts"``.
    :param seed: an int >= 0 (``None``: from the operating system).
    :param seconds: the budget of a decision in seconds (default 0.2); ignored when
        ``simulations`` is given.
    :param simulations: a fixed number of simulations a decision (an int >= 1), for
        reproducible play.
    :param uct_c: UCT's exploration constant (default 2, OpenSpiel's examples').
    :raises DdzError: a bad kind, seed or budget; ``open_spiel`` not installed.
    """

    def __init__(self, kind: str = "ismcts", seed: Optional[int] = None, seconds: float = 0.2,
                 simulations: Optional[int] = None, uct_c: float = 2.0) -> None:
        if kind not in KINDS:
            raise DdzError(f"an OpenSpiel searcher is one of {KINDS}, not {quote(kind)}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise DdzError(f"seed must be an int >= 0 or None, got {quote(seed)}")
        self.kind = kind
        self.seconds = _number(seconds, "seconds", 1e-4)
        if simulations is not None and (isinstance(simulations, bool) or not isinstance(simulations, int)
                                        or simulations < 1):
            raise DdzError(f"simulations must be an int >= 1 or None, got {quote(simulations)}")
        self.simulations = simulations
        self.uct_c = _number(uct_c, "uct_c", 0.0)
        try:
            import numpy as np   # noqa: F401  (numpy is a dependency; open_spiel's bots draw from it)
            from ..envs import openspiel as _game   # optional dependency: open_spiel (registers python_ddz)
        except ImportError as exc:   # pragma: no cover - exercised where open_spiel is missing
            raise DdzError(f"openspiel-{kind} needs OpenSpiel: pip install open_spiel ({exc})") from None
        self._game_mod = _game
        self._rng = random.Random(seed)
        self._rate = 200.0        # simulations a second, measured as the bot plays
        self._games: dict = {}

    def __repr__(self) -> str:
        budget = f"simulations={self.simulations}" if self.simulations else f"seconds={self.seconds}"
        return f"OpenSpielBot({self.kind!r}, {budget})"

    def _game(self, rules):
        game = self._games.get(rules)
        if game is None:
            import pyspiel   # optional dependency (loaded with ddz.envs.openspiel in __init__)
            game = self._games[rules] = pyspiel.load_game("python_ddz", params_of(rules))
        return game

    def act(self, observation: Any, legal: List[Any]) -> Any:
        """One of ``legal`` for the seat of ``observation`` (a :class:`ddz.Observation`).

        :raises DdzError: ``legal`` is empty or not a list.
        """
        if not isinstance(legal, (list, tuple)) or not legal:
            raise DdzError(f"a bot chooses from a non-empty list of legal actions, not {quote(legal)}")
        if len(legal) == 1:
            return legal[0]
        import numpy as np   # numpy: open_spiel's bots draw from a RandomState
        from open_spiel.python.algorithms import ismcts, mcts   # optional dependency (open_spiel)
        game = self._game(observation.rules)
        rng = self._rng
        knowledge = self._game_mod.knowledge_of_observation(game.conf, observation)
        state = self._game_mod.replay_knowledge(game, knowledge, rng, False)
        n = self.simulations or max(4, int(self._rate * self.seconds))
        rs = np.random.RandomState(rng.randrange(2 ** 31))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
        if self.kind == "mcts":
            bot = mcts.MCTSBot(game, self.uct_c, n, evaluator, solve=False, random_state=rs)
        else:
            bot = ismcts.ISMCTSBot(game, evaluator, self.uct_c, n, random_state=rs,
                                   final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
            bot.set_resampler(lambda st, player: self._game_mod.resample(st, player, rng, False))
        start = time.perf_counter()
        action = int(bot.step(state))
        spent = time.perf_counter() - start
        if spent > 0:
            self._rate = 0.5 * self._rate + 0.5 * n / spent
        return self._game_mod.ddz_action(game.conf, observation, legal, action)


class OpenSpielMCTS(OpenSpielBot):
    """``openspiel-mcts`` (module docstring) as a class: ``module:Name`` in the arena."""

    def __init__(self, seed: Optional[int] = None, seconds: float = 0.2, simulations: Optional[int] = None) -> None:
        super().__init__("mcts", seed, seconds, simulations)


class OpenSpielISMCTS(OpenSpielBot):
    """``openspiel-ismcts`` (module docstring) as a class: ``module:Name`` in the arena."""

    def __init__(self, seed: Optional[int] = None, seconds: float = 0.2, simulations: Optional[int] = None) -> None:
        super().__init__("ismcts", seed, seconds, simulations)


def make_openspiel_bot(kind: str, seed: Optional[int] = None, **options: Any) -> OpenSpielBot:
    """A new :class:`OpenSpielBot`: ``kind`` ``"mcts"``/``"ismcts"`` (or
    ``"openspiel-mcts"``/``"openspiel-ismcts"``), options ``seconds``, ``simulations``,
    ``uct_c`` (strings such as ``"0.2"`` from a bot spec are read as numbers).

    :raises DdzError: an unknown kind or option, a bad value."""
    if isinstance(kind, str) and kind.startswith("openspiel-"):
        kind = kind[len("openspiel-"):]
    unknown = sorted(set(options) - {"seconds", "simulations", "uct_c"})
    if unknown:
        raise DdzError(f"openspiel-{kind}: unknown option(s) {unknown}; the options are seconds, simulations, uct_c")
    read = {}
    for key, value in options.items():
        if isinstance(value, str):
            try:
                value = int(value) if key == "simulations" else float(value)
            except ValueError:
                raise DdzError(f"openspiel-{kind}: option {key}={value!r} is not a number") from None
        read[key] = value
    return OpenSpielBot(kind, seed, **read)


def register_bots(registry: Any) -> None:
    """Register ``openspiel-mcts`` and ``openspiel-ismcts`` with a bot registry: calls
    ``registry.register(name, factory)`` where ``factory(seed, **options)`` makes the bot
    (options as :func:`make_openspiel_bot` reads them)."""
    for kind in KINDS:
        registry.register(f"openspiel-{kind}",
                          lambda seed=None, _kind=kind, **options: make_openspiel_bot(_kind, seed, **options))


def params_of(rules: Any) -> dict:
    """``python_ddz``'s parameters of a :class:`ddz.Rules` (every field given)."""
    import dataclasses   # the standard library; kept beside its one use
    out = {}
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        out[f.name] = "+".join(sorted(t.name for t in value)) if f.name == "banned" else value
    return out
