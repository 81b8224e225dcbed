"""The rules functions computed by the Cython core (:mod:`ddz._core`).

Same public functions, signatures, results, order and exceptions as
:mod:`ddz.reference` (the oracle; ``tests/test_core_crosscheck.py`` holds them equal),
plus :func:`legal_moves_array`, which returns move codes with no Python object per move.

Arguments are checked by :mod:`ddz._args`, as in the reference. Two shortcuts skip
that Python code for input it would accept unchanged, so errors are identical:
a hand that is already a C-contiguous ``uint8[15]`` array of a possible hand, and a
play to beat that is a :class:`~ddz.Play` of the rule set's universe whose cards fit
in the deck beside the hand. Anything else goes through :mod:`ddz._args`.

Moves come back as the interned :class:`~ddz.Play` objects of the rule set's universe
(built once per :class:`~ddz.Rules`, on first use), so ``legal_moves()`` builds no
``Play`` per move.
"""

from __future__ import annotations

import threading
from typing import Dict, List, Optional

import numpy as np

from . import _args, _core
from .cards import CardsLike
from .errors import InvalidPlayError
from .play import Play
from .rules import STANDARD, Rules

__all__ = ["readings", "classify", "beats", "legal_moves", "count_legal_moves", "all_plays",
           "legal_moves_array", "MAX_MOVES"]

MAX_MOVES = _core.MAX_MOVES_PY
"""Most legal moves any position can have (27,471 plays of ``kickers="repeat"`` + the pass)."""

_lock = threading.Lock()
_universes: Dict[Rules, "_Tables"] = {}


class _Tables:
    """What the core needs per rule set, built once (on first use)."""
    __slots__ = ("core", "codes", "repeat", "max_hand")

    def __init__(self, rules: Rules):
        self.core = _core.Universe(int(rules.repeat_kickers), rules.max_hand, Play.from_code)
        self.codes: Dict[Play, int] = dict(zip(self.core.plays, [0] + self.core.codes.tolist()))
        self.repeat = int(rules.repeat_kickers)
        self.max_hand = rules.max_hand


def _tables(rules) -> _Tables:
    """The tables of a rule set. Only ``Rules`` values are ever keys, so a hit proves
    ``rules`` valid; anything else goes through ``_args.rules_arg`` (which raises)."""
    try:
        u = _universes.get(rules)
    except TypeError:  # unhashable: certainly not a Rules
        u = None
    if u is None:
        rules = _args.rules_arg(rules)
        with _lock:
            u = _universes.get(rules.move_rules)
            if u is None:
                u = _universes[rules.move_rules] = _Tables(rules.move_rules)
            _universes[rules] = u
    return u


def _hand(hand: CardsLike, rules: Rules, u: _Tables):
    if _core.hand_ok(hand, u.max_hand):
        return hand
    return _args.hand_arg(hand, rules)


def _beat_code(to_beat, rules: Rules, hand, codes: Dict[Play, int]) -> int:
    if to_beat is None:
        return 0
    if isinstance(to_beat, Play):
        code = codes.get(to_beat)
        if code and _core.fits(hand, code):
            return code
    if isinstance(hand, np.ndarray):
        hand = tuple(int(c) for c in hand)
    return codes[_args.to_beat_arg(to_beat, rules, hand)]


def readings(cards: CardsLike, rules: Rules = STANDARD) -> List[Play]:
    """Every reading of a card multiset as a play, in move order.

    :param cards: notation, or 15 counts (``int[15]``).
    :param rules: the rule set.
    :returns: list of :class:`~ddz.Play`; ``[PASS]`` for no cards; empty if the cards
        form no play (RULES.md §2).
    :raises NotationError, HandError, ImpossibleHandError: bad ``cards``.
    """
    u = _tables(rules)
    return u.core.readings(_args.cards_arg(cards, rules))


def classify(cards: CardsLike, rules: Rules = STANDARD) -> Play:
    """The play a card multiset forms (RULES.md §2).

    :param cards: notation or 15 counts; no cards gives the pass.
    :returns: the :class:`~ddz.Play`.
    :raises InvalidPlayError: the cards form no play, or more than one.
    :raises NotationError, HandError, ImpossibleHandError: bad ``cards``.
    """
    u = _tables(rules)
    counts = _args.cards_arg(cards, rules)
    return _args.the_reading(u.core.readings(counts), counts, rules)


def beats(play: Play, other: Play, rules: Rules = STANDARD) -> bool:
    """Does ``play`` beat ``other``? RULES.md §2.2.

    :param play: the response (a :class:`~ddz.Play` or notation); the pass beats nothing.
    :param other: the play to beat (not the pass).
    :returns: ``True`` if ``play`` may be played on ``other``.
    :raises InvalidPlayError: either is not a play under ``rules``, or ``other`` is the pass.
    :raises ImpossibleHandError: the two plays together hold more of a rank than the deck.
    """
    codes = _tables(rules).codes
    play = _args.play_arg(play, rules)
    other = _args.play_arg(other, rules, "the play to beat")
    if not other:
        raise InvalidPlayError("nothing beats the pass: give the last non-pass play of the trick")
    _args.together(play.counts, other.counts, rules, f"{str(play)!r}", f"the play to beat {str(other)!r}")
    return _core.beats(codes[play], codes[other])


def legal_moves(hand: CardsLike, to_beat: Optional[Play] = None,
                rules: Rules = STANDARD) -> List[Play]:
    """Every legal move for ``hand`` (RULES.md §2.3), in move order.

    :param hand: notation or 15 counts (``uint8[15]`` is fastest; at most
        ``rules.max_hand`` cards).
    :param to_beat: the last non-pass play of the trick (a :class:`~ddz.Play` or
        notation), or ``None`` when leading.
    :param rules: the rule set.
    :returns: list of :class:`~ddz.Play`: when responding the pass first, then the plays
        that beat ``to_beat``; when leading every play the hand holds (never the pass).
    :raises NotationError, HandError, ImpossibleHandError: bad ``hand``, or a hand that
        holds cards of the play to beat beyond the deck.
    :raises InvalidPlayError: ``to_beat`` is not a play (or is the pass).
    """
    u = _tables(rules)
    h = _hand(hand, rules, u)
    return u.core.moves(h, 0 if to_beat is None else _beat_code(to_beat, rules, h, u.codes))


def count_legal_moves(hand: CardsLike, to_beat: Optional[Play] = None,
                      rules: Rules = STANDARD) -> int:
    """``len(legal_moves(hand, to_beat, rules))``, computed without building the moves;
    same arguments and errors."""
    u = _tables(rules)
    h = _hand(hand, rules, u)
    return _core.count_legal_codes(h, 0 if to_beat is None else _beat_code(to_beat, rules, h, u.codes), u.repeat)


def legal_moves_array(hand: CardsLike, to_beat: Optional[Play] = None,
                      rules: Rules = STANDARD) -> np.ndarray:
    """The legal moves of :func:`legal_moves` as compact play codes (``Play.code``).

    :returns: ``int64[n]``, in move order; when responding the pass (code 0) first.
        ``Play.from_code`` turns a code back into a :class:`~ddz.Play`.
    :raises: as :func:`legal_moves`.
    """
    u = _tables(rules)
    h = _hand(hand, rules, u)
    return _core.legal_codes_array(h, 0 if to_beat is None else _beat_code(to_beat, rules, h, u.codes), u.repeat)


def all_plays(rules: Rules = STANDARD) -> List[Play]:
    """Every play one deck can form under ``rules`` (the pass not included), in move order.

    :returns: a new list; 12,654 plays with ``kickers="distinct"``, 27,471 with ``"repeat"``.
    """
    return list(_tables(rules).core.plays[1:])
