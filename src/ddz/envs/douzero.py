"""DouZero's features of a :class:`ddz.Game`: what ``douzero.env.env.get_obs(infoset)``
returns for the seat to act, built from the game itself (RULES.md §5: only what that seat
may see, plus what DouZero's features show it).

DouZero (Zha et al., 2021) feeds its networks two arrays per decision: ``x``, the state
features with one candidate action appended (one row per legal action), and ``z``, the
last 15 moves as a 5 × 162 history. :func:`get_obs` returns DouZero's dict for a game
under ``Rules.profile("douzero")`` (any bidding, doubling or scoring options), so a
trained DouZero model runs on ``ddz`` unchanged (``docs/douzero.md``):

``position`` : str
    ``"landlord"``, ``"landlord_down"`` (the farmer after the landlord) or
    ``"landlord_up"`` (the farmer before it): :data:`ddz.interop.DOUZERO_POSITIONS`.
``x_batch`` : float32[n, 373] (landlord) or float32[n, 484] (a farmer)
    ``x_no_action`` followed by the row's action (54 columns), for each of the ``n``
    distinct legal actions in ``legal_actions``' order.
``z_batch`` : float32[n, 5, 162]
    ``z`` for every row: a read-only broadcast view of one float32 copy of ``z``
    (DouZero's is ``z`` repeated; a model reads both alike).
``x_no_action`` : int8[319] (landlord) or int8[430] (a farmer)
``z`` : int8[5, 162]
``legal_actions`` : list of n lists of int
    DouZero's card lists (:data:`ddz.interop.DOUZERO_CARDS`, sorted ascending; the pass
    is ``[]``), each card set once (DouZero's own list repeats a few), in ddz's move order.
``action_ids`` : int32[n]
    (ddz's addition, not in DouZero's dict) the :attr:`ddz.Game.action_space` id of each
    row, for :meth:`ddz.Game.step_id`.

The 54 columns of a card set (DouZero's ``_cards2array``): for each rank 3..2 four columns
``count > 0, > 1, > 2, > 3``, then the small and the big joker. The feature blocks, in order:

* landlord: its hand; the cards it cannot see (both farmers' hands together); the last
  move that was not a pass (DouZero's ``last_move``); the cards played by
  ``landlord_up``, by ``landlord_down``; ``landlord_up``'s and ``landlord_down``'s cards
  left, one-hot of 17 (index ``left - 1``); the bombs and rockets played, one-hot of 15.
* a farmer: its hand; the cards it cannot see; the cards played by the landlord, by the
  other farmer (the teammate); the last move that was not a pass; the landlord's last
  move and the teammate's (``[]`` for a pass or none yet); the landlord's cards left,
  one-hot of 20; the teammate's, one-hot of 17; the bombs, one-hot of 15.
* ``z``: the last 15 moves (passes included, as ``[]``), oldest first, padded in front
  with empty moves; row ``i`` holds moves ``3i .. 3i + 2``.

Legal actions are the profile's, which are DouZero's except the four-with-two whose two
kickers are both jokers (``3333`` + small and big joker): DouZero lists it, RULES.md §2.1
forbids it, so it has no row here.

With the compiled core the dict is built in C (``ddz.envs._douzero``) straight from the
game's play state; :func:`get_obs_py` is the plain-Python twin (used under
``DDZ_NO_EXTENSIONS=1``), built from :class:`ddz.Game`'s public views. The tests require
both to give equal dicts, and both to equal DouZero's own ``get_obs`` at every decision
of hundreds of hands played in lockstep with DouZero's ``GameEnv``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

import numpy as np

from ..core.implementation import compiled
from ..core.rules import PlayType, Rules
from ..errors import DdzError
from ..game.phase import Phase
from ..game.state import Game

__all__ = ["get_obs", "get_obs_py", "get_obs_vector", "DOUZERO_RULES", "X_SIZE", "X_NO_ACTION_SIZE", "Z_SHAPE"]

_dz = compiled("envs._douzero", "the compiled DouZero features (ddz.envs._douzero)")

DOUZERO_RULES = Rules.profile("douzero")
"""The rules whose games :func:`get_obs` encodes (their move rules: RULES.md §2.5)."""
#: DouZero's positions in play order (seats landlord, landlord + 1, landlord + 2)
_POSITIONS = ("landlord", "landlord_down", "landlord_up")
#: ``x_batch`` columns by position
X_SIZE = {"landlord": 373, "landlord_down": 484, "landlord_up": 484}
#: ``x_no_action`` length by position
X_NO_ACTION_SIZE = {"landlord": 319, "landlord_down": 430, "landlord_up": 430}
#: the shape of ``z`` (15 moves of 54 columns, three to a row)
Z_SHAPE = (5, 162)
#: DouZero's card int of each rank index 0..14
_DZ_CARDS = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
_EMPTY = (0,) * 15
_BOMBS = (PlayType.BOMB, PlayType.ROCKET)


def _check_game(game: Any, lists: Any = True) -> Tuple[int, int]:
    """``(landlord, seat to act)`` of a game :func:`get_obs` can encode.

    :raises DdzError: not a :class:`ddz.Game`, rules whose moves are not DouZero's, not
        in the play phase (the auction, doubling, or the hand over), or ``lists`` not a
        bool."""
    if lists is not True and lists is not False:
        raise DdzError(f"lists must be True or False, not {type(lists).__name__}: {lists!r}")
    if not isinstance(game, Game):
        raise DdzError(f"DouZero's features need a ddz.Game, not {type(game).__name__}")
    rules = game.rules
    if rules is not DOUZERO_RULES and (rules.players != 3 or rules.move_rules != DOUZERO_RULES.move_rules):
        raise DdzError(f"DouZero's features need a game under Rules.profile('douzero') (its moves, "
                       f"RULES.md §2.5), not {rules!r}")
    if game.phase is not Phase.PLAYING:
        what = "the hand is over" if game.phase is Phase.OVER else f"the phase is {game.phase.value!r}"
        raise DdzError(f"DouZero's features exist in the play phase only: {what} (RULES.md §5)")
    return game.landlord, game.current_player


#: the four columns of a rank held 0..4 times: count > 0, > 1, > 2, > 3
_THERMO = np.array([[int(c > k) for k in range(4)] for c in range(5)], np.int8)


def _cards_rows(counts) -> np.ndarray:
    """DouZero's ``_cards2array`` of each row of ``counts`` (``[n, 15]``): int8[n, 54]."""
    counts = np.asarray(counts, np.int64).reshape(-1, 15)
    return np.hstack([_THERMO[counts[:, :13]].reshape(-1, 52), counts[:, 13:].astype(np.int8)])


def _cards_row(counts) -> np.ndarray:
    """DouZero's ``_cards2array``: int8[54] of 15 counts."""
    return _cards_rows(counts)[0]


def _one_hot(k: int, size: int) -> np.ndarray:
    """DouZero's ``_get_one_hot_array``: index ``k - 1`` set (cards left ``k`` >= 1)."""
    out = np.zeros(size, np.int8)
    out[k - 1] = 1
    return out


def get_obs_py(game: Game, lists: bool = True) -> Dict[str, Any]:
    """:func:`get_obs` in plain Python (the twin of the compiled encoder), built from the
    game's public views (:attr:`~ddz.Game.plays`, :meth:`~ddz.Game.hand`,
    :meth:`~ddz.Game.legal_actions`, :meth:`~ddz.Game.legal_ids`).

    :param game: a :class:`ddz.Game` under ``Rules.profile("douzero")`` in its play phase.
    :param lists: as :func:`get_obs`.
    :returns: the dict of :func:`get_obs` (new arrays; ``z_batch`` a read-only view).
    :raises DdzError: as :func:`get_obs`.
    """
    lord, seat = _check_game(game, lists)
    pos = (seat - lord) % 3              # 0 landlord, 1 landlord_down, 2 landlord_up
    by_pos = [(lord + i) % 3 for i in range(3)]   # the seat of each position
    hands = [tuple(game.hand(s)) for s in range(3)]
    plays = game.plays
    played = [[0] * 15 for _ in range(3)]          # by seat
    last_of = [_EMPTY] * 3                         # each seat's last move (a pass: empty)
    for s, p in plays:
        last_of[s] = p.counts
        for r, c in enumerate(p.counts):
            played[s][r] += c
    bombs = sum(1 for _, p in plays if p.type in _BOMBS)
    last_move = _EMPTY
    if plays:
        last_move = plays[-1][1].counts if plays[-1][1] else plays[-2][1].counts if len(plays) >= 2 else _EMPTY
    other = [sum(hands[s][r] for s in range(3) if s != seat) for r in range(15)]
    bomb = np.zeros(15, np.int8)
    bomb[bombs] = 1
    left = [sum(h) for h in hands]
    if pos == 0:
        up, down = by_pos[2], by_pos[1]
        parts = [_cards_row(hands[seat]), _cards_row(other), _cards_row(last_move), _cards_row(played[up]),
                 _cards_row(played[down]), _one_hot(left[up], 17), _one_hot(left[down], 17), bomb]
    else:
        mate = by_pos[3 - pos]
        parts = [_cards_row(hands[seat]), _cards_row(other), _cards_row(played[lord]), _cards_row(played[mate]),
                 _cards_row(last_move), _cards_row(last_of[lord]), _cards_row(last_of[mate]),
                 _one_hot(left[lord], 20), _one_hot(left[mate], 17), bomb]
    x_no_action = np.concatenate(parts)
    legal = game.legal_actions()
    ids = game.legal_ids()
    seen = set()
    keep: List[int] = []
    for k, p in enumerate(legal):
        if p.counts not in seen:
            seen.add(p.counts)
            keep.append(k)
    actions = _cards_rows([legal[k].counts for k in keep])
    x_batch = np.hstack([np.repeat(x_no_action[None, :].astype(np.float32), len(keep), axis=0),
                         actions.astype(np.float32)])
    moves = [p.counts for _, p in plays[-15:]]
    z = np.zeros((15, 54), np.int8)
    if moves:
        z[15 - len(moves):] = _cards_rows(moves)
    z = z.reshape(Z_SHAPE)
    z_batch = np.broadcast_to(z.astype(np.float32), (len(keep),) + Z_SHAPE)
    return {
        "position": _POSITIONS[pos],
        "x_batch": x_batch,
        "z_batch": z_batch,
        "legal_actions": [(list if lists else tuple)(_DZ_CARDS[r] for r in range(15) for _ in range(legal[k].counts[r]))
                          for k in keep],
        "x_no_action": x_no_action,
        "z": z,
        "action_ids": ids[keep].astype(np.int32),
    }


_DOC = """DouZero's observation of the seat to act: the dict ``douzero.env.env.get_obs(infoset)``
returns, one row per distinct legal action (layout: :mod:`ddz.envs.douzero`).

:param game: a :class:`ddz.Game` under ``Rules.profile("douzero")`` (other bidding,
    doubling or scoring options allowed) in its play phase.
:param lists: ``True`` (default): ``legal_actions`` holds new lists, as DouZero's does.
    ``False``: it holds tuples of the same ints, made once per action and shared between
    calls (immutable): with many legal actions the lists are half the cost of the call,
    and a loop that steps with ``action_ids`` never reads them.
:returns: ``{"position": str, "x_batch": float32[n, 373 | 484], "z_batch": float32[n, 5,
    162] (read-only broadcast view), "legal_actions": list of n DouZero card lists,
    "x_no_action": int8[319 | 430], "z": int8[5, 162], "action_ids": int32[n]}``, new
    arrays every call (``z_batch`` views a new copy of ``z``).
:raises DdzError: not a :class:`ddz.Game`; rules whose moves are not DouZero's (another
    profile or option, four players); not in the play phase (the auction, doubling, or
    the hand over); ``lists`` not a bool.

In C (``ddz.envs._douzero``) with the compiled core; :func:`get_obs_py` otherwise.
"""

def get_obs_vector(vg: Any, reuse: bool = False) -> Dict[str, Any]:
    """DouZero's features of every game of a C vector at once (in C, one call): the rows of
    :func:`get_obs` for each game in its play phase, as one ragged block.

    :param vg: a :class:`ddz.envs.CVectorGame` (``VectorGame(N, Rules.profile("douzero"))``
        with the compiled core) whose rules have DouZero's moves.
    :returns: ``{"position": int8[N]`` (0 landlord, 1 landlord_down, 2 landlord_up; -1
        for a game in its auction or doubling), ``"offsets": int64[N + 1]`` (game ``i``'s
        rows are ``offsets[i]:offsets[i + 1]``), ``"action_ids": int32[R]``, ``"x":
        float32[R, 484]`` (a row of :func:`get_obs`'s ``x_batch``; a landlord's uses the
        first 373 columns, zeros after), ``"x_no_action": int8[N, 430]`` (a landlord's: 319
        and zeros), ``"z": int8[N, 5, 162]}``; new arrays. Game ``i``'s ``x_batch`` is
        ``x[offsets[i]:offsets[i + 1], :X_SIZE[name]]`` and its ``z_batch`` is ``z[i]``
        repeated; its ``action_ids`` are ids of ``vg.actions`` (the pass 0, plays as
        :class:`ddz.ActionSpace`), for ``vg.step``.
    :param reuse: ``False`` (default): new arrays every call. ``True``: views of buffers
        kept on ``vg`` and refilled by the next ``reuse=True`` call (as ``vg.legal_ids()``
        is), which spares allocating and first touching megabytes of rows per call.
    :raises DdzError: not a ``CVectorGame`` (the pure-Python ``PyVectorGame``: use
        :func:`get_obs` on its ``games``), rules whose moves are not DouZero's, or
        ``reuse`` not a bool.
    """
    from ..core.tables import table     # start-up time: the vector's modules only when it is used
    from .vector import CVectorGame     # (and ddz.envs.vector is not imported by this module's users)
    if _dz is None or not isinstance(vg, CVectorGame):
        raise DdzError(f"get_obs_vector needs a ddz.envs.CVectorGame (the compiled vector), not "
                       f"{type(vg).__name__}; for PyVectorGame call get_obs on each of its games")
    rules = vg.rules
    if rules.players != 3 or rules.move_rules != DOUZERO_RULES.move_rules:
        raise DdzError(f"DouZero's features need Rules.profile('douzero') (its moves, RULES.md §2.5), not {rules!r}")
    if reuse is not True and reuse is not False:
        raise DdzError(f"reuse must be True or False, not {type(reuse).__name__}: {reuse!r}")
    multi, setkey, dup = _dz.table_data(table(rules.move_rules))
    if reuse:
        bufs = getattr(vg, "_douzero_buffers", None)
        bufs = vg._douzero_buffers = vg._core.douzero_rows(multi, setkey, dup, bufs)
        position, offsets, ids_all, x_all, x_no_action, z = bufs
        rows = int(offsets[-1])
        ids, x = ids_all[:rows], x_all[:rows]
    else:
        position, offsets, ids, x, x_no_action, z = vg._core.douzero_rows(multi, setkey, dup)
    return {"position": position, "offsets": offsets, "action_ids": ids, "x": x, "x_no_action": x_no_action,
            "z": z}


if _dz is not None:
    _dz.setup(_check_game, get_obs_py, DOUZERO_RULES, _POSITIONS, _DZ_CARDS)
    get_obs = _dz.get_obs
    try:
        get_obs.__doc__ = _DOC
    except (AttributeError, TypeError):       # pragma: no cover - a cyfunction takes it
        pass
else:
    def get_obs(game: Game, lists: bool = True) -> Dict[str, Any]:
        return get_obs_py(game, lists)
    get_obs.__doc__ = _DOC
