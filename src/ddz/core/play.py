"""The :class:`Play` value (RULES.md §2); :class:`PlayType` is re-exported from
:mod:`ddz.core.rules`.

A play is identified by its type, its main rank, its chain length, the copies of each
body rank (its *width*) and its kicker multiset -- not by its cards alone (DESIGN.md,
"Values, not tuples").

A ``Play`` is a *structure*: the constructor checks what holds in every rule set the
project implements or plans (RULES.md §2, §7 and the engine profiles): the shape of each
type, chains within 3..A, kicker counts, kickers never of a body rank (§2.1 rule 1),
pair kickers pairs of different ranks (rule 5), at most two decks' copies of a rank.
Whether a structure is a play under a rule set (rules 2 and 3, the ``kickers`` option,
joker pairs, bomb sizes, banned types) is decided by the engines: :func:`ddz.classify`,
:func:`ddz.readings`, :func:`ddz.all_plays`.

Compact code
------------
Every play also has a compact integer code (``Play.code``, ``Play.from_code``), used
by the Cython core and the action tables. It fits in 62 bits of an ``int64``::

    bits  0..44  kicker card counts, 3 bits per rank (rank r at bits 3r..3r+2)
    bits 45..48  main rank (0..14)
    bits 49..52  chain length (1 for non-chains, 0 for the pass)
    bits 53..56  width: copies of each body rank (4..8 for a bomb, 1 or 2 for a rocket)
    bits 57..61  PlayType

The pass has code 0. Codes are an internal format: they may change between versions
(action ids and notation do not).
"""

from __future__ import annotations

from typing import Callable, Iterable, List, Optional, Tuple, Union

from .cards import (BIG_JOKER, CHAIN_RANKS, NUM_RANKS, R2, RANK_CHARS, SMALL_JOKER, Rank, format_cards, is_integer,
                    parse_cards, to_counts, together)
from ..errors import AmbiguousPlayError, DdzError, InvalidPlayError, NotationError, quote
from .rules import STANDARD, PlayType, Rules

__all__ = ["PlayType", "Play", "PASS", "parse_with", "register_engine", "BODY_WIDTH", "MIN_CHAIN", "KICKER_UNITS",
           "CODE_KICKER_BITS", "CODE_RANK_SHIFT", "CODE_LENGTH_SHIFT", "CODE_WIDTH_SHIFT",
           "CODE_TYPE_SHIFT", "MAX_PLAY_CARDS"]

_T = PlayType

#: copies of each body rank, by type: the default width (a BOMB may have 4..8, RULES.md §7;
#: the rocket's body is one B and one R, or two of each with two decks)
BODY_WIDTH = {
    _T.PASS: 0, _T.SINGLE: 1, _T.PAIR: 2, _T.TRIO: 3, _T.TRIO_SINGLE: 3, _T.TRIO_PAIR: 3,
    _T.STRAIGHT: 1, _T.PAIR_STRAIGHT: 2, _T.AIRPLANE: 3, _T.AIRPLANE_SINGLES: 3,
    _T.AIRPLANE_PAIRS: 3, _T.FOUR_TWO_SINGLES: 4, _T.FOUR_TWO_PAIRS: 4, _T.BOMB: 4, _T.ROCKET: 1,
}
#: shortest chain of each chain type (RULES.md §2)
MIN_CHAIN = {_T.STRAIGHT: 5, _T.PAIR_STRAIGHT: 3, _T.AIRPLANE: 2, _T.AIRPLANE_SINGLES: 2,
             _T.AIRPLANE_PAIRS: 2}
#: kickers per unit of body: (how many per chain rank, or fixed, cards per kicker)
#  -> number of kicker *units* = per_rank * length; each unit has ``size`` cards.
KICKER_UNITS = {
    _T.TRIO_SINGLE: (1, 1), _T.TRIO_PAIR: (1, 2), _T.AIRPLANE_SINGLES: (1, 1),
    _T.AIRPLANE_PAIRS: (1, 2), _T.FOUR_TWO_SINGLES: (2, 1), _T.FOUR_TWO_PAIRS: (2, 2),
}

#: the most cards of a play: the largest hand of any rule set (33, RULES.md §7)
MAX_PLAY_CARDS = 33
#: the most copies of a rank (two decks) and of a joker
_MAX_COPIES = 8
_MAX_JOKERS = 2
#: bomb sizes (RULES.md §2, §7) and rocket widths (BR, BBRR) a structure may have
_BOMB_WIDTHS = range(4, 9)
_ROCKET_WIDTHS = range(1, 3)

CODE_KICKER_BITS = 3
CODE_RANK_SHIFT = 45
CODE_LENGTH_SHIFT = 49
CODE_WIDTH_SHIFT = 53
CODE_TYPE_SHIFT = 57
_CODE_BITS = 62


class Play:
    """One play: frozen, slotted, hashable; the pass is falsy.

    :param type: a :class:`PlayType`.
    :param rank: main rank 0..14: the rank of a single/pair/trio/bomb, the trio's or the
        four's rank, the *highest* rank of a chain; 14 for the rocket; 0 for the pass.
    :param length: chain length (distinct body ranks) for chains, 1 otherwise, 0 for the pass.
    :param kickers: kicker ranks, one entry per card (a pair kicker of 8s is ``(5, 5)``);
        stored sorted ascending.
    :param width: copies of each body rank; ``None`` (default) for the type's usual width
        (:data:`BODY_WIDTH`). Only a BOMB (4..8 cards, RULES.md §7) and a ROCKET (1: ``BR``,
        2: ``BBRR``) have a choice.
    :raises InvalidPlayError: a structure no play of any rule set can have (wrong kicker
        count, chain out of 3..A, a kicker of a body rank, pair kickers that are not pairs
        of different ranks, more than two decks' copies, ...). Whether the structure is a
        play under a given rule set is checked by :func:`ddz.classify`, not here.

    Attributes ``counts`` (15-tuple of all cards), ``body_counts``, ``kicker_counts``,
    ``num_cards`` and ``code`` (see the module docstring) are derived.
    ``str(play)`` is the canonical notation (``333444+56``, ``BR``, ``pass``) and
    ``Play.parse(str(play), rules) == play`` under every rule set the play belongs to.
    ``repr(play)`` evaluates back with no context: ``Play.parse('333444+56')`` for a play of
    the default rules, the constructor form otherwise. Plays sort in move order: type,
    chain length, width, main rank, then kickers (as ascending rank tuples).
    """

    __slots__ = ("type", "rank", "length", "kickers", "width", "counts", "code", "_hash")
    type: PlayType
    rank: Rank
    length: int
    kickers: Tuple[Rank, ...]
    width: int
    counts: Tuple[int, ...]
    code: int

    def __init__(self, type: PlayType, rank: Rank = 0, length: int = 1,
                 kickers: Iterable[Rank] = (), width: Optional[int] = None) -> None:
        try:
            t = PlayType(type)
        except ValueError:
            raise InvalidPlayError(f"unknown play type {quote(type)}") from None
        try:
            kick = tuple(sorted(_integer(k, "kicker rank") for k in kickers))
        except TypeError:
            raise InvalidPlayError(f"kickers must be an iterable of ranks, got {quote(kickers)}") from None
        rank, length = _integer(rank, "main rank"), _integer(length, "chain length")
        w = BODY_WIDTH[t] if width is None else _integer(width, "width")
        counts = _structure(t, rank, length, kick, w)
        code = (int(t) << CODE_TYPE_SHIFT) | (w << CODE_WIDTH_SHIFT) | (length << CODE_LENGTH_SHIFT) \
            | (rank << CODE_RANK_SHIFT)
        for k in kick:
            code += 1 << (CODE_KICKER_BITS * k)
        _fill(self, t, rank, length, kick, w, counts, code)

    # -- value semantics --
    def __setattr__(self, name, value):
        raise AttributeError(f"Play is immutable (cannot set {name!r})")

    def __delattr__(self, name):
        raise AttributeError(f"Play is immutable (cannot delete {name!r})")

    def __reduce__(self):
        return (Play, (int(self.type), self.rank, self.length, self.kickers, self.width))

    def __eq__(self, other):
        if not isinstance(other, Play):
            return NotImplemented
        return self.code == other.code

    def __hash__(self):
        return self._hash

    def __bool__(self):
        return self.type is not PlayType.PASS

    @property
    def sort_key(self):
        """``(type, length, width, rank, kickers)``: the documented move order."""
        return (int(self.type), self.length, self.width, self.rank, self.kickers)

    def __lt__(self, other):
        if not isinstance(other, Play):
            return NotImplemented
        return self.sort_key < other.sort_key

    def __le__(self, other):
        if not isinstance(other, Play):
            return NotImplemented
        return self.sort_key <= other.sort_key

    def __gt__(self, other):
        if not isinstance(other, Play):
            return NotImplemented
        return self.sort_key > other.sort_key

    def __ge__(self, other):
        if not isinstance(other, Play):
            return NotImplemented
        return self.sort_key >= other.sort_key

    # -- derived views --
    @property
    def body_ranks(self) -> Tuple[Rank, ...]:
        """The distinct ranks of the main part, ascending."""
        if self.type is PlayType.PASS:
            return ()
        if self.type is PlayType.ROCKET:
            return (SMALL_JOKER, BIG_JOKER)
        return tuple(range(self.rank - self.length + 1, self.rank + 1))

    @property
    def body_counts(self) -> Tuple[int, ...]:
        """15-tuple: cards of the main part per rank."""
        c = [0] * NUM_RANKS
        for r in self.body_ranks:
            c[r] = self.width
        return tuple(c)

    @property
    def kicker_counts(self) -> Tuple[int, ...]:
        """15-tuple: kicker cards per rank."""
        c = [0] * NUM_RANKS
        for r in self.kickers:
            c[r] += 1
        return tuple(c)

    @property
    def num_cards(self) -> int:
        """How many cards the play uses (0 for the pass)."""
        return sum(self.counts)

    @classmethod
    def from_code(cls, code: int) -> "Play":
        """The play of a compact code (``Play.from_code(p.code) == p``).

        :param code: an ``int`` or numpy integer (see the module docstring).
        :raises InvalidPlayError: a code that encodes no play structure.
        """
        code = _integer(code, "play code")
        if code < 0 or code >> _CODE_BITS:
            raise InvalidPlayError(f"play code out of range: {code!r}")
        t = (code >> CODE_TYPE_SHIFT) & 31
        if t > PlayType.ROCKET:
            raise InvalidPlayError(f"play code {code!r} has an unknown play type {t}")
        kick = []
        for r in range(NUM_RANKS):
            kick.extend([r] * ((code >> (CODE_KICKER_BITS * r)) & 7))
        width = (code >> CODE_WIDTH_SHIFT) & 15
        if t == PlayType.PASS and code:
            raise InvalidPlayError(f"play code {code!r} is a pass with parts")
        return cls(PlayType(t), (code >> CODE_RANK_SHIFT) & 15, (code >> CODE_LENGTH_SHIFT) & 15, kick,
                   None if t == PlayType.PASS else width)

    # -- notation --
    def __str__(self) -> str:
        if self.type is PlayType.PASS:
            return "pass"
        body = "".join(RANK_CHARS[r] * self.width for r in self.body_ranks)
        if self.kickers:
            return body + "+" + "".join(RANK_CHARS[r] for r in self.kickers)
        return body

    def __repr__(self) -> str:
        if self._standard():
            return f"Play.parse({str(self)!r})"
        args = [f"PlayType.{self.type.name}", str(self.rank), str(self.length)]
        if self.kickers:
            args.append(repr(self.kickers))
        if self.width != BODY_WIDTH[self.type]:
            args.append(f"width={self.width}")
        return f"Play({', '.join(args)})"

    def _standard(self) -> bool:
        """Is this a play of the default rules (one deck, ``kickers="distinct"``, RULES.md
        §2.1), so that ``Play.parse(str(self))`` gives it back? Decided from the structure
        alone, for ``repr``."""
        t = self.type
        if self.width != BODY_WIDTH[t] or sum(self.counts) > 20:
            return False
        if t is PlayType.PAIR and self.rank > R2:
            return False
        kick = self.kickers
        if KICKER_UNITS.get(t, (0, 1))[1] == 2:
            return not kick or kick[-1] <= R2
        return len(set(kick)) == len(kick) and not (SMALL_JOKER in kick and BIG_JOKER in kick)

    @classmethod
    def parse(cls, text: str, rules=None) -> "Play":
        """Parse a play: ``pass``, plain cards (``33344456``) or body ``+`` kickers
        (``333444+56``). With ``+``, the part before the first ``+`` must be exactly the
        play's main part. Classification is done by the active engine (the one
        :mod:`ddz.core` chose: the core, or the reference under ``DDZ_NO_EXTENSIONS=1``);
        :func:`ddz.core.reference.parse_play` parses with the reference alone.

        :param text: the notation (RULES.md §1 spellings accepted).
        :param rules: a :class:`ddz.Rules` (default ``ddz.STANDARD``); decides kickers.
        :raises NotationError: not card notation, or empty.
        :raises ImpossibleHandError: more copies of a rank than the deck holds.
        :raises InvalidPlayError: the cards form no play, or ``+`` splits them elsewhere.
        :raises AmbiguousPlayError: the cards form several plays (RULES.md §2.5) and the
            notation does not say which: plain cards name the reading without kickers if
            there is one, and ``body+kickers`` names the reading of that main part.
        """
        if rules is None:
            rules = STANDARD
        try:
            memo = _BY_NOTATION.get(rules)
        except TypeError:                         # unhashable: certainly not a Rules
            memo = None
        if memo is not None:
            hit = memo.get(text) if type(text) is str else None
            if hit is not None:                  # text read before: one dict lookup
                return hit
        elif not isinstance(rules, Rules):
            raise DdzError(f"rules must be a ddz.Rules, not {type(rules).__name__}: {quote(rules)}")
        elif _ENGINE_MEMO is not None:
            _BY_NOTATION[rules] = _ENGINE_MEMO(rules)
        if _ENGINE_PARSE is not None and type(text) is str:
            hit = _ENGINE_PARSE(text, rules)     # read quickly (and remembered there)
            if hit is not None:
                return hit
        if _ENGINE_READINGS is None:  # pragma: no cover - ddz/__init__ imports the chooser
            raise InvalidPlayError("no rules engine is registered: import ddz first")
        return parse_with(text, rules, _ENGINE_READINGS)


#: ``readings(counts, rules) -> list of Play`` of the active engine, registered by the
#: chooser (:mod:`ddz.core`); play.py imports no engine (DESIGN.md, "Decisions").
_ENGINE_READINGS: Optional[Callable] = None
#: ``parse(text, rules) -> Play or None``: the engine's quick reader of notation (``None``
#: sends the text to :func:`parse_with`, which parses it or words the error)
_ENGINE_PARSE: Optional[Callable] = None
#: ``memo(rules) -> {text: Play}``: the texts that reader has read under a rule set
_ENGINE_MEMO: Optional[Callable] = None
#: rules -> the engine's {text: Play} of that rule set (the dict lives on the rule set's
#: table, filled by the engine's reader; this is only the way to it without a call)
_BY_NOTATION: dict = {}


def register_engine(readings: Callable, parse: Optional[Callable] = None,
                    memo: Optional[Callable] = None) -> None:
    """Set the classifier that :meth:`Play.parse` uses: ``readings(counts, rules)`` with
    ``counts`` a validated 15-tuple, returning every reading as a list of Play; optionally
    ``parse(text, rules)``, the play that ``text`` names or ``None`` when the text needs
    :func:`parse_with` (then notation is read without Python parsing), and ``memo(rules)``,
    the dict of texts that ``parse`` has read (then a text read before is one lookup).
    Called once by :mod:`ddz.core`."""
    global _ENGINE_READINGS, _ENGINE_PARSE, _ENGINE_MEMO
    _ENGINE_READINGS, _ENGINE_PARSE, _ENGINE_MEMO = readings, parse, memo
    _BY_NOTATION.clear()


def engine_readings(cards, rules: Rules) -> List[Play]:
    """:func:`ddz.readings` of the registered engine (the chooser's: :mod:`ddz.core`), for
    the modules that sit below the chooser (:mod:`ddz.game.action_words`): the same
    readings and the same errors.

    :raises NotationError, HandError, ImpossibleHandError: bad ``cards``.
    """
    return _ENGINE_READINGS(tuple(to_counts(cards, decks=rules.decks, what="cards").tolist()), rules)


def the_reading(found, counts: Tuple[int, ...], rules, readings: Optional[Callable] = None) -> Play:
    """The one reading in ``found`` (what ``classify`` returns).

    :param readings: the engine's classifier; when given and the cards form no play, it
        tells whether they would form one of a banned type (the message then says so).
    :raises InvalidPlayError: no reading (the cards form no play).
    :raises AmbiguousPlayError: more than one (RULES.md §2.5), listing them.
    """
    if len(found) == 1:
        return found[0]

    if not found:
        if readings is not None and rules.forbidden:
            hidden = readings(counts, rules.universe_rules)
            if hidden:
                raise InvalidPlayError(
                    f"{str(hidden[0])!r} is a play of the banned type {hidden[0].type.name} under {rules!r}")
        raise InvalidPlayError(f"{format_cards(counts)!r} is not a play under {rules!r}")
    raise AmbiguousPlayError(
        f"{format_cards(counts)!r} has {len(found)} readings under {rules!r}: "
        f"{', '.join(f'{str(p)!r} ({p.type.name})' for p in found)}; write one with '+' "
        "between the main part and the kickers (or pass the Play)", found)


#: the spellings of the pass in play notation (RULES.md §1), lower case
PASS_WORDS = frozenset(("pass", "p", "-", "不出", "过"))


def needs_play_grammar(text: str) -> bool:
    """Whether card notation ``text`` must be read as play notation by :func:`classify`
    (``+`` splits it, it names the pass, or it holds no card character at all): then
    classify answers exactly what :meth:`Play.parse` answers, the pass or an error, and
    never reads ``''`` as the pass or ignores a ``+`` with nothing after it."""
    t = text.strip()
    return "+" in t or not t or t.lower() in PASS_WORDS


def parse_with(text: str, rules, readings: Callable) -> Play:
    """:meth:`Play.parse` with a given classifier (each engine parses with its own).

    :param readings: ``readings(counts, rules) -> list of Play`` for a validated
        15-tuple of counts.
    :raises NotationError, ImpossibleHandError, InvalidPlayError: as :meth:`Play.parse`.
    """

    if not isinstance(text, str):
        raise NotationError(f"play notation must be a str, not {type(text).__name__}: {quote(text)}")
    t = text.strip()
    if t.lower() in PASS_WORDS:
        return PASS
    if not t:
        raise NotationError("empty play notation (write 'pass' for the pass)")
    counts = tuple(parse_cards(t, decks=rules.decks).tolist())
    if not any(counts):
        raise NotationError(f"no cards in play notation {quote(text)} (write 'pass' for the pass)")
    found = readings(counts, rules)
    if "+" not in t:
        if len(found) > 1:       # RULES.md §2.5: plain cards name the reading without kickers
            plain = [p for p in found if not p.kickers]
            if len(plain) == 1:
                return plain[0]
        return the_reading(found, counts, rules, readings)
    body_txt, kick_txt = t.split("+", 1)
    if not parse_cards(kick_txt, decks=rules.decks).any():
        raise NotationError(f"no kickers after '+' in {quote(text)}")
    body = tuple(parse_cards(body_txt, decks=rules.decks).tolist())
    picked = [p for p in found if p.body_counts == body]
    if len(picked) == 1:
        return picked[0]
    if len(found) < 2:
        play = the_reading(found, counts, rules, readings)      # no play at all: its error
        raise InvalidPlayError(
            f"{quote(text)} splits its cards differently from the play they form, {str(play)!r}")
    raise InvalidPlayError(f"{quote(text)} splits its cards differently from every play they form: "
                           f"{', '.join(repr(str(p)) for p in found)}")


def _fill(p: Play, t: PlayType, rank: int, length: int, kick: Tuple[int, ...], width: int,
          counts: Tuple[int, ...], code: int) -> None:
    """Set the slots of a new (frozen) Play."""
    s = object.__setattr__
    s(p, "type", t)
    s(p, "rank", rank)
    s(p, "length", length)
    s(p, "kickers", kick)
    s(p, "width", width)
    s(p, "counts", counts)
    s(p, "code", code)
    s(p, "_hash", hash(code))


def _integer(value, what: str) -> int:
    """``value`` as an int: Python and numpy integers only (not bools, floats or strings)."""
    if is_integer(value):
        return int(value)
    raise InvalidPlayError(f"{what} must be an integer, not {type(value).__name__}: {quote(value)}")


def _bad(t, rank, length, kick, why):
    return InvalidPlayError(
        f"no {t.name} has main rank {rank!r}, length {length!r} and kickers {kick!r}: {why}")


def _structure(t: PlayType, rank: int, length: int, kick: Tuple[int, ...], w: int) -> Tuple[int, ...]:
    """Check the shape of a play (what holds in every rule set) and return its 15 counts."""
    if any(not 0 <= k < NUM_RANKS for k in kick):
        raise _bad(t, rank, length, kick, "kicker rank out of 0..14")
    counts = [0] * NUM_RANKS
    if t is PlayType.PASS:
        if rank or length or kick or w:
            raise _bad(t, rank, length, kick, "the pass is Play(PlayType.PASS, 0, 0)")
        return tuple(counts)
    if t is PlayType.ROCKET:
        if rank != BIG_JOKER or length != 1 or kick or w not in _ROCKET_WIDTHS:
            raise _bad(t, rank, length, kick, "the rocket is Play(PlayType.ROCKET, 14, 1) (width 1: BR, 2: BBRR)")
        counts[SMALL_JOKER] = counts[BIG_JOKER] = w
        return tuple(counts)
    if t is PlayType.BOMB:
        if w not in _BOMB_WIDTHS:
            raise _bad(t, rank, length, kick, f"a bomb has 4 to 8 cards, not width {w!r}")
    elif w != BODY_WIDTH[t]:
        raise _bad(t, rank, length, kick, f"a {t.name} has width {BODY_WIDTH[t]}, not {w!r}")
    if t.is_chain:
        if length < MIN_CHAIN[t] or rank >= CHAIN_RANKS or rank - length + 1 < 0:
            raise _bad(t, rank, length, kick, f"chains need {MIN_CHAIN[t]}+ ranks within 3..A")
    else:
        if length != 1:
            raise _bad(t, rank, length, kick, "non-chains have length 1")
        # a single or a pair may be a joker (a joker pair with two decks); trios and more
        # never are (a deck pair holds two of each joker)
        top = BIG_JOKER if t in (PlayType.SINGLE, PlayType.PAIR) else R2
        if not 0 <= rank <= top:
            raise _bad(t, rank, length, kick, "rank out of range")
    for r in range(rank - length + 1, rank + 1):
        counts[r] = w
    per, size = KICKER_UNITS.get(t, (0, 0))
    if length * (w + per * size) > MAX_PLAY_CARDS:
        raise _bad(t, rank, length, kick, f"no hand holds more than {MAX_PLAY_CARDS} cards")
    if not per:
        if kick:
            raise _bad(t, rank, length, kick, "this type has no kickers")
        return tuple(counts)
    if len(kick) != per * length * size:
        raise _bad(t, rank, length, kick, f"needs {per * length} kicker(s) of {size} card(s)")
    # RULES.md §2.1 rules 1 and 5, which hold under every rule set
    lo = rank - length + 1
    if any(lo <= k <= rank for k in kick):
        raise _bad(t, rank, length, kick, "a kicker never has the rank of the main part (§2.1 rule 1)")
    if size == 2:
        pairs = kick[::2]
        if pairs != kick[1::2] or len(set(pairs)) != len(pairs):
            raise _bad(t, rank, length, kick, "pair kickers must be pairs of different ranks (§2.1 rule 5)")
    for k in kick:
        counts[k] += 1
    for k in set(kick):
        if counts[k] > (_MAX_JOKERS if k >= SMALL_JOKER else _MAX_COPIES):
            raise _bad(t, rank, length, kick, "more copies of a rank than two decks hold")
        if counts[k] > 7:
            raise _bad(t, rank, length, kick, "more than 7 kicker cards of one rank")
    return tuple(counts)


PASS = Play(PlayType.PASS, 0, 0)
"""The pass (falsy)."""


# -- a play given at a public boundary, checked (every engine, with its own classifier) --

PlayLike = Union[Play, str]
Readings = Callable[[Tuple[int, ...], Rules], List[Play]]


def play_arg(play: PlayLike, rules: Rules, readings: Readings, what: str = "play",
             lookup: Optional[Callable] = None) -> Play:
    """A :class:`Play` that is a play under ``rules`` (the pass included).

    :param readings: the asking engine's classifier, ``readings(counts, rules)`` (each
        engine validates with its own: the reference never reaches the core).
    :param lookup: optionally the engine's ``lookup(text, rules)`` of canonical notation
        (a dict hit; ``None`` when ``text`` is not canonical).
    :raises InvalidPlayError: a ``Play`` that is not a play under ``rules`` (its kickers,
        a banned type...), or notation that forms no play.
    :raises NotationError: bad notation.
    """
    if isinstance(play, Play):
        if play.type is not PlayType.PASS and play not in readings(play.counts, rules):
            if play.type in rules.excluded:
                raise InvalidPlayError(f"{what} {str(play)!r} is a play of the banned type {play.type.name} under {rules!r}")
            raise InvalidPlayError(f"{what} {str(play)!r} is not a play under {rules!r}")
        return play
    if isinstance(play, str):
        if lookup is not None:
            hit = lookup(play, rules)
            if hit is not None:
                return hit
        try:
            return parse_with(play, rules, readings)
        except InvalidPlayError as exc:
            raise InvalidPlayError(f"{what} {quote(play)} is not a play: {exc}") from None
    raise InvalidPlayError(f"{what} must be a ddz.Play or play notation, not {type(play).__name__}: {quote(play)}")


def to_beat_arg(to_beat: Optional[PlayLike], rules: Rules, hand: Tuple[int, ...],
                readings: Readings, lookup: Optional[Callable] = None) -> Optional[Play]:
    """The play to beat, or ``None`` when leading (``readings`` as in :func:`play_arg`).

    :raises InvalidPlayError: not a play, or the pass (pass ``None`` to lead).
    :raises ImpossibleHandError: the hand and the play to beat together hold more copies
        of a rank than the deck.
    """
    if to_beat is None:
        return None
    play = play_arg(to_beat, rules, readings, "the play to beat", lookup)
    if not play:
        raise InvalidPlayError(
            "the play to beat is the pass; give the last non-pass play of the trick, or no play to beat (None) to lead")
    together(hand, play.counts, rules, lambda: f"hand {format_cards(hand)!r}",
             lambda: f"the play to beat {str(play)!r}")
    return play
