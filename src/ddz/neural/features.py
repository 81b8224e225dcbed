"""DouZero's features from an :class:`ddz.Observation` alone (RULES.md §5: what the seat
to act sees): the arrays of ``ddz.envs.douzero.get_obs`` -- ``x_no_action``, ``z`` and one
row of 54 columns per distinct legal action -- built from the observation's hand, plays
and cards left, so that a bot given only what the protocol gives it (``act(observation,
legal)``) sees what DouZero's network was trained on. The layout is documented in
:mod:`ddz.envs.douzero`; ``tests/neural/test_features.py`` requires these to equal
``get_obs`` of the game at every decision of random hands.
"""

from __future__ import annotations

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
    hand = np.asarray(obs.hand, np.int64)
    played = np.zeros((3, 15), np.int64)
    last_of = [_EMPTY, _EMPTY, _EMPTY]
    bombs = 0
    if plays:
        counts = np.array([p.counts for _, p in plays], np.int64)
        seats = np.fromiter((s for s, _ in plays), np.int64, len(plays))
        np.add.at(played, seats, counts)
        for s, p in plays[-3:]:
            last_of[s] = p.counts
        bombs = sum(1 for _, p in plays if p.type in _BOMBS)
        last = plays[-1][1].counts if plays[-1][1] else plays[-2][1].counts if len(plays) >= 2 else _EMPTY
        recent = counts[-15:]
    else:
        last = _EMPTY
        recent = np.zeros((0, 15), np.int64)
    other = _DECK - hand - played.sum(0)
    up, down = (lord + 2) % 3, (lord + 1) % 3
    size = X_NO_ACTION_SIZE[pos]
    x = np.zeros(size, np.float32)
    if pos == 0:
        rows = card_rows(np.stack([hand, other, np.asarray(last), played[up], played[down]]))
        x[:270] = rows.reshape(-1)
        x[270 + left[up] - 1] = 1
        x[287 + left[down] - 1] = 1
        x[304 + bombs] = 1
    else:
        mate = down if seat == up else up
        rows = card_rows(np.stack([hand, other, played[lord], played[mate], np.asarray(last),
                                   np.asarray(last_of[lord]), np.asarray(last_of[mate])]))
        x[:378] = rows.reshape(-1)
        x[378 + left[lord] - 1] = 1
        x[398 + left[mate] - 1] = 1
        x[415 + bombs] = 1
    z = np.zeros((15, 54), np.float32)
    if len(recent):
        z[15 - len(recent):] = card_rows(recent)
    seen = {}
    for k, p in enumerate(legal):
        seen.setdefault(p.counts, k)
    keep = list(seen.values())
    actions = card_rows(list(seen))
    return pos, x, z.reshape(5, 162), actions, keep
