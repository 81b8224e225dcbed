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
* results that last: :meth:`ArenaResult.save` / :meth:`ArenaResult.load` (every format
  ever written), :func:`resume` (play the deals an interrupted run left), :func:`merge`
  (runs over different deals pooled);
* the statistics: :func:`wp_interval`, :func:`adp_interval`, :func:`elo_of`,
  :func:`rating_list` (:mod:`ddz.arena.stats`) and :class:`Sprt` (:mod:`ddz.arena.sprt`);
* the command ``ddz arena`` (:mod:`ddz.arena.cli`).
"""

from .bots import BUILTIN, BotSpec, bot_spec
from .protocol import PROTOCOL_VERSION, BotStartError, Forfeit, ProtocolBot, serve
from .results import ArenaResult, merge
from .runner import MODES, resume, run
from .sprt import Sprt
from .stats import adp_interval, elo_of, mean_ci, rating_list, wp_interval

__all__ = ["run", "resume", "merge", "ArenaResult", "MODES", "Sprt", "mean_ci", "wp_interval", "adp_interval",
           "elo_of", "rating_list", "ProtocolBot", "serve", "Forfeit", "PROTOCOL_VERSION", "BotStartError", "bot_spec", "BotSpec",
           "BUILTIN"]
