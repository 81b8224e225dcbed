"""The arena (issue 27): bots from anywhere play duplicate matches, measured with
confidence intervals, as DouZero evaluates (``mode="douzero"``) or as whole games with
bidding (``mode="game"``).

>>> import ddz.arena
>>> result = ddz.arena.run(["greedy", "random"], deals=20, seed=1)
>>> result.bots[0]["name"], result.bots[0]["wp"] > 0.5
('greedy', True)

* :func:`run` (:mod:`ddz.arena.runner`) and :class:`ArenaResult` (:mod:`ddz.arena.results`);
* the bot protocol (``docs/protocol.md``): :class:`ProtocolBot` (the arena's end) and
  :func:`serve` (a Python bot's end; ``python -m ddz.arena BOT`` serves a bot by name);
* the statistics: :func:`mean_ci`, :class:`Sprt` (:mod:`ddz.arena.stats`);
* the command ``ddz arena`` (:mod:`ddz.arena.cli`).
"""

from .bots import BotSpec, bot_spec
from .protocol import PROTOCOL_VERSION, Forfeit, ProtocolBot, serve
from .results import ArenaResult
from .runner import MODES, run
from .stats import Sprt, elo_of, mean_ci

__all__ = ["run", "ArenaResult", "MODES", "Sprt", "mean_ci", "elo_of", "ProtocolBot", "serve", "Forfeit",
           "PROTOCOL_VERSION", "bot_spec", "BotSpec"]
