"""DouZero's features from an :class:`ddz.Observation` alone (RULES.md §5: what the seat
to act sees): the arrays of ``ddz.envs.douzero.get_obs`` -- ``x_no_action``, ``z`` and one
row of 54 columns per distinct legal action -- built from the observation's hand, plays
and cards left, so that a bot given only what the protocol gives it (``act(observation,
legal)``) sees what DouZero's network was trained on. The layout is documented in
:mod:`ddz.envs.douzero`; ``tests/neural/test_features.py`` requires these to equal
``get_obs`` of the game at every decision of random hands.
"""

from __future__ import annotations

from itertools import chain
from typing import Any, List, Sequence, Tuple

import numpy as np

from ..core.play import PlayType
from ..core.rules import Rules
from ..errors import DdzError

__all__ = ["DOUZERO_RULES", "POSITIONS", "X_NO_ACTION_SIZE", "observation_features", "card_rows", "check_rules"]

DOUZERO_RULES = Rules.profile("douzero")
"""The rule set DouZero's networks play (RULES.md §2.5): its move rules, three players."""
#: DouZero's positions in play order (seats landlord, landlord + 1, landlord + 2)
POSITIONS = ("landlord", "landlord_down", "landlord_up")
#: ``x_no_action`` length by position index (0 landlord, 1 landlord_down, 2 landlord_up)
X_NO_ACTION_SIZE = (319, 430, 430)
#: the 54 columns of 0..4 copies of a rank 3..2: count > 0, > 1, > 2, > 3
_THERMO = np.array([[float(c > k) for k in range(4)] for c in range(5)], np.float32)
#: every card of the deck, as 15 counts
_DECK = np.array([4] * 13 + [1, 1], np.int64)
_BOMBS = (PlayType.BOMB, PlayType.ROCKET)
_EMPTY = (0,) * 15


def card_rows(counts: Any) -> np.ndarray:
    """DouZero's ``_cards2array`` of each row of ``counts`` (int[n, 15], ranks 3..2, small
    joker, big joker): float32[n, 54]."""
    counts = np.asarray(counts, np.int64).reshape(-1, 15)
    out = np.empty((len(counts), 54), np.float32)
    # (a thermometer of 4 columns per rank: the table row of each count)
    out[:, :52] = _THERMO[counts[:, :13]].reshape(-1, 52)
    out[:, 52:] = counts[:, 13:]
    return out


def check_rules(rules: Rules) -> None:
    """Accept a rule set whose card play is DouZero's (``Rules.profile("douzero")``'s move
    rules, three players; its bidding, doubling and scoring options may differ, as for
    ``get_obs``).

    :raises DdzError: any other rule set (another profile or move option, four players)."""
    if rules is not DOUZERO_RULES and (rules.players != 3 or rules.move_rules != DOUZERO_RULES.move_rules):
        raise DdzError(f"DouZero's networks play the rules of Rules.profile('douzero') (its moves, three players, "
                       f"RULES.md §2.5), not {rules!r}")


def observation_features(obs: Any, legal: Sequence[Any]) -> Tuple[int, np.ndarray, np.ndarray, np.ndarray, List[int]]:
    """DouZero's features of the seat to act, from its observation.

    :param obs: a :class:`ddz.Observation` in the play phase, of a game whose rules passed
        :func:`check_rules` (trusted: not checked here).
    :param legal: the seat's legal actions (:class:`ddz.Play` objects, ``Game.legal_actions``).
    :returns: ``(position, x_no_action, z, actions, keep)``: ``position`` 0 landlord, 1
        landlord_down, 2 landlord_up; ``x_no_action`` float32[319 | 430]; ``z``
        float32[5, 162]; ``actions`` float32[n, 54], one row per distinct card set of
        ``legal`` in its order; ``keep`` the index in ``legal`` of each row's first play.
    """
    seat, lord = obs.seat, obs.landlord
    pos = (seat - lord) % 3
    plays = obs.plays
    left = obs.cards_left
    up, down = (lord + 2) % 3, (lord + 1) % 3
    mate = down if seat == up else up
    seen: dict = {}
    for k, p in enumerate(legal):
        seen.setdefault(p.counts, k)
    keep = list(seen.values())
    n_moves = len(plays)
    # one block of counts: the state's rows, the last 15 moves, the distinct actions
    # (RULES.md §5: plays rotate through the seats, passes included, so seat s's plays are
    # every third from its first)
    if n_moves:
        moves = np.fromiter(chain.from_iterable(p.counts for _, p in plays), np.int64, 15 * n_moves)
        moves = moves.reshape(n_moves, 15)
        played = np.zeros((3, 15), np.int64)
        first = plays[0][0]
        for k in range(min(3, n_moves)):
            played[(first + k) % 3] = moves[k::3].sum(0)
        last_of = [_EMPTY, _EMPTY, _EMPTY]
        for s, p in plays[-3:]:
            last_of[s] = p.counts
        bombs = sum(1 for _, p in plays if p.type in _BOMBS)
        last = plays[-1][1].counts if plays[-1][1] else plays[-2][1].counts if n_moves >= 2 else _EMPTY
        recent = moves[-15:]
    else:
        played = np.zeros((3, 15), np.int64)
        last_of = [_EMPTY, _EMPTY, _EMPTY]
        bombs = 0
        last = _EMPTY
        recent = np.zeros((0, 15), np.int64)
    hand = np.asarray(obs.hand, np.int64)
    other = _DECK - hand - played.sum(0)
    if pos == 0:
        state = [hand, other, last, played[up], played[down]]
    else:
        state = [hand, other, played[lord], played[mate], last, last_of[lord], last_of[mate]]
    block = np.empty((len(state) + len(recent) + len(seen), 15), np.int64)
    block[:len(state)] = state
    block[len(state):len(state) + len(recent)] = recent
    block[len(state) + len(recent):] = list(seen)
    rows = card_rows(block)
    x = np.zeros(X_NO_ACTION_SIZE[pos], np.float32)
    cut = 54 * len(state)
    x[:cut] = rows[:len(state)].reshape(-1)
    if pos == 0:
        x[cut + left[up] - 1] = 1                     # 17 columns each
        x[cut + 17 + left[down] - 1] = 1
        x[cut + 34 + bombs] = 1                       # 15 columns
    else:
        x[cut + left[lord] - 1] = 1                   # 20 columns
        x[cut + 20 + left[mate] - 1] = 1              # 17 columns
        x[cut + 37 + bombs] = 1
    z = np.zeros((15, 54), np.float32)
    if len(recent):
        z[15 - len(recent):] = rows[len(state):len(state) + len(recent)]
    return pos, x, z.reshape(5, 162), rows[len(state) + len(recent):], keep
