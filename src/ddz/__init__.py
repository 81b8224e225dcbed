"""ddz: a Dou Dizhu (斗地主) rules engine.

>>> import ddz
>>> ddz.classify("33344456")
Play.parse('333444+56')
>>> ddz.count_legal_moves("33344455")
18
"""

from .cards import (BIG_JOKER, Card, SMALL_JOKER, Suit, format_cards, parse_cards)
from .errors import (AmbiguousPlayError, DdzError, DealError, HandError, IllegalActionError, ImpossibleHandError,
                     InvalidPlayError, NotationError, NotInHandError, RecordError, TableMemoryError)
from .moves import (IMPLEMENTATION, all_plays, beats, classify, count_legal_moves,
                    legal_moves, legal_moves_array, readings)
from .play import PASS, Play, PlayType
from .rules import REPEAT_KICKERS, STANDARD, Rules
from .game import Deal, Game, Observation, Phase, Result
from .match import Match
from .movetree import divide, perft
from .bots import Bot, GreedyBot, RandomBot, SolverBot
from .actions import ActionIdError, ActionSpace, encode_actions, encode_cards
from ._info import VersionInfo, __version__, version_info
from .position import Position
from .solver import Solution, check_table_memory, solve
from .expert import ExpertBot

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
__all__ += ["ActionSpace", "ActionIdError", "encode_cards", "encode_actions"]
__all__ += ["__version__", "version_info", "VersionInfo"]
__all__ += ["Position", "Solution", "solve", "check_table_memory", "TableMemoryError", "ExpertBot"]
