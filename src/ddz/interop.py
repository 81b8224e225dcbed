"""Conversions to and from other Dou Dizhu implementations: DouZero, RLCard, OpenSpiel.

None of them is imported here unless a function says so; the encodings are rebuilt from
their published rules and checked against the real packages by ``tests/test_interop.py``.

Each engine's helpers default to its profile (``Rules.profile(name)``, RULES.md §2.5),
whose plays and legal moves are exactly the engine's.

DouZero (``douzero.env``)
    A card is an int: ``3``..``14`` for 3..A, ``17`` for 2, ``20`` small joker, ``30`` big
    joker. A hand or a play is a list of them, sorted ascending; the pass is ``[]``.
    DouZero's moves are card lists, not readings: :func:`douzero_play` reads a list as
    DouZero does (:func:`douzero_reading`), so the profile's 29,984 card sets and
    DouZero's card lists convert both ways one to one (:func:`douzero_plays`).
RLCard (``rlcard.games.doudizhu``, 1.2.0)
    An action is a string of rank characters sorted ascending (``'33344456'``, ``'BR'``;
    ``T`` for ten, ``B``/``R`` jokers), or ``'pass'``. Its 27,472 action ids (pass last)
    list the same plays as ``ActionSpace(Rules.profile("rlcard"))`` in another order:
    :func:`rlcard_id_map` gives the permutation (it needs ``rlcard`` installed).
OpenSpiel (``pyspiel.load_game("dou_dizhu")``)
    Action ids 0 (pass; also "pass" in bidding) and 4..26056 are plays (1..3 are bids).
    They are the 26,053 plays of ``Rules.profile("openspiel")`` reading for reading
    (``333444555-666`` and ``444555666-333`` are two actions and two plays);
    :func:`openspiel_id_map` gives the permutation. Under other rules, an action that is
    not a play (e.g. ``333444555-666`` with ``wings="standard"``) or a play OpenSpiel lacks
    (the four-with-twos) raises :class:`NotExpressibleError`.
"""

from __future__ import annotations

import collections.abc
import functools
import itertools
from typing import Dict, Iterable, List, Tuple, Union

import numpy as np

from .core import arguments as _args
from . import core as moves
from .core.cards import CHAIN_RANKS, NUM_RANKS, RANK_CHARS, CardsLike, deck_counts, format_cards_unchecked, is_integer
from .errors import DdzError, HandError, InvalidPlayError, NotationError, quote
from .core.play import PASS, Play, PlayType
from .core.rules import STANDARD, Rules
from .core.tables import table

__all__ = [
    "NotExpressibleError", "DOUZERO", "RLCARD", "OPENSPIEL",
    "to_douzero", "douzero_counts", "douzero_play", "douzero_reading", "douzero_plays",
    "to_rlcard", "rlcard_play", "rlcard_counts", "rlcard_id_map",
    "to_openspiel", "openspiel_play", "openspiel_id_map", "OPENSPIEL_PASS", "OPENSPIEL_NUM_ACTIONS",
    "DOUZERO_POSITIONS", "douzero_seat", "douzero_game", "douzero_card_play_data", "DouZeroInfoSet",
    "douzero_infoset",
]

DOUZERO = Rules.profile("douzero")
"""DouZero's rules (RULES.md §2.5): the DouZero helpers' default."""
RLCARD = Rules.profile("rlcard")
"""RLCard's rules (``kickers="repeat"``): the RLCard helpers' default."""
OPENSPIEL = Rules.profile("openspiel")
"""OpenSpiel's rules, auction included (RULES.md §2.5): the OpenSpiel helpers' default."""

PlayOrCards = Union[Play, CardsLike]


class NotExpressibleError(InvalidPlayError):
    """A play the other implementation cannot express (or the reverse)."""


def _three_player(rules: object, engine: str) -> Rules:
    """``rules`` checked as a :class:`Rules` of the three-player game: every engine here
    plays only that (RULES.md §7 has no counterpart in them).

    :raises DdzError: not a Rules, or ``players=4``."""
    rules = _args.rules_arg(rules)
    if rules.players != 3:
        raise DdzError(f"{engine}'s Dou Dizhu is the three-player one-deck game: {rules!r} (RULES.md §7) "
                       f"has no {engine} counterpart")
    return rules


def _engine_play(p: Play, profile: Rules, engine: str) -> Play:
    """``p`` if its cards are a move of the engine whose plays are ``profile``'s (RULES.md
    §2.5), else :class:`NotExpressibleError` (a four-player bomb of five cards, a pair of
    small jokers, a play another profile's wings allow...)."""
    counts = p.counts
    if p and (any(c > lim for c, lim in zip(counts, _ONE_DECK)) or not moves.readings(counts, profile)):
        raise NotExpressibleError(f"{engine} cannot express {str(p)!r} ({p.type.name}): its cards are no "
                                  f"move of {engine}'s (RULES.md §2.5, §7)")
    return p


_ONE_DECK = tuple(int(c) for c in deck_counts(1))


# -- DouZero ------------------------------------------------------------------------

DOUZERO_CARDS = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
"""DouZero's int for each rank index 0..14."""
_DZ_RANK = {v: r for r, v in enumerate(DOUZERO_CARDS)}


def to_douzero(x: PlayOrCards) -> List[int]:
    """DouZero's card list of a play or a card multiset, sorted ascending.

    Parameters
    ----------
    x : Play, str or int[15]
        A play (the pass gives ``[]``), or notation / counts of any cards of one deck (a
        hand).

    Returns
    -------
    list of int

    Raises
    ------
    NotationError, HandError, ImpossibleHandError
        Bad cards.
    NotExpressibleError
        A play whose cards are no DouZero move: a play of the four-player game (RULES.md
        §7: ``33333``, ``BB``, ``BBRR``...).
    """
    counts = _engine_play(x, DOUZERO, "DouZero").counts if isinstance(x, Play) else _args.cards_arg(x, STANDARD)
    return _douzero_list(counts)


def _douzero_list(counts: Tuple[int, ...]) -> List[int]:
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


def douzero_reading(readings: List[Play]) -> Play:
    """The one of several readings of a card set that DouZero's move detector gives its
    cards: the first in move order (an AIRPLANE before the AIRPLANE_SINGLES of the same
    cards, as DouZero reads ``333444555666``). DouZero has no reading of its own for
    airplanes of four trios or more whose wings hold a trio; this one is a play of the same
    cards all the same, and ``beat_reading="cards"`` answers all its readings alike.

    :param readings: a non-empty list of plays of one card set, in move order (as
        :func:`ddz.readings` gives them).
    :raises InvalidPlayError: an empty list, or not a sequence of :class:`Play` of one card set.
    """
    if not isinstance(readings, collections.abc.Sequence) or isinstance(readings, str) or not readings \
            or not all(isinstance(p, Play) for p in readings) \
            or any(p.counts != readings[0].counts for p in readings):
        raise InvalidPlayError(f"readings must be a non-empty list of plays of one card set "
                               f"(ddz.readings(cards, rules)), not {quote(readings)}")
    return readings[0]


def douzero_play(cards: Iterable[int], rules: Rules = DOUZERO) -> Play:
    """The :class:`Play` a DouZero move forms (``[]`` is the pass); a card set of several
    readings gives DouZero's (:func:`douzero_reading`).

    Parameters
    ----------
    cards : list of int
    rules : Rules, default ``Rules.profile("douzero")``

    Raises
    ------
    NotationError, ImpossibleHandError
        See :func:`douzero_counts`.
    InvalidPlayError
        The cards form no play under ``rules``.
    DdzError
        ``rules`` is not a three-player :class:`Rules`.
    """
    rules = _three_player(rules, "DouZero")
    counts = douzero_counts(cards)
    if not counts.any():
        return PASS
    found = moves.readings(counts, rules)
    if len(found) > 1:
        return douzero_reading(found)
    return moves.classify(counts, rules)


def douzero_plays(rules: Rules = DOUZERO) -> Dict[Tuple[int, ...], Play]:
    """Every move DouZero's generator can make under ``rules`` (its card lists, as tuples)
    and the :class:`Play` each one is (:func:`douzero_play`): one entry per card set of
    ``all_plays(rules)``, so ``to_douzero`` of the values gives the keys back.

    :returns: a new dict, 29,984 entries under the default rules.
    :raises DdzError: ``rules`` is not a three-player :class:`Rules` (DouZero plays no
        four-player game).
    """
    rules = _three_player(rules, "DouZero")
    out: Dict[Tuple[int, ...], Play] = {}
    for p in moves.all_plays(rules):
        key = tuple(_douzero_list(p.counts))    # every three-player play is a DouZero move
        if key not in out:         # move order: the first reading of a card set is DouZero's
            out[key] = p
    return out


# -- RLCard -------------------------------------------------------------------------

def to_rlcard(play: Union[Play, str], rules: Rules = RLCARD) -> str:
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
    NotExpressibleError
        Cards that are none of RLCard's actions: a play of another profile's wings
        (``4444+BR``) or of the four-player game (``33333``, ``BB``).
    DdzError
        ``rules`` is not a three-player :class:`Rules`.
    """
    rules = _three_player(rules, "RLCard")
    p = play if isinstance(play, Play) else _args.play_arg(play, rules, moves._readings)
    return "pass" if not p else format_cards_unchecked(_engine_play(p, RLCARD, "RLCard").counts)


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


def rlcard_play(action: str, rules: Rules = RLCARD) -> Play:
    """The :class:`Play` of an RLCard action string (``'pass'`` is the pass).

    Raises
    ------
    NotationError, ImpossibleHandError
        Not an RLCard string.
    InvalidPlayError
        The cards form no play under ``rules``.
    DdzError
        ``rules`` is not a three-player :class:`Rules`.
    """
    rules = _three_player(rules, "RLCard")
    if not isinstance(action, str):
        raise NotationError(f"an RLCard action must be a str, not {type(action).__name__}: {quote(action)}")
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

    from .game.actions import ActionSpace

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


def rlcard_id_map(rules: object = RLCARD) -> Tuple[np.ndarray, np.ndarray]:
    """The permutation between :class:`ddz.ActionSpace` ids and RLCard's action ids.

    Requires ``rlcard`` (imported on first call).

    Parameters
    ----------
    rules : Rules or ActionSpace, default ``Rules.profile("rlcard")``

    Returns
    -------
    to_rlcard : numpy.ndarray
        ``int32[len(space)]``: RLCard's id of each of our ids (``-1``: RLCard lacks it;
        never under the RLCard profile).
    from_rlcard : numpy.ndarray
        ``int32[27472]``: our id of each RLCard id (``-1``: not a play under ``rules``,
        e.g. ``'33344455'`` with ``kickers="distinct"``).

    Raises
    ------
    ImportError
        ``rlcard`` is not installed.
    DdzError
        ``rules`` is not a three-player :class:`Rules` or its ActionSpace.
    """
    from .game.actions import ActionSpace

    if isinstance(rules, ActionSpace):
        rules = rules.rules
    return _rlcard_map(_three_player(rules, "RLCard"))


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
    p = _args.play_arg(play, _three_player(rules, "OpenSpiel"), moves._readings)
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
        from .game.actions import ActionSpace

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
    from .game.actions import ActionSpace

    if isinstance(rules, ActionSpace):
        rules = rules.rules
    return _openspiel_map(_three_player(rules, "OpenSpiel"))


# -- DouZero deals and information sets ---------------------------------------------

DOUZERO_POSITIONS = ("landlord", "landlord_down", "landlord_up")
"""DouZero's positions in the order they play: the landlord, then the farmer after it
(``landlord_down``), then the farmer before it (``landlord_up``). With the landlord at
seat ``L`` they are seats ``L``, ``L + 1``, ``L + 2`` (mod 3): :func:`douzero_seat`."""


def douzero_seat(position: str, landlord: int) -> int:
    """The seat of a DouZero position when the landlord sits at ``landlord``.

    :param position: ``"landlord"``, ``"landlord_down"`` or ``"landlord_up"``.
    :param landlord: the landlord's seat, 0..2.
    :returns: an int 0..2.
    :raises DdzError: an unknown position or a bad seat.
    """
    from .errors import DdzError
    if position not in DOUZERO_POSITIONS:
        raise DdzError(f"a DouZero position is one of {', '.join(DOUZERO_POSITIONS)}, got {position!r}")
    if isinstance(landlord, bool) or not is_integer(landlord) or not 0 <= landlord < 3:
        raise DdzError(f"the landlord's seat is 0..2, got {landlord!r}")
    return (int(landlord) + DOUZERO_POSITIONS.index(position)) % 3


def _dz_list(cards, what: str) -> Tuple[int, ...]:
    from .errors import DealError
    try:
        return tuple(int(c) for c in douzero_counts(cards))
    except (HandError, NotationError) as exc:
        raise DealError(f"card_play_data[{what!r}]: {exc}") from None


def douzero_game(card_play_data, landlord: int = 0, rules: Rules = DOUZERO):
    """A DouZero deal as a :class:`ddz.Game` at its first play (RULES.md §3, §5).

    DouZero's evaluation deals (``card_play_data``, as in its ``eval_data.pkl``) give the
    landlord 20 cards, three of which are ``three_landlord_cards``. The game deals seat
    ``landlord`` those 20 cards minus the three (17 cards), the farmers their 17 each and
    the three to the bottom; seat ``landlord`` speaks first and bids 3, so it is the
    landlord, takes the bottom and leads. DouZero's ``landlord``, ``landlord_down`` and
    ``landlord_up`` are seats ``landlord``, ``landlord + 1``, ``landlord + 2`` (mod 3).
    :func:`douzero_card_play_data` maps the game back.

    Parameters
    ----------
    card_play_data : mapping
        ``{"landlord": [20 ints], "landlord_down": [17], "landlord_up": [17],
        "three_landlord_cards": [3]}`` in DouZero's card ints (:data:`DOUZERO_CARDS`); the
        lists are read, never changed.
    landlord : int, default 0
        The landlord's seat, 0..2.
    rules : Rules, default ``Rules.profile("douzero")``
        Three players and bids of points (doubling, if on, follows the bid as usual).

    Returns
    -------
    ddz.Game
        In phase ``playing`` (or ``doubling`` under rules with doubling), seat
        ``landlord`` to act; ``game.seed`` is 0 and the deal is recorded, so
        ``game.to_record()`` replays.

    Raises
    ------
    DealError
        Not such a mapping, cards that are not DouZero's, the three not among the
        landlord's 20, or the four lists not exactly one deck.
    DdzError
        A bad seat, or rules not of three players bidding points.
    """
    from .errors import DdzError, DealError
    from .game.state import Game
    rules = _args.rules_arg(rules)
    if rules.players != 3 or rules.bidding != "points":
        raise DdzError(f"a DouZero deal is played by three players whose landlord bids 3; not under {rules!r}")
    if isinstance(landlord, bool) or not is_integer(landlord) or not 0 <= landlord < 3:
        raise DdzError(f"the landlord's seat is 0..2, got {landlord!r}")
    keys = set(DOUZERO_POSITIONS) | {"three_landlord_cards"}
    if not isinstance(card_play_data, collections.abc.Mapping) or not keys <= set(card_play_data):
        raise DealError(f"card_play_data is a mapping with the keys {sorted(keys)}, got {card_play_data!r}")
    parts = {k: _dz_list(card_play_data[k], k) for k in keys}
    bottom = parts["three_landlord_cards"]
    lord = [a - b for a, b in zip(parts["landlord"], bottom)]
    if min(lord) < 0:
        raise DealError(f"the three_landlord_cards {to_douzero(bottom)} are not all among the landlord's 20 cards")
    hands = [None] * 3
    hands[landlord] = tuple(lord)
    hands[(landlord + 1) % 3] = parts["landlord_down"]
    hands[(landlord + 2) % 3] = parts["landlord_up"]
    deal = [format_cards_unchecked(h) for h in hands] + [format_cards_unchecked(bottom)]
    game = Game(rules, seed=0, deal=deal, first_bidder=int(landlord))
    game.step(3)
    return game


def douzero_card_play_data(game) -> Dict[str, List[int]]:
    """The DouZero deal of a :class:`ddz.Game` whose landlord is known: the inverse of
    :func:`douzero_game`.

    :param game: a game past its auction (any phase after it, over included).
    :returns: ``{"landlord": [20 ints], "landlord_down": [17], "landlord_up": [17],
        "three_landlord_cards": [3]}``, each list sorted ascending (new lists).
    :raises DdzError: not a three-player game, or no landlord yet.
    """
    from .errors import DdzError
    lord = getattr(game, "landlord", None)
    if lord is None or getattr(game, "seats", None) != 3:
        raise DdzError(f"douzero_card_play_data needs a three-player ddz.Game whose landlord is known, got {game!r}")
    deal = game.deal
    out = {"three_landlord_cards": to_douzero(deal.bottom)}
    for i, name in enumerate(DOUZERO_POSITIONS):
        hand = deal.hands[(lord + i) % 3]
        if i == 0:
            hand = tuple(a + b for a, b in zip(hand, deal.bottom))
        out[name] = to_douzero(hand)
    return out


class DouZeroInfoSet:
    """What DouZero's ``GameEnv.get_infoset()`` gives the player to act
    (``douzero.env.game.InfoSet``), built from a :class:`ddz.Game` by
    :func:`douzero_infoset`; the attributes have InfoSet's names and meanings (card
    lists of DouZero ints, sorted; dicts by position name). Every list is new."""

    __slots__ = ("player_position", "player_hand_cards", "num_cards_left_dict", "three_landlord_cards",
                 "card_play_action_seq", "other_hand_cards", "legal_actions", "last_move", "last_two_moves",
                 "last_move_dict", "played_cards", "all_handcards", "last_pid", "bomb_num")

    def __repr__(self) -> str:
        return f"<DouZeroInfoSet {self.player_position} hand={self.player_hand_cards}>"


def douzero_infoset(game, legal: bool = True) -> DouZeroInfoSet:
    """DouZero's information set of the seat to act in a game's play phase, as
    ``GameEnv.get_infoset()`` builds it (``douzero/env/game.py``): the seat's hand, the
    cards left per position, the bottom cards the landlord has not played yet, the whole
    play sequence (passes as ``[]``), the last move and last two moves, each position's
    last move and played cards, the last position that did not pass, bombs played, and
    the legal moves as DouZero card lists (in ddz's move order; ``legal=False`` leaves
    them ``None``). ``all_handcards`` (every hand) and ``other_hand_cards`` (the cards the
    seat cannot see) are filled as DouZero fills them; an honest agent reads neither's
    split.

    :param game: a :class:`ddz.Game` of three players in phase ``playing``.
    :returns: a :class:`DouZeroInfoSet`.
    :raises DdzError: not a three-player game in its play phase.
    """
    from .errors import DdzError
    if getattr(game, "seats", None) != 3 or getattr(game, "current_player", None) is None or \
            game.phase != "playing":
        raise DdzError(f"douzero_infoset needs a three-player ddz.Game in its play phase, got {game!r}")
    lord = game.landlord
    seat = game.current_player
    name = {(lord + i) % 3: n for i, n in enumerate(DOUZERO_POSITIONS)}
    plays = game.plays
    seq = [to_douzero(p) for _, p in plays]
    info = DouZeroInfoSet()
    info.player_position = name[seat]
    hands = {name[s]: to_douzero(game.hand(s)) for s in range(3)}
    info.player_hand_cards = list(hands[name[seat]])
    info.all_handcards = hands
    info.num_cards_left_dict = {n: len(h) for n, h in hands.items()}
    info.other_hand_cards = [c for n in ("landlord", "landlord_up", "landlord_down") if n != name[seat]
                             for c in hands[n]]
    played = {n: [] for n in ("landlord", "landlord_up", "landlord_down")}
    last_move_dict = {n: [] for n in ("landlord", "landlord_up", "landlord_down")}
    last_pid = "landlord"
    lord_played = [0] * NUM_RANKS
    for (s, p), cards in zip(plays, seq):
        played[name[s]] += cards
        last_move_dict[name[s]] = list(cards)
        if p:
            last_pid = name[s]
            if s == lord:
                for r in range(NUM_RANKS):
                    lord_played[r] += p.counts[r]
    info.played_cards = played
    info.last_move_dict = last_move_dict
    info.last_pid = last_pid
    bottom = game.deal.bottom
    info.three_landlord_cards = to_douzero([max(0, b - c) for b, c in zip(bottom, lord_played)])
    info.card_play_action_seq = seq
    last = []
    if seq:
        last = list(seq[-2]) if not seq[-1] and len(seq) >= 2 else list(seq[-1])
    info.last_move = last
    two = [[], []]
    for cards in seq[-2:]:
        two.insert(0, list(cards))
        two = two[:2]
    info.last_two_moves = two
    result_bombs = sum(1 for _, p in plays if p.type in (PlayType.BOMB, PlayType.ROCKET))
    info.bomb_num = result_bombs
    info.legal_actions = [to_douzero(p) for p in game.legal_actions()] if legal else None
    return info
