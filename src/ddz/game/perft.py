"""The legal-move tree: perft and divide (DESIGN.md, "Perft").

The functions are ``ddz.perft`` and ``ddz.divide``; this module is ``ddz.game.perft`` (it
was ``ddz.perft``, a name that the function shadowed on the package).

As in chess engines, ``perft(game, d)`` is the number of move sequences of exactly ``d``
plays (passes count as plays) from the game's position, following RULES.md §2.3 and §5
(the pass is legal only when responding; a trick ends after two passes; the hand ends
when a player runs out). A finished hand has no moves, so a line that ends the hand
before depth ``d`` contributes nothing, and ``perft(game, 0)`` is 1 for any position.
``divide`` gives each first move's share. The counts test the move generator and the
trick logic together; the active implementation answers (see :mod:`ddz.core`).
"""

from __future__ import annotations

from typing import List, Tuple

from ..core.cards import is_integer
from ..errors import DdzError, IllegalActionError, quote
from .state import Game, Phase
from ..core.play import Play

__all__ = ["perft", "divide"]


def _check(game: object, depth: object) -> int:
    if not isinstance(game, Game):
        raise DdzError(f"perft needs a ddz.Game, not {type(game).__name__}: {quote(game)}")
    if not is_integer(depth) or not 0 <= depth < 2 ** 31:
        raise DdzError(f"perft depth must be an int 0 .. 2**31 - 1, got {quote(depth)}")
    if game.phase not in (Phase.PLAYING, Phase.OVER):
        raise IllegalActionError(
            f"perft counts the play phase; the game is still {game.phase.value!r} "
            "(finish the bidding first, e.g. let the first bidder bid 3)")
    return int(depth)


def _perft(g: Game, depth: int) -> int:
    if g.phase is not Phase.PLAYING:
        return 0
    return g.play_state.copy().perft(depth)   # counted on a copy: an interrupted count leaves the game as it was


def perft(game: Game, depth: int) -> int:
    """Leaves of the legal-move tree of depth ``depth`` from ``game`` (play phase).

    :param game: a :class:`ddz.Game` in the play phase (or over: then 1 at depth 0, else 0);
        it is not modified (a copy of its play state is searched).
    :param depth: plies, ``>= 0``.
    :returns: the node count.
    :raises DdzError: not a game, or a bad depth.
    :raises IllegalActionError: the game is still bidding or doubling.
    """
    depth = _check(game, depth)
    if depth == 0:
        return 1
    return _perft(game, depth)


def divide(game: Game, depth: int) -> List[Tuple[Play, int]]:
    """Each legal first move with its subtree's leaf count (their sum is ``perft``).

    :param game: as :func:`perft`.
    :param depth: ``>= 1``.
    :returns: ``[(play, count), ...]`` in move order.
    :raises DdzError, IllegalActionError: as :func:`perft`; also depth 0.
    """
    depth = _check(game, depth)
    if depth < 1:
        raise DdzError("divide needs depth >= 1")
    g = game.clone()
    out = []
    for play in g.legal_actions():
        g.push(play)
        out.append((play, 1 if depth == 1 else _perft(g, depth - 1)))
        g.pop()
    return out
