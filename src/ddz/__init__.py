"""ddz: a Dou Dizhu (斗地主) rules engine.

>>> import ddz
>>> ddz.classify("33344456")
Play.parse('333444+56')
>>> ddz.count_legal_moves("33344455")
18
"""

from . import old_paths as _old_paths
from .core.cards import (BIG_JOKER, Card, SMALL_JOKER, Suit, format_cards, parse_cards)
from .errors import (ActionTypeError, AmbiguousPlayError, DdzError, DealError, HandError, IllegalActionError,
                     ImpossibleHandError, InvalidPlayError, NotationError, NotInHandError, RecordError, TableMemoryError)
from .errors import CheckpointError
from .core import (IMPLEMENTATION, all_plays, beats, classify, count_legal_moves,
                    legal_moves, legal_moves_array, readings)
from .core.play import PASS, Play, PlayType
from .core.rules import REPEAT_KICKERS, STANDARD, Rules
from .game.state import Deal, Game, Observation, Phase, Result
from .game.match import Match
from .game.perft import divide, perft
from .search.bots import Bot, GreedyBot, RandomBot, SolverBot
from .game.actions import ActionIdError, ActionSpace, encode_actions, encode_cards
from .version import VersionInfo, __version__, version_info
from .game.position import Position
from .search.solver import Solution, check_table_memory, solve, solve_batch
from .search.expert import ExpertBot
from .search.registry import bot_factory
from .core.parallel import DEFAULT_TABLE_MB, MAX_TABLE_MB, solving_processes, table_mb_option, threads_arg, usable_cpus
from typing import TYPE_CHECKING

if TYPE_CHECKING:   # loaded on first use at run time (__getattr__); type checkers see them here
    from .search.analyze import DealAnalysis, RecordAnalysis, analyze_deal, lost_at

__all__ = [
    "Card", "Suit", "SMALL_JOKER", "BIG_JOKER", "parse_cards", "format_cards",
    "DdzError", "HandError", "ImpossibleHandError", "InvalidPlayError", "NotationError",
    "NotInHandError", "IllegalActionError", "DealError", "RecordError", "AmbiguousPlayError",
    "IMPLEMENTATION", "all_plays", "beats", "classify", "count_legal_moves", "legal_moves",
    "legal_moves_array", "readings",
    "PASS", "Play", "PlayType", "Rules", "STANDARD", "REPEAT_KICKERS",
    "Game", "Phase", "Deal", "Result", "Observation", "Match", "perft", "divide",
    "Bot", "RandomBot", "GreedyBot", "SolverBot",
]
__all__ += ["ActionSpace", "ActionIdError", "ActionTypeError", "encode_cards", "encode_actions"]
__all__ += ["__version__", "version_info", "VersionInfo"]
__all__ += ["Position", "Solution", "solve", "solve_batch", "check_table_memory", "TableMemoryError", "ExpertBot"]
__all__ += ["NeuralBot", "CheckpointError"]
__all__ += ["bot_factory", "threads_arg", "usable_cpus", "DEFAULT_TABLE_MB", "MAX_TABLE_MB", "solving_processes",
            "table_mb_option"]
__all__ += ["analyze_deal", "lost_at", "DealAnalysis", "RecordAnalysis"]

_old_paths.install()

_ANALYZE = ("analyze_deal", "lost_at", "DealAnalysis", "RecordAnalysis")


def __getattr__(name: str):
    """``ddz.NeuralBot`` (:mod:`ddz.neural`, loaded on first use: ``import ddz`` stays
    light and its import chain short); ``ddz.analyze_deal``, ``ddz.lost_at``,
    ``ddz.DealAnalysis``, ``ddz.RecordAnalysis`` (:mod:`ddz.search.analyze`, the same way); ``ddz.<old module name>`` (e.g. ``ddz.bots``): the
    module of its new home (:mod:`ddz.old_paths`), imported on first use."""
    if name in _ANALYZE:
        from .search import analyze   # import chain: one link past the solver, so loaded on first use
        return getattr(analyze, name)
    if name == "NeuralBot":
        from .neural.bot import NeuralBot   # start-up time and the import floor: loaded on first use
        return NeuralBot
    return _old_paths.old_module(name)
