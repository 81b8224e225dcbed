"""The rules functions computed by the Cython core (:mod:`ddz.core._core`).

Same public functions, signatures, results, order and exceptions as
:mod:`ddz.core.reference` (the oracle; ``tests/core/test_core_crosscheck.py`` holds them equal),
plus :func:`legal_moves_array`, which returns move codes with no Python object per move.

Arguments are validated once, in C, by the rule set's table (:class:`ddz.core._core.RuleTable`):
a hand given as counts (a ``uint8[15]`` array or 15 ints) and a play to beat given as a
:class:`~ddz.Play` go straight to the checked kernel. When the table refuses them, or for
notation, the Python checks of :mod:`ddz.core.arguments` (the reference's) run, so errors are
identical to the reference's: the table's refusal is only re-worded there.

Moves come back as the interned :class:`~ddz.Play` objects of the rule set's universe
(each made once per :class:`~ddz.Rules`, the first time it is answered), so
``legal_moves()`` builds no ``Play`` per move. Play notation (canonical or not) is read in
C by :meth:`ddz.core._core.RuleTable.play_of_text`.
"""

from __future__ import annotations

from typing import List, Optional

import numpy as np
import numpy.typing as npt

from . import arguments as _args
from .cards import CardsLike, parse_cards, to_counts
from ..errors import DdzError, ImpossibleHandError, InvalidPlayError
from .play import Play, PlayLike, needs_play_grammar, parse_with, play_arg, the_reading, to_beat_arg
from .rules import STANDARD, Rules
from .tables import table as _table

__all__ = ["readings", "classify", "beats", "legal_moves", "count_legal_moves", "all_plays",
           "legal_moves_array"]


def _tables(rules):
    """The shared :class:`ddz.core._core.RuleTable` of a rule set. A ``Rules`` is hashable and
    only ``Rules`` values are keys, so anything else goes through ``_args.rules_arg``."""
    if type(rules) is not Rules:
        rules = _args.rules_arg(rules)
    return _table(rules)


def _readings(counts, rules: Rules) -> List[Play]:
    """The core's classifier for ``_args`` and notation: readings of 15 counts (a Play's
    cards beyond this deck are no play of it: no reading, as in the reference)."""
    try:
        return _tables(rules).readings(counts)
    except ImpossibleHandError:
        return []


def _lookup(text, rules) -> Optional[Play]:
    """The play of ``rules`` that notation ``text`` names, read in C
    (:meth:`ddz.core._core.RuleTable.play_of_text`: plain cards or ``body+kickers``, as
    :meth:`~ddz.Play.parse` reads them), or ``None`` for anything the Python parser must
    read or refuse (the pass, other spellings, errors). Never raises."""
    if type(rules) is not Rules or type(text) is not str:
        return None
    return _table(rules).play_of_text(text)


def _texts_read(rules):
    """``{text: Play}`` of the notation the table of ``rules`` has read in C (for
    :meth:`~ddz.Play.parse`'s one-lookup path)."""
    return _tables(rules).texts_read


def _fast_args(hand, to_beat, rules: Rules, u):
    """``(hand, code)`` for the checked kernel without the Python checks, or ``None`` when
    the arguments need them: notation is parsed (``parse_cards`` raises exactly what the
    checked path would), play notation is read in C (``RuleTable.play_of_text``), a Play is taken by code;
    whatever else the table then refuses is worded by the checked path."""
    if type(hand) is str:
        counted = u.counts_of_text(hand)       # plain notation, counted in C
        hand = parse_cards(hand, decks=rules.decks) if counted is None else counted
    if to_beat is None:
        return hand, 0
    if type(to_beat) is str:
        to_beat = u.play_of_text(to_beat)
    if type(to_beat) is Play and to_beat:
        return hand, to_beat.code
    return None


def _known_play(x, rules: Rules, u) -> Optional[Play]:
    """A play of ``rules`` (not the pass) given as a Play or notation, found without the
    Python checks (a table lookup, or the text read in C); ``None`` for anything the
    checked path must look at."""
    if type(x) is Play:
        return x if u.index_of_play.get(x) and x.type not in rules.excluded else None
    if type(x) is str:
        return u.play_of_text(x)        # never the pass
    return None


def _cards(cards, rules: Rules, u):
    """Checked ``uint8[15]`` counts of any card multiset: plain notation within the deck
    counted in C, anything else (and any refusal) through :func:`ddz.core.cards.to_counts`."""
    if type(cards) is str:
        counted = u.counts_of_text(cards)
        if counted is not None and u.hand_ok(counted):   # within the deck (and one hand)
            return counted
    return to_counts(cards, decks=rules.decks, what="cards")


def _generate(method: str, hand, to_beat, rules):
    """The table's checked generator ``method`` (``moves``, ``count_legal`` or
    ``legal_codes``) on the position: straight to C when the arguments allow it; when they
    do not, or the table refuses them, through the Python checks, which word the error
    exactly as the reference does."""
    u = _tables(rules)
    kernel = getattr(u, method)
    fast = _fast_args(hand, to_beat, rules, u)
    if fast is not None:
        try:
            return kernel(*fast)
        except DdzError:
            pass
    h = _hand(hand, rules, u)
    return kernel(h, 0 if to_beat is None else _beat_code(to_beat, rules, h, u))


def _hand(hand: CardsLike, rules: Rules, u):
    if u.hand_ok(hand):
        return hand
    return _args.hand_arg(hand, rules)


def _beat_code(to_beat, rules: Rules, hand, u) -> int:
    if to_beat is None:
        return 0
    if isinstance(to_beat, Play):
        i = u.index_of_play.get(to_beat)
        if i and to_beat.type not in rules.excluded and u.fits(hand, to_beat.code):
            return to_beat.code
    if isinstance(hand, np.ndarray):
        hand = tuple(int(c) for c in hand)
    return to_beat_arg(to_beat, rules, hand, _readings, _lookup).code


def readings(cards: CardsLike, rules: Rules = STANDARD) -> List[Play]:
    """Every reading of a card multiset as a play, in move order.

    :param cards: notation, or 15 counts (``int[15]``).
    :param rules: the rule set.
    :returns: list of :class:`~ddz.Play`; ``[PASS]`` for no cards; empty if the cards
        form no play (RULES.md §2).
    :raises NotationError, HandError, ImpossibleHandError: bad ``cards``.
    """
    u = _tables(rules)
    return u.readings(_cards(cards, rules, u))


def classify(cards: CardsLike, rules: Rules = STANDARD) -> Play:
    """The play a card multiset forms (RULES.md §2).

    :param cards: 15 counts (all zero: the pass) or notation. Notation is read as
        :meth:`~ddz.Play.parse` reads it: ``'pass'`` is the pass, ``''`` is an error,
        and a ``+`` must split the body from the kickers (``'333+'`` is an error).
    :returns: the :class:`~ddz.Play`.
    :raises InvalidPlayError: the cards form no play, or more than one, or ``+`` splits
        them elsewhere.
    :raises NotationError, HandError, ImpossibleHandError: bad ``cards`` (empty notation
        included).
    """
    u = _tables(rules)
    if type(cards) is str:
        hit = u.play_of_text(cards, False)     # plain cards: one reading, as below
        if hit is not None:
            return hit
    if isinstance(cards, str) and needs_play_grammar(cards):
        return parse_with(cards, rules, _readings)
    counts = _cards(cards, rules, u)
    found = u.readings(counts)
    if len(found) == 1:
        if found[0] or not isinstance(cards, str):
            return found[0]
        return parse_with(cards, rules, _readings)   # notation with no card: Play.parse's error
    return the_reading(found, tuple(counts.tolist()), rules, _readings)


def beats(play: PlayLike, other: PlayLike, rules: Rules = STANDARD) -> bool:
    """Does ``play`` beat ``other``? RULES.md §2.2.

    :param play: the response (a :class:`~ddz.Play` or notation); the pass beats nothing.
    :param other: the play to beat (not the pass).
    :returns: ``True`` if ``play`` may be played on ``other``.
    :raises InvalidPlayError: either is not a play under ``rules``, or ``other`` is the pass.
    :raises ImpossibleHandError: the two plays together hold more of a rank than the deck.
    """
    u = _tables(rules)
    a, b = _known_play(play, rules, u), _known_play(other, rules, u)
    if a is not None and b is not None and u.fits(a.counts, b.code):
        return u.beats(a.code, b.code)
    # anything else, or a refusal, through the Python checks (they word the error)
    play = play_arg(play, rules, _readings, "play", _lookup)
    other = play_arg(other, rules, _readings, "the play to beat", _lookup)
    if not other:
        raise InvalidPlayError("nothing beats the pass: give the last non-pass play of the trick")
    _args.together(play.counts, other.counts, rules, lambda: f"{str(play)!r}",
                   lambda: f"the play to beat {str(other)!r}")
    return u.beats(play.code, other.code)


def legal_moves(hand: CardsLike, to_beat: Optional[PlayLike] = None,
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
    return _generate("moves", hand, to_beat, rules)


def count_legal_moves(hand: CardsLike, to_beat: Optional[PlayLike] = None,
                      rules: Rules = STANDARD) -> int:
    """``len(legal_moves(hand, to_beat, rules))``, computed without building the moves;
    same arguments and errors."""
    return _generate("count_legal", hand, to_beat, rules)


def legal_moves_array(hand: CardsLike, to_beat: Optional[PlayLike] = None,
                      rules: Rules = STANDARD) -> npt.NDArray[np.int64]:
    """The legal moves of :func:`legal_moves` as compact play codes (``Play.code``).

    :returns: ``int64[n]``, in move order; when responding the pass (code 0) first.
        ``Play.from_code`` turns a code back into a :class:`~ddz.Play`.
    :raises: as :func:`legal_moves`.
    """
    return _generate("legal_codes", hand, to_beat, rules)


def all_plays(rules: Rules = STANDARD) -> List[Play]:
    """Every play one deck can form under ``rules`` (the pass not included), in move order.

    :returns: a new list; 12,654 plays with ``kickers="distinct"``, 27,471 with ``"repeat"``;
        plays of ``rules.banned`` types left out.
    """
    return list(_tables(rules).all_plays)
