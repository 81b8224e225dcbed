"""ddz: a Dou Dizhu (斗地主) rules engine.

>>> import ddz
>>> ddz.classify("33344456")
Play.parse('333444+56')
>>> ddz.count_legal_moves("33344455")
18
"""

from .cards import (BIG_JOKER, Card, SMALL_JOKER, Suit, format_cards, parse_cards)
from .errors import (DdzError, HandError, ImpossibleHandError, InvalidPlayError,
                     NotationError, NotInHandError)
from .moves import (IMPLEMENTATION, all_plays, beats, classify, count_legal_moves,
                    legal_moves, legal_moves_array, readings)
from .play import PASS, Play, PlayType
from .rules import REPEAT_KICKERS, STANDARD, Rules

__version__ = "0.1.0"

__all__ = [
    "Card", "Suit", "SMALL_JOKER", "BIG_JOKER", "parse_cards", "format_cards",
    "DdzError", "HandError", "ImpossibleHandError", "InvalidPlayError", "NotationError",
    "NotInHandError",
    "IMPLEMENTATION", "all_plays", "beats", "classify", "count_legal_moves", "legal_moves",
    "legal_moves_array", "readings",
    "PASS", "Play", "PlayType", "Rules", "STANDARD", "REPEAT_KICKERS",
]
