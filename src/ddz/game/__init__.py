"""The game: the deal and its random generator, the auction, the play phase (the compiled
``_game`` beside its pure twin :mod:`ddz.game.playstate`), :class:`Game`, matches, perft
and the action space (RULES.md §2-§7).

The names a user needs are here (``from ddz.game import Game``); each module says its part.
"""

from .auction import must_bid
from .state import (BOTTOM_SIZE, HAND_SIZE, RECORD_FORMAT, RECORD_VERSION, SEATS, Action, Deal, Game,
                    LegalMoves, Observation, Phase, Result, bottom_bonus_factor)

__all__ = ["Game", "Phase", "Deal", "Result", "Observation", "Action", "LegalMoves",
           "SEATS", "HAND_SIZE", "BOTTOM_SIZE", "RECORD_FORMAT", "RECORD_VERSION",
           "bottom_bonus_factor", "must_bid"]
