"""A perfect-information play-phase position: what the endgame solver solves (issue 12).

A :class:`Position` holds every seat's hand (two seats for the two-player endgame
puzzle, three for the real game: the landlord against two farmers who are one side),
the landlord's seat, the seat to move, the play to beat and who made it, the rule set,
and what the score still depends on (RULES.md §6): the base, the multiplier so far, how
many plays the landlord has made and whether a farmer has played (spring and
anti-spring).

Text form (:meth:`Position.parse`, ``str``)::

    RAQQJJT999844/B22AAT886633                       # two seats, seat 0 (landlord) leads
    KK5543/225543/3 landlord=1 to_move=2 to_beat=33 last=1 base=3 multiplier=2
    landlord_plays=1 farmers_played=1 kickers=repeat banned=TRIO_PAIR,BOMB

The hands in seat order separated by ``/`` (``-`` for an empty hand), then ``key=value``
fields, each only when not at its default. A hand may be empty only in a position that
is over (someone has just played out); :attr:`Position.over` says so.
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence, Tuple

from .. import core as moves
from ..core.arguments import hand_arg
from ..core.cards import NUM_RANKS, RANK_NAMES, format_cards, is_integer
from ..errors import DdzError, IllegalActionError, ImpossibleHandError, InvalidPlayError, quote
from ..core.play import Play, PlayType, play_arg
from ..core.rules import STANDARD, Rules

__all__ = ["Position"]

Counts = Tuple[int, ...]
_DECK = (4,) * 13 + (1, 1)


def _int_field(value, what: str, low: int, high: Optional[int] = None) -> int:
    if not is_integer(value) or isinstance(value, bool) or value < low or (high is not None and value > high):
        bound = f">= {low}" if high is None else f"{low}..{high}"
        raise DdzError(f"{what} must be an integer {bound}, got {quote(value)}")
    return int(value)


MAX_LANDLORD_PLAYS = 20
"""The most plays a landlord can have made: one card at least each, from at most 20."""


def _seat_field(value, what: str, seats: int, allow_none: bool = False) -> Optional[int]:
    if value is None and allow_none:
        return None
    if not is_integer(value) or isinstance(value, bool) or not 0 <= value < seats:
        raise DdzError(f"{what} must be a seat 0..{seats - 1}, got {quote(value)}")
    return int(value)


class Position:
    """A play-phase position with every hand known (perfect information).

    :param hands: two or three hands in seat order, each card notation or 15 counts
        (one deck; RULES.md §1).
    :param landlord: the landlord's seat (default 0). With two seats the other seat is
        "the farmers".
    :param to_move: the seat to move (default: the landlord).
    :param to_beat: the play to beat (a :class:`ddz.Play` or notation), ``None`` when
        leading; requires ``last_player``.
    :param last_player: the seat that made ``to_beat`` (not ``to_move``); ``None`` when
        leading.
    :param rules: the :class:`ddz.Rules` (kickers, banned play types); stored as its
        ``move_rules``.
    :param base: the base score (the winning bid), an int >= 1.
    :param multiplier: the multiplier so far (RULES.md §6), an int >= 1.
    :param landlord_plays: plays (not passes) the landlord has made so far, 0 to
        :data:`MAX_LANDLORD_PLAYS` (20: each takes a card of at most 20).
    :param farmers_played: whether a farmer has made a play (not a pass).
    :raises HandError, NotationError, ImpossibleHandError: a bad hand, cards beyond the
        deck (all hands and the play to beat together), more than 20 cards in a hand.
    :raises InvalidPlayError: ``to_beat`` is not a play under ``rules`` (or the pass).
    :raises DdzError: not two or three hands, a seat out of range, ``to_beat`` without
        ``last_player`` or the reverse, ``last_player == to_move``, more than one empty
        hand, a bad base, multiplier or count.

    Immutable and hashable; ``==`` compares every field.

    :ivar over: ``True`` when a seat has played out (RULES.md §5: the hand has ended).
    """

    __slots__ = ("hands", "landlord", "to_move", "to_beat", "last_player", "rules", "base",
                 "multiplier", "landlord_plays", "farmers_played", "_key", "over")

    def __init__(self, hands: Sequence, *, landlord: int = 0, to_move: Optional[int] = None,
                 to_beat=None, last_player: Optional[int] = None, rules: Rules = STANDARD,
                 base: int = 1, multiplier: int = 1, landlord_plays: int = 0,
                 farmers_played: bool = False) -> None:
        if not isinstance(rules, Rules):
            raise DdzError(f"rules must be a ddz.Rules, not {type(rules).__name__}: {quote(rules)}")
        if rules.decks != 1:  # pragma: no cover - the four-player game is not implemented
            raise DdzError("the solver plays the one-deck game only")
        rules = rules.move_rules
        if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__"):
            raise DdzError(f"hands must be a list of two or three hands, not {quote(hands)}")
        if len(hands) not in (2, 3):
            raise DdzError(f"a position has two or three hands (one per seat), got {len(hands)}")
        seats = len(hands)
        hs = tuple(hand_arg(h, rules, f"hand of seat {i}") for i, h in enumerate(hands))
        landlord = _seat_field(landlord, "landlord", seats)
        to_move = landlord if to_move is None else _seat_field(to_move, "to_move", seats)
        last_player = _seat_field(last_player, "last_player", seats, allow_none=True)
        if to_beat is not None:
            to_beat = play_arg(to_beat, rules, moves.trusted_readings, "the play to beat")
            if not to_beat:
                raise InvalidPlayError("the play to beat is the pass; give the last non-pass play "
                                       "of the trick, or to_beat=None when leading")
            if last_player is None:
                raise DdzError("to_beat needs last_player: the seat that made the play to beat")
            if last_player == to_move:
                raise DdzError(f"last_player {last_player} is the seat to move: its play stood, so "
                               "the trick is over and it leads (to_beat=None)")
        elif last_player is not None:
            raise DdzError("last_player is given without to_beat; both are None when leading")
        total = [sum(h[r] for h in hs) + (to_beat.counts[r] if to_beat else 0) for r in range(NUM_RANKS)]
        for r in range(NUM_RANKS):
            if total[r] > _DECK[r]:
                raise ImpossibleHandError(
                    f"the hands{' and the play to beat' if to_beat else ''} hold {total[r]} copies of "
                    f"{RANK_NAMES[r]!r}; the deck holds {_DECK[r]}")
        empty = [i for i, h in enumerate(hs) if not any(h)]
        if len(empty) > 1:
            raise DdzError(f"seats {empty} have no cards; the hand ends when one player plays out")
        base = _int_field(base, "base", 1)
        multiplier = _int_field(multiplier, "multiplier", 1)
        landlord_plays = _int_field(landlord_plays, "landlord_plays", 0, MAX_LANDLORD_PLAYS)
        if not isinstance(farmers_played, bool):
            raise DdzError(f"farmers_played must be True or False, got {quote(farmers_played)}")
        set_ = object.__setattr__
        set_(self, "hands", hs)
        set_(self, "landlord", landlord)
        set_(self, "to_move", to_move)
        set_(self, "to_beat", to_beat)
        set_(self, "last_player", last_player)
        set_(self, "rules", rules)
        set_(self, "base", base)
        set_(self, "multiplier", multiplier)
        set_(self, "landlord_plays", landlord_plays)
        set_(self, "farmers_played", farmers_played)
        set_(self, "over", bool(empty))
        set_(self, "_key", (hs, landlord, to_move, to_beat, last_player, rules, base, multiplier,
                            landlord_plays, farmers_played))

    def __setattr__(self, name, value):
        raise AttributeError("a Position is immutable")

    def __eq__(self, other):
        if not isinstance(other, Position):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __reduce__(self):
        return (_rebuild, (self.hands, self.landlord, self.to_move, self.to_beat, self.last_player,
                           self.rules, self.base, self.multiplier, self.landlord_plays,
                           self.farmers_played))

    # -- derived ---------------------------------------------------------------------
    @property
    def seats(self) -> int:
        """Number of seats: 2 or 3."""
        return len(self.hands)

    @property
    def cards_left(self) -> Tuple[int, ...]:
        """Cards per seat."""
        return tuple(sum(h) for h in self.hands)

    @property
    def winner(self) -> Optional[int]:
        """The seat that played out, or ``None`` while the hand goes on."""
        for i, h in enumerate(self.hands):
            if not any(h):
                return i
        return None

    @property
    def landlord_wins(self) -> Optional[bool]:
        """Once :attr:`over`: whether the landlord won; ``None`` before."""
        w = self.winner
        return None if w is None else w == self.landlord

    def is_landlord_side(self, seat: int) -> bool:
        """Whether ``seat`` plays for the landlord (it is the landlord).

        :raises DdzError: ``seat`` is not a seat of the position."""
        if not is_integer(seat) or not 0 <= seat < len(self.hands):
            raise DdzError(f"a seat of this position is an int 0..{len(self.hands) - 1}, got {quote(seat)}")
        return seat == self.landlord

    def after(self, play) -> "Position":
        """The position after the seat to move plays ``play`` (RULES.md §5): a pass ends
        the trick when everyone else has passed (one pass with two seats, two with
        three); a play that empties the hand ends it (:attr:`over`). Plays of bombs and
        rockets double :attr:`multiplier`; :attr:`landlord_plays` (at most
        :data:`MAX_LANDLORD_PLAYS`: only 0, 1 and more decide a score) and
        :attr:`farmers_played` follow.

        :param play: a :class:`ddz.Play` or notation, legal here.
        :returns: a new :class:`Position`.
        :raises DdzError: the position is over.
        :raises IllegalActionError: ``play`` is not legal here (not in the hand, does not
            beat the play to beat, or the pass when leading).
        """
        if self.over:
            raise DdzError("the position is over: nobody moves")
        p = self.to_move
        if not isinstance(play, Play):
            play = play_arg(play, self.rules, moves.trusted_readings, "the move")
        hand = self.hands[p]
        if not play:
            if self.to_beat is None:
                raise IllegalActionError("the pass is not legal when leading")
            nxt = (p + 1) % self.seats
            if nxt == self.last_player:
                return self._with(to_move=nxt, to_beat=None, last_player=None)
            return self._with(to_move=nxt)
        counts = play.counts
        if any(c > h for c, h in zip(counts, hand)) or (
                self.to_beat is not None and not moves.beats(play, self.to_beat, self.rules)):
            raise IllegalActionError(f"{str(play)!r} is not a legal move of seat {p} here")
        hands = list(self.hands)
        hands[p] = tuple(h - c for h, c in zip(hand, counts))
        mult = self.multiplier * (2 if play.type in (PlayType.BOMB, PlayType.ROCKET) else 1)
        lp = min(MAX_LANDLORD_PLAYS, self.landlord_plays + (p == self.landlord))
        fp = self.farmers_played or p != self.landlord
        return Position(hands, landlord=self.landlord, to_move=(p + 1) % self.seats, to_beat=play,
                        last_player=p, rules=self.rules, base=self.base, multiplier=mult,
                        landlord_plays=lp, farmers_played=fp)

    def _with(self, **changes) -> "Position":
        fields = dict(landlord=self.landlord, to_move=self.to_move, to_beat=self.to_beat,
                      last_player=self.last_player, rules=self.rules, base=self.base,
                      multiplier=self.multiplier, landlord_plays=self.landlord_plays,
                      farmers_played=self.farmers_played)
        fields.update(changes)
        return Position(self.hands, **fields)

    def legal_moves(self) -> list:
        """The legal moves of the seat to move (RULES.md §2.3), in move order; empty when
        :attr:`over`."""
        if self.over:
            return []
        return moves.legal_moves(self.hands[self.to_move], self.to_beat, self.rules)

    def final_score(self) -> Optional[int]:
        """Once :attr:`over`: the signed score S from the landlord's side (RULES.md §6,
        with spring and anti-spring); ``None`` before."""
        w = self.winner
        if w is None:
            return None
        m = self.base * self.multiplier
        if w == self.landlord:
            return 2 * m if not self.farmers_played else m
        return -2 * m if self.landlord_plays == 1 else -m

    # -- text ------------------------------------------------------------------------
    def __str__(self) -> str:
        parts = ["/".join(format_cards(h) or "-" for h in self.hands)]
        if self.landlord != 0:
            parts.append(f"landlord={self.landlord}")
        if self.to_move != self.landlord:
            parts.append(f"to_move={self.to_move}")
        if self.to_beat is not None:
            parts.append(f"to_beat={self.to_beat}")
            parts.append(f"last={self.last_player}")
        for name, default in (("base", 1), ("multiplier", 1), ("landlord_plays", 0)):
            if getattr(self, name) != default:
                parts.append(f"{name}={getattr(self, name)}")
        if self.farmers_played:
            parts.append("farmers_played=1")
        if self.rules.kickers != "distinct":
            parts.append(f"kickers={self.rules.kickers}")
        if self.rules.banned:
            parts.append("banned=" + ",".join(t.name for t in sorted(self.rules.banned)))
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> "Position":
        """The position of the text form (module docstring); ``str`` is its inverse.

        :raises NotationError, HandError, ImpossibleHandError, InvalidPlayError: bad cards.
        :raises DdzError: not a str, an unknown or repeated field, a bad value.
        """
        if not isinstance(text, str):
            raise DdzError(f"a position's text must be a str, not {type(text).__name__}: {quote(text)}")
        words = text.split()
        if not words:
            raise DdzError("an empty position: give the hands as HAND/HAND[/HAND]")
        hands = ["" if h == "-" else h for h in words[0].split("/")]
        kw = {}
        rules = {}
        for w in words[1:]:
            key, eq, value = w.partition("=")
            if not eq or not value:
                raise DdzError(f"position field {quote(w)} is not key=value")
            if key in kw or key in rules:
                raise DdzError(f"position field {key!r} given twice")
            if key in ("landlord", "to_move", "last", "base", "multiplier", "landlord_plays"):
                try:
                    kw["last_player" if key == "last" else key] = int(value)
                except ValueError:
                    raise DdzError(f"position field {key} must be an integer, got {quote(value)}") from None
            elif key == "to_beat":
                kw[key] = value
            elif key == "farmers_played":
                if value not in ("0", "1"):
                    raise DdzError(f"farmers_played must be 0 or 1, got {quote(value)}")
                kw[key] = value == "1"
            elif key == "kickers":
                rules[key] = value
            elif key == "banned":
                rules[key] = [v for v in value.split(",") if v]
            else:
                raise DdzError(f"unknown position field {key!r}; the fields are landlord, to_move, "
                               "to_beat, last, base, multiplier, landlord_plays, farmers_played, "
                               "kickers, banned")
        if "to_beat" in kw:
            kw["to_beat"] = Play.parse(kw["to_beat"], Rules(**rules))
        return cls(hands, rules=Rules(**rules), **kw)

    @classmethod
    def from_game(cls, game) -> "Position":
        """The position of a :class:`ddz.Game` in its play phase, with every hand
        (perfect information): the landlord, the seat to move, the play to beat and its
        seat, the base (the bid), the multiplier so far, and the landlord's and
        farmers' plays from the game's history.

        :raises DdzError: the game is not in its play phase.
        """
        phase = getattr(game, "phase", None)
        if str(phase) != "playing":
            raise DdzError(f"a position is taken in the play phase; the game's phase is {str(phase)!r}")
        lord = game.landlord
        history = list(game.plays)
        last = None
        if game.to_beat is not None:
            for seat, play in reversed(history):
                if play:
                    last = seat
                    break
        lp = sum(1 for seat, play in history if play and seat == lord)
        fp = any(play and seat != lord for seat, play in history)
        return cls([game.hand(s) for s in range(3)], landlord=lord, to_move=game.current_player,
                   to_beat=game.to_beat, last_player=last, rules=game.rules, base=game.bid,
                   multiplier=game.multiplier, landlord_plays=lp, farmers_played=fp)


def _rebuild(hands, landlord, to_move, to_beat, last_player, rules, base, multiplier, lp, fp):
    return Position(hands, landlord=landlord, to_move=to_move, to_beat=to_beat,
                    last_player=last_player, rules=rules, base=base, multiplier=multiplier,
                    landlord_plays=lp, farmers_played=fp)
