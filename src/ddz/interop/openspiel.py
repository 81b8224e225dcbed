"""OpenSpiel (``pyspiel.load_game("dou_dizhu")``): its action ids."""

from __future__ import annotations

import functools
import itertools
from typing import Dict, List, Tuple, Union

import numpy as np

from .. import core as moves
from ..core.cards import CHAIN_RANKS, is_integer
from ..core.play import PASS, Play, PlayType, play_arg
from ..core.rules import Rules
from ..core.tables import table
from ..game.actions import ActionSpace
from .engines import OPENSPIEL, NotExpressibleError, _three_player


OPENSPIEL_PASS = 0
"""OpenSpiel's pass action (in the play phase)."""
OPENSPIEL_NUM_ACTIONS = 26057
"""``pyspiel.load_game("dou_dizhu").num_distinct_actions()``."""
_OS_FIRST_PLAY = 4  # 1..3 are the bids

_T = PlayType


def _openspiel_entries() -> List[Tuple[PlayType, int, int, Tuple[int, ...]]]:
    """OpenSpiel's play actions 4.. as (type, main rank, length, kickers), in id order.

    Rebuilt from OpenSpiel's dou_dizhu_utils: singles 3..R, straights (by length, then
    rank), pairs, pair chains, trios, trio+single (trio rank, then kicker), trio+pair,
    airplanes, airplanes with single wings (wings: any multiset of ranks outside the
    chain, at most 3 of a rank, at most one joker, in colexicographic order), airplanes
    with pair wings (distinct pairs of 3..2, colex), bombs, the rocket.
    """
    out: List[Tuple[PlayType, int, int, Tuple[int, ...]]] = []
    out += [(_T.SINGLE, r, 1, ()) for r in range(15)]
    out += [(_T.STRAIGHT, lo + n - 1, n, ()) for n in range(5, 13) for lo in range(13 - n)]
    out += [(_T.PAIR, r, 1, ()) for r in range(13)]
    out += [(_T.PAIR_STRAIGHT, lo + n - 1, n, ()) for n in range(3, 11) for lo in range(13 - n)]
    out += [(_T.TRIO, r, 1, ()) for r in range(13)]
    out += [(_T.TRIO_SINGLE, r, 1, (k,)) for r in range(13) for k in range(15) if k != r]
    out += [(_T.TRIO_PAIR, r, 1, (k, k)) for r in range(13) for k in range(13) if k != r]
    out += [(_T.AIRPLANE, lo + n - 1, n, ()) for n in range(2, 7) for lo in range(13 - n)]
    for n in range(2, 6):
        for lo in range(13 - n):
            hi = lo + n - 1
            free = [r for r in range(15) if not lo <= r <= hi]
            wings = []
            for combo in itertools.combinations_with_replacement(free, n):
                if max(combo.count(r) for r in set(combo)) > 3:
                    continue
                if combo.count(13) + combo.count(14) > 1:
                    continue
                wings.append(combo)
            wings.sort(key=lambda w: w[::-1])
            out += [(_T.AIRPLANE_SINGLES, hi, n, w) for w in wings]
    for n in range(2, 5):
        for lo in range(13 - n):
            hi = lo + n - 1
            free = [r for r in range(13) if not lo <= r <= hi]
            wings = sorted(itertools.combinations(free, n), key=lambda w: w[::-1])
            out += [(_T.AIRPLANE_PAIRS, hi, n, tuple(r for r in w for _ in (0, 1))) for w in wings]
    out += [(_T.BOMB, r, 1, ()) for r in range(13)]
    out.append((_T.ROCKET, 14, 1, ()))
    return out


@functools.lru_cache(maxsize=1)
def _openspiel_tables() -> Tuple[Tuple[Play, ...], Dict[Play, int]]:
    entries = _openspiel_entries()
    assert len(entries) + _OS_FIRST_PLAY == OPENSPIEL_NUM_ACTIONS
    plays = tuple(Play(*e) for e in entries)   # trio wings are Play structures too
    return plays, {p: i + _OS_FIRST_PLAY for i, p in enumerate(plays)}


def to_openspiel(play: Union[Play, str], rules: Rules = OPENSPIEL) -> int:
    """OpenSpiel ``dou_dizhu``'s action id of a play (the pass is 0).

    Parameters
    ----------
    play : Play or notation
    rules : Rules
        Used to parse notation (``'333444555+666'`` picks one reading); default
        ``Rules.profile("openspiel")``.

    Raises
    ------
    NotExpressibleError
        OpenSpiel has no such action (the four-with-twos; both jokers or four of a rank
        among wings).
    InvalidPlayError, NotationError
        Not a play under ``rules`` (or several: use ``+`` notation or a Play).
    DdzError
        ``rules`` is not a three-player :class:`Rules`.
    """
    p = play_arg(play, _three_player(rules, "OpenSpiel"), moves.trusted_readings)
    if not p:
        return OPENSPIEL_PASS
    _, index = _openspiel_tables()
    try:
        return index[p]
    except KeyError:
        raise NotExpressibleError(
            f"OpenSpiel's dou_dizhu cannot express {str(p)!r} ({p.type.name}; it has no "
            f"four-with-two, and no bomb or rocket among wings)") from None


def openspiel_play(action: int, rules: Rules = OPENSPIEL) -> Play:
    """The :class:`Play` of an OpenSpiel ``dou_dizhu`` play-phase action id.

    Parameters
    ----------
    action : int
        0 (pass) or 4..26056.
    rules : Rules
        The play must be a play under these rules; default ``Rules.profile("openspiel")``
        (every action is a play).

    Raises
    ------
    NotExpressibleError
        A bid (1..3), an id out of range, or an OpenSpiel action that is not a play under
        ``rules`` (e.g. ``333444555-666`` with ``wings="standard"``, or ``333444-55`` with
        ``kickers="distinct"``).
    DdzError
        ``rules`` is not a three-player :class:`Rules`.
    """
    rules = _three_player(rules, "OpenSpiel")
    if not is_integer(action):
        raise NotExpressibleError(f"an OpenSpiel action must be an int, not {type(action).__name__}: {action!r}")
    a = int(action)
    if a == OPENSPIEL_PASS:
        return PASS
    if not _OS_FIRST_PLAY <= a < OPENSPIEL_NUM_ACTIONS:
        raise NotExpressibleError(
            f"OpenSpiel action {a!r} is not a play (1..3 are bids; plays are 0 and 4..{OPENSPIEL_NUM_ACTIONS - 1})")
    plays, _ = _openspiel_tables()
    p = plays[a - _OS_FIRST_PLAY]
    if p not in moves.readings(p.counts, rules):
        raise NotExpressibleError(
            f"OpenSpiel action {a} ({str(p)!r} as {p.type.name}) is not a play under {rules!r}"
            + (": a trio next to the chain is a wing only with wings='trios' or 'any' (RULES.md §2.5)"
               if _trio_wing(p) else ""))
    return p


def _trio_wing(p: Play) -> bool:
    """An airplane whose single wings hold three cards of the rank next to the chain
    (OpenSpiel's ``333444555-666``)."""
    if p.type is not _T.AIRPLANE_SINGLES:
        return False
    lo = p.rank - p.length + 1
    return any(p.kickers.count(r) == 3 for r in (lo - 1, p.rank + 1) if 0 <= r < CHAIN_RANKS)


def _openspiel_map(rules: Rules) -> Tuple[np.ndarray, np.ndarray]:
    derived = table(rules).derived
    maps = derived.get("openspiel_map")
    if maps is None:

        space = ActionSpace(rules)
        plays, index = _openspiel_tables()
        to_os = np.full(len(space), -1, dtype=np.int32)
        from_os = np.full(OPENSPIEL_NUM_ACTIONS, -1, dtype=np.int32)
        to_os[0] = from_os[OPENSPIEL_PASS] = 0
        for i in range(1, len(space)):
            a = index.get(space.play(i))
            if a is not None:
                to_os[i] = a
                from_os[a] = i
        to_os.setflags(write=False)
        from_os.setflags(write=False)
        maps = derived["openspiel_map"] = (to_os, from_os)
    return maps


def openspiel_id_map(rules: object = OPENSPIEL) -> Tuple[np.ndarray, np.ndarray]:
    """The permutation between :class:`ddz.ActionSpace` ids and OpenSpiel's play-phase
    action ids (needs no OpenSpiel: its numbering is rebuilt here and checked against it
    by the tests).

    Parameters
    ----------
    rules : Rules or ActionSpace, default ``Rules.profile("openspiel")``

    Returns
    -------
    to_openspiel : numpy.ndarray
        ``int32[len(space)]``: OpenSpiel's id of each of our ids (the pass 0 is 0; ``-1``:
        OpenSpiel lacks the play; never under the OpenSpiel profile).
    from_openspiel : numpy.ndarray
        ``int32[26057]``: our id of each OpenSpiel id (``-1`` for the bids 1..3, and for a
        play that is none under ``rules``; every other id under the OpenSpiel profile).

    Raises
    ------
    DdzError
        ``rules`` is not a three-player :class:`Rules` or its ActionSpace.
    """

    if isinstance(rules, ActionSpace):
        rules = rules.rules
    return _openspiel_map(_three_player(rules, "OpenSpiel"))
