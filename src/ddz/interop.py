"""Conversions to and from other Dou Dizhu implementations: DouZero, RLCard, OpenSpiel.

None of them is imported here unless a function says so; the encodings are rebuilt from
their published rules and checked against the real packages by ``tests/test_interop.py``.

DouZero (``douzero.env``)
    A card is an int: ``3``..``14`` for 3..A, ``17`` for 2, ``20`` small joker, ``30`` big
    joker. A hand or a play is a list of them, sorted ascending; the pass is ``[]``.
    DouZero plays by ``kickers="repeat"`` rules.
RLCard (``rlcard.games.doudizhu``, 1.2.0)
    An action is a string of rank characters sorted ascending (``'33344456'``, ``'BR'``;
    ``T`` for ten, ``B``/``R`` jokers), or ``'pass'``. Its 27,472 action ids (pass last)
    list the same plays as ``ActionSpace(Rules(kickers="repeat"))`` in another order:
    :func:`rlcard_id_map` gives the permutation (it needs ``rlcard`` installed).
OpenSpiel (``pyspiel.load_game("dou_dizhu")``)
    Action ids 0 (pass; also "pass" in bidding) and 4..26056 are plays (1..3 are bids).
    OpenSpiel has no four-with-two, and its airplane-with-singles wings may be a trio next
    to the chain (``333444555-666``), which is not a play here (RULES.md §2.1): those
    convert in one direction only and raise :class:`NotExpressibleError` in the other.
    OpenSpiel's single kickers may share a rank (``333444-55``), so its helpers here
    default to ``kickers="repeat"`` rules, like the DouZero and RLCard ones.
"""

from __future__ import annotations

import collections.abc
import functools
import itertools
from typing import Dict, Iterable, List, Tuple, Union

import numpy as np

from . import _args, moves
from .cards import CHAIN_RANKS, NUM_RANKS, RANK_CHARS, CardsLike, format_cards_unchecked, is_integer
from .errors import HandError, InvalidPlayError, NotationError
from .play import PASS, Play, PlayType
from .rules import REPEAT_KICKERS, STANDARD, Rules
from .tables import table

__all__ = [
    "NotExpressibleError",
    "to_douzero", "douzero_counts", "douzero_play",
    "to_rlcard", "rlcard_play", "rlcard_counts", "rlcard_id_map",
    "to_openspiel", "openspiel_play", "OPENSPIEL_PASS", "OPENSPIEL_NUM_ACTIONS",
]

PlayOrCards = Union[Play, CardsLike]


class NotExpressibleError(InvalidPlayError):
    """A play the other implementation cannot express (or the reverse)."""


# -- DouZero ------------------------------------------------------------------------

DOUZERO_CARDS = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
"""DouZero's int for each rank index 0..14."""
_DZ_RANK = {v: r for r, v in enumerate(DOUZERO_CARDS)}


def _counts_of(x: PlayOrCards, rules: Rules) -> Tuple[int, ...]:
    if isinstance(x, Play):
        return x.counts
    return _args.cards_arg(x, rules)


def to_douzero(x: PlayOrCards) -> List[int]:
    """DouZero's card list of a play or a card multiset, sorted ascending.

    Parameters
    ----------
    x : Play, str or int[15]
        A play (the pass gives ``[]``), or notation / counts of any cards (a hand).

    Returns
    -------
    list of int

    Raises
    ------
    NotationError, HandError, ImpossibleHandError
        Bad cards.
    """
    counts = _counts_of(x, STANDARD)
    return [DOUZERO_CARDS[r] for r in range(NUM_RANKS) for _ in range(counts[r])]


def douzero_counts(cards: Iterable[int]) -> np.ndarray:
    """Count vector of a DouZero card list (a hand or a play).

    Returns
    -------
    numpy.ndarray
        ``uint8[15]``.

    Raises
    ------
    HandError
        ``cards`` is not an iterable of ints (a str, None, a number...).
    NotationError
        An element that is not one of DouZero's card ints.
    ImpossibleHandError
        More copies of a rank than one deck holds.
    """
    if isinstance(cards, (str, bytes)) or not isinstance(cards, collections.abc.Iterable):
        raise HandError(f"a DouZero card list must be a list of ints, not {type(cards).__name__}: {cards!r}")
    counts = [0] * NUM_RANKS
    for c in cards:
        r = _DZ_RANK.get(c) if is_integer(c) else None
        if r is None:
            raise NotationError(f"not a DouZero card: {c!r} (cards are 3..14, 17, 20, 30)")
        counts[r] += 1
    return np.asarray(_args.cards_arg(counts, STANDARD), dtype=np.uint8)


def douzero_play(cards: Iterable[int], rules: Rules = REPEAT_KICKERS) -> Play:
    """The :class:`Play` a DouZero move forms (``[]`` is the pass).

    Parameters
    ----------
    cards : list of int
    rules : Rules, default ``REPEAT_KICKERS`` (DouZero's rules)

    Raises
    ------
    NotationError, ImpossibleHandError
        See :func:`douzero_counts`.
    InvalidPlayError
        The cards form no play under ``rules``.
    """
    rules = _args.rules_arg(rules)
    counts = douzero_counts(cards)
    if not counts.any():
        return PASS
    return moves.classify(counts, rules)


# -- RLCard -------------------------------------------------------------------------

def to_rlcard(play: Union[Play, str], rules: Rules = REPEAT_KICKERS) -> str:
    """RLCard's action string of a play: ``'pass'`` or its cards sorted ascending.

    Parameters
    ----------
    play : Play or notation
    rules : Rules
        Used to parse notation.

    Raises
    ------
    InvalidPlayError, NotationError
        Not a play under ``rules``.
    """
    rules = _args.rules_arg(rules)
    p = play if isinstance(play, Play) else _args.play_arg(play, rules, moves._readings)
    return "pass" if not p else format_cards_unchecked(p.counts)


def rlcard_counts(cards: str) -> np.ndarray:
    """Count vector of an RLCard card string (a hand such as ``'33456TTJQKA2BR'``).

    Raises
    ------
    NotationError, ImpossibleHandError
        Characters other than RLCard's ``3..9 T J Q K A 2 B R``, or more copies than a deck.
    """
    if not isinstance(cards, str):
        raise NotationError(f"an RLCard card string must be a str, not {type(cards).__name__}: {cards!r}")
    counts = [0] * NUM_RANKS
    for i, ch in enumerate(cards):
        r = RANK_CHARS.find(ch)
        if r < 0:
            raise NotationError(f"not an RLCard card {ch!r} at position {i} in {cards!r}")
        counts[r] += 1
    return np.asarray(_args.cards_arg(counts, STANDARD), dtype=np.uint8)


def rlcard_play(action: str, rules: Rules = REPEAT_KICKERS) -> Play:
    """The :class:`Play` of an RLCard action string (``'pass'`` is the pass).

    Raises
    ------
    NotationError, ImpossibleHandError
        Not an RLCard string.
    InvalidPlayError
        The cards form no play under ``rules``.
    """
    rules = _args.rules_arg(rules)
    if action == "pass":
        return PASS
    counts = rlcard_counts(action)
    if not counts.any():
        raise NotationError("empty RLCard action (the pass is 'pass')")
    return moves.classify(counts, rules)


def _rlcard_map(rules: Rules) -> Tuple[np.ndarray, np.ndarray]:
    """The two id maps, built once per rule set and kept on its table."""
    derived = table(rules).derived
    maps = derived.get("rlcard_map")
    if maps is None:
        maps = derived["rlcard_map"] = _build_rlcard_map(rules)
    return maps


def _build_rlcard_map(rules: Rules) -> Tuple[np.ndarray, np.ndarray]:
    from rlcard.games.doudizhu.utils import ID_2_ACTION  # type: ignore[import-not-found]

    from .actions import ActionSpace

    space = ActionSpace(rules, implementation="reference")
    ours = {("pass" if not p else format_cards_unchecked(p.counts)): i for i, p in enumerate(space)}
    to_rl = np.full(len(space), -1, dtype=np.int32)
    from_rl = np.full(len(ID_2_ACTION), -1, dtype=np.int32)
    for j, s in enumerate(ID_2_ACTION):
        i = ours.get(s)
        if i is not None:
            to_rl[i] = j
            from_rl[j] = i
    to_rl.setflags(write=False)
    from_rl.setflags(write=False)
    return to_rl, from_rl


def rlcard_id_map(rules: object = REPEAT_KICKERS) -> Tuple[np.ndarray, np.ndarray]:
    """The permutation between :class:`ddz.ActionSpace` ids and RLCard's action ids.

    Requires ``rlcard`` (imported on first call).

    Parameters
    ----------
    rules : Rules or ActionSpace, default ``REPEAT_KICKERS``

    Returns
    -------
    to_rlcard : numpy.ndarray
        ``int32[len(space)]``: RLCard's id of each of our ids (``-1``: RLCard lacks it;
        never under ``REPEAT_KICKERS``).
    from_rlcard : numpy.ndarray
        ``int32[27472]``: our id of each RLCard id (``-1``: not a play under ``rules``,
        e.g. ``'33344455'`` with ``kickers="distinct"``).

    Raises
    ------
    ImportError
        ``rlcard`` is not installed.
    """
    from .actions import ActionSpace

    if isinstance(rules, ActionSpace):
        rules = rules.rules
    return _rlcard_map(_args.rules_arg(rules))


# -- OpenSpiel ----------------------------------------------------------------------

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


def _trio_wing(p: Play) -> bool:
    """An airplane whose single wings hold three cards of the rank next to the chain
    (OpenSpiel's ``333444555-666``), which no rule set of RULES.md reads that way."""
    if p.type is not _T.AIRPLANE_SINGLES:
        return False
    lo = p.rank - p.length + 1
    return any(p.kickers.count(r) == 3 for r in (lo - 1, p.rank + 1) if 0 <= r < CHAIN_RANKS)


def to_openspiel(play: Union[Play, str], rules: Rules = REPEAT_KICKERS) -> int:
    """OpenSpiel ``dou_dizhu``'s action id of a play (the pass is 0).

    Parameters
    ----------
    play : Play or notation
    rules : Rules
        Used to parse notation and to check a Play; default ``REPEAT_KICKERS``
        (OpenSpiel's kicker rule).

    Raises
    ------
    NotExpressibleError
        OpenSpiel has no such action (four-with-two: FOUR_TWO_SINGLES, FOUR_TWO_PAIRS).
    InvalidPlayError, NotationError
        Not a play under ``rules``.
    """
    p = _args.play_arg(play, _args.rules_arg(rules), moves._readings)
    if not p:
        return OPENSPIEL_PASS
    _, index = _openspiel_tables()
    try:
        return index[p]
    except KeyError:
        raise NotExpressibleError(
            f"OpenSpiel's dou_dizhu cannot express {str(p)!r} ({p.type.name}; it has no "
            f"four-with-two)") from None


def openspiel_play(action: int, rules: Rules = REPEAT_KICKERS) -> Play:
    """The :class:`Play` of an OpenSpiel ``dou_dizhu`` play-phase action id.

    Parameters
    ----------
    action : int
        0 (pass) or 4..26056.
    rules : Rules
        The play must be a play under these rules; default ``REPEAT_KICKERS``
        (OpenSpiel's kicker rule).

    Raises
    ------
    NotExpressibleError
        A bid (1..3), an id out of range, or an OpenSpiel action that is not a play under
        ``rules`` (e.g. ``333444555-666``, or ``333444-55`` with ``kickers="distinct"``).
    """
    rules = _args.rules_arg(rules)
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
    if _trio_wing(p):
        raise NotExpressibleError(
            f"OpenSpiel action {a} ({str(p)!r} as {p.type.name}) is not a play under {rules!r}: "
            f"a trio next to the chain is never a wing (RULES.md §2.1)")
    if p not in moves.readings(p.counts, rules):
        raise NotExpressibleError(
            f"OpenSpiel action {a} ({str(p)!r} as {p.type.name}) is not a play under {rules!r}")
    return p
