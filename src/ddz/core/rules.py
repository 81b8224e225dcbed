"""Rule options (RULES.md) and the names of the play types.

Every difference between rule sets is a field of :class:`Rules`. Which fields decide
the plays and the legal moves is declared once, on the fields themselves (dataclass
``metadata={"decides": ...}``); :attr:`Rules.move_rules`, :attr:`Rules.universe_rules`,
records (:meth:`Rules.to_json`) and the command line derive from that declaration, and
:attr:`Rules.move_options` is the one place where the engines' option record is derived
from the fields (the core copies it into one C struct). ``docs/DESIGN.md`` lists the
steps for adding an option.

:class:`PlayType` lives here, not in :mod:`ddz.core.play`, because rule options speak about
play types (``Rules.banned``); :mod:`ddz.core.play` re-exports it.
"""

from __future__ import annotations

import enum
import functools
import operator
import threading
from dataclasses import dataclass, field, fields
from typing import Any, Dict, FrozenSet, Iterable, Literal, Mapping, NamedTuple, Tuple

from ..errors import DdzError, quote

__all__ = ["Rules", "PlayType", "MoveOptions", "STANDARD", "REPEAT_KICKERS"]


class PlayType(enum.IntEnum):
    """The play types of RULES.md §2, in the table's order (also the move order)."""
    PASS = 0
    SINGLE = 1
    PAIR = 2
    TRIO = 3
    TRIO_SINGLE = 4
    TRIO_PAIR = 5
    STRAIGHT = 6
    PAIR_STRAIGHT = 7
    AIRPLANE = 8
    AIRPLANE_SINGLES = 9
    AIRPLANE_PAIRS = 10
    FOUR_TWO_SINGLES = 11
    FOUR_TWO_PAIRS = 12
    BOMB = 13
    ROCKET = 14

    @property
    def is_chain(self) -> bool:
        """Straights, pair straights and airplanes (chains of ranks within 3..A)."""
        return PlayType.STRAIGHT <= self <= PlayType.AIRPLANE_PAIRS


_KICKERS = ("distinct", "repeat")
_BIDDING = ("points", "rob")
_PLAYERS = (3, 4)
_DOUBLING_BOMBS = ("all", "beating", "six_plus")
#: play types the four-player game does not have (RULES.md §7: no single kickers, no four-with-two)
FOUR_PLAYER_EXCLUDED = frozenset({PlayType.TRIO_SINGLE, PlayType.AIRPLANE_SINGLES,
                                  PlayType.FOUR_TWO_SINGLES, PlayType.FOUR_TWO_PAIRS})
_ALL_PASS = ("redeal", "void")
_FIRST_BIDDER = ("random", "face_up")
_BID_ROUNDS = ("once", "until_passes")
_WINGS = ("standard", "trios", "any")
_AIRPLANE_RANK = ("chain", "trios")
_BEAT_READING = ("play", "cards")
#: the engine compatibility profiles (RULES.md §2.5): name -> the move options that differ
#: (fixed: the profile's legal moves are the engine's)
PROFILES: Dict[str, Dict[str, Any]] = {
    "rlcard": {"kickers": "repeat"},
    "douzero": {"kickers": "repeat", "wings": "any", "airplane_rank": "trios", "beat_reading": "cards"},
    "openspiel": {"kickers": "repeat", "wings": "trios", "four_with_two": False,
                  "chain_from_four": False, "bomb_on_rocket": True},
}
#: game options a profile defaults to (another value may be passed): OpenSpiel's auction
_PROFILE_DEFAULTS: Dict[str, Dict[str, Any]] = {
    "rlcard": {},
    "douzero": {},
    "openspiel": {"first_bidder": "face_up", "bid_rounds": "until_passes", "all_pass": "void"},
}
#: the play types that ``four_with_two=False`` takes away
FOUR_WITH_TWO = frozenset({PlayType.FOUR_TWO_SINGLES, PlayType.FOUR_TWO_PAIRS})

#: values of the ``decides`` metadata of a field
DECIDES_PLAYS = "plays"        # which plays exist (the universe, and so the action ids)
DECIDES_LEGALITY = "legality"  # which of those plays may be played (ids unchanged)


class MoveOptions(NamedTuple):
    """Everything the engines need to know about a rule set to decide plays and legal
    moves, as plain ints (the core copies it into its C struct ``Opts``).

    :ivar decks: 54-card decks in play (1; 2 for RULES.md §7).
    :ivar max_hand: the most cards one player holds (20 with one deck).
    :ivar kickers_repeat: 1 when single kickers may share a rank (``kickers="repeat"``).
    :ivar allowed: bit ``t`` set when play type ``t`` may be played (the pass always).
    :ivar bomb_min, bomb_max: the sizes a BOMB may have (4..4 with one deck).
    :ivar rocket_width: copies of each joker in the ROCKET (1: ``BR``; 2: ``BBRR``).
    :ivar joker_pairs: 1 when ``BB`` and ``RR`` are pairs (two decks).
    :ivar wing_trios: 1 when a trio of the rank next to an airplane's chain may be among
        its single kickers (``wings`` ``"trios"`` or ``"any"``).
    :ivar wing_bombs: 1 when single kickers may hold four cards of a rank and both jokers
        (``wings="any"``).
    :ivar airplane_trios: 1 when an AIRPLANE_SINGLES compares by the highest rank it holds
        three times, wing trios included (``airplane_rank="trios"``).
    :ivar beat_cards: 1 when the play to beat is read from its cards as DouZero reads them
        (``beat_reading="cards"``).
    :ivar chain_four: 1 when a STRAIGHT, PAIR_STRAIGHT or AIRPLANE may start at a rank of
        which the hand holds every copy (``chain_from_four``; 0 for OpenSpiel).
    :ivar bomb_on_rocket: 1 when any bomb may be played on the rocket (``bomb_on_rocket``).
    """
    decks: int
    max_hand: int
    kickers_repeat: int
    allowed: int
    bomb_min: int
    bomb_max: int
    rocket_width: int
    joker_pairs: int
    wing_trios: int = 0
    wing_bombs: int = 0
    airplane_trios: int = 0
    beat_cards: int = 0
    chain_four: int = 1
    bomb_on_rocket: int = 0


_ALL_TYPES = (1 << (PlayType.ROCKET + 1)) - 1


def _banned_arg(value: object) -> FrozenSet[PlayType]:
    """``Rules.banned`` as a frozenset of PlayType: PlayType members, their ints or
    their names (``"TRIO_PAIR"``, case-insensitive), in any iterable."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise DdzError(f"Rules.banned must be a set of PlayType (or their names), got {quote(value)}")
    out = set()
    for item in value:
        if isinstance(item, PlayType):
            t = item
        elif isinstance(item, str) and item.upper() in PlayType.__members__:
            t = PlayType[item.upper()]
        elif not isinstance(item, bool) and hasattr(item, "__index__") and 0 <= operator.index(item) <= PlayType.ROCKET:
            t = PlayType(operator.index(item))   # ints and numpy integers
        else:
            raise DdzError(f"Rules.banned: {quote(item)} is not a play type; the types are "
                           f"{', '.join(PlayType.__members__)}")
        if t in (PlayType.PASS, PlayType.SINGLE):
            raise DdzError(f"Rules.banned cannot hold {t.name}: the pass and the single are always "
                           "allowed, so that a player can always lead and always respond")
        out.add(t)
    return frozenset(out)


#: options whose other values speak of single kickers or the four-with-twos, which the
#: four-player game does not have (RULES.md §7): with ``players=4`` they keep these values
_MOOT_WITH_FOUR = (("kickers", "distinct"), ("wings", "standard"), ("four_with_two", True),
                   ("airplane_rank", "chain"), ("beat_reading", "play"))


def _index(value: object) -> Any:
    """``value`` as a Python int if it is an int or a numpy integer (not a bool), else ``None``."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        return None
    try:
        return operator.index(value)
    except TypeError:                 # a numpy array of several values has __index__ too
        return None


@functools.lru_cache(maxsize=None)
def _field_names() -> FrozenSet[str]:
    return frozenset(f.name for f in fields(Rules))


MAX_REDEALS = 1000
"""The most redeals in a row ``Rules.max_redeals`` may allow (RULES.md §3): a bound, so that a
game of players who always pass ends in bounded time."""


@dataclass(frozen=True, eq=False)
class Rules:
    """A rule set, immutable and hashable.

    :param kickers: ``"distinct"`` (**default**, competition rules: the single kickers of
        one play have pairwise different ranks) or ``"repeat"`` (online platforms, RLCard,
        DouZero: single kickers may share a rank). RULES.md §2.1. Decides plays.
    :param banned: play types that may not be played (禁手, as endgame puzzles ban
        e.g. TRIO_PAIR or the four-with-twos): a set of :class:`PlayType` or their names,
        stored as a ``frozenset``; default empty. Banned plays keep their action ids
        (:class:`ddz.ActionSpace`) but are never legal, are not in :func:`ddz.all_plays`
        and are not plays for :func:`ddz.classify`. PASS and SINGLE cannot be banned.
    :param bidding: ``"points"`` (**default**, 叫分: bids of 1, 2 or 3, the base score is
        the winning bid) or ``"rob"`` (叫地主/抢地主: call and rob, each rob doubles, base 1).
        RULES.md §3.
    :param doubling: ``True`` to let the farmers double and the landlord redouble after
        the auction (加倍, RULES.md §4); default ``False``.
    :param bottom_bonus: ``True`` for the bottom-card bonus (底牌翻倍, RULES.md §6): the
        bottom cards multiply the score by 2, 3 or 4; default ``False``.
    :param players: ``3`` (**default**, one deck) or ``4`` (四人斗地主, RULES.md §7: two
        decks, hands up to 33 cards, bombs of 4..8 cards, the rocket ``BBRR``, joker pairs,
        no single kickers and no four-with-two). Decides plays. :meth:`four_player` is the
        preset.
    :param straights: ``True`` (**default**) or ``False``: whether STRAIGHT may be played
        (RULES.md §7 option; any game). Like ``banned``, it decides legality, not ids.
    :param doubling_bombs: which played bombs double the score (RULES.md §6): ``"all"``
        (**default**), ``"beating"`` (有效炸弹: only a BOMB or ROCKET played on another
        play) or ``"six_plus"`` (only the ROCKET and bombs of six or more cards).
    :param all_pass: what happens when everybody passes the auction (RULES.md §3, this
        project's option): ``"redeal"`` (**default**, the rule texts' 荒牌: the cards are
        shuffled and dealt again, up to ``max_redeals`` times in a row) or ``"void"`` (the
        hand ends at once with zero scores, as OpenSpiel does).
    :param max_redeals: with ``all_pass="redeal"``, how many times in a row a hand may be
        redealt (an ``int`` from 0 to :data:`MAX_REDEALS` = 1,000, default 10): when
        everybody passes once more, the hand ends void with zero scores and a stated reason
        (:attr:`ddz.Result.void`), so a game of players who always pass still ends. Ignored with ``all_pass="void"``.
    :param first_bidder: who bids first (RULES.md §3): ``"random"`` (**default**, drawn
        from the seed) or ``"face_up"`` (a dealt card is turned face up; whoever holds it
        bids first, and everyone sees it).
    :param bid_rounds: ``"once"`` (**default**: each player speaks once) or
        ``"until_passes"`` (bidding goes round until two players in a row pass after a bid,
        or someone bids 3; RULES.md §3). Only with ``bidding="points"`` and three players.
    :param wings: what the single kickers of a play may hold beyond RULES.md §2.1 (§2.5,
        the engine profiles' option; needs ``kickers="repeat"`` unless ``"standard"``):
        ``"standard"`` (**default**), ``"trios"`` (OpenSpiel: a trio of the rank next to an
        airplane's chain may be a wing, so ``333444555666`` also reads as ``333444555+666``
        and ``444555666+333``) or ``"any"`` (DouZero: also four cards of one rank and both
        jokers, in airplanes' wings and four-with-two kickers: ``4444+BR``,
        ``333444555666+7777``). Decides plays.
    :param four_with_two: ``True`` (**default**) or ``False`` (OpenSpiel): whether
        FOUR_TWO_SINGLES and FOUR_TWO_PAIRS exist at all (RULES.md §2.5). Decides plays.
    :param airplane_rank: how an AIRPLANE_SINGLES compares with another (RULES.md §2.5):
        ``"chain"`` (**default**, §2.2: the chain's highest rank) or ``"trios"``
        (DouZero: the highest rank the play holds three times, wing trios included, so
        ``333444555+KKK`` beats ``444555666+789``). Decides legality.
    :param beat_reading: how a play to beat is read (RULES.md §2.5): ``"play"``
        (**default**: as the play it was) or ``"cards"`` (DouZero: as DouZero's move
        detector reads its cards, so ``333444555+666`` is answered as the airplane
        ``333444555666``, and an airplane with singles of four or more trios whose wings
        hold a trio, or whose wings hold four of a rank, only by a bomb or the rocket).
        Decides legality.
    :param chain_from_four: ``True`` (**default**) or ``False`` (OpenSpiel): whether a
        STRAIGHT, PAIR_STRAIGHT or AIRPLANE may start at a rank of which the player holds
        every copy (``33334567`` leads ``34567`` only when ``True``; RULES.md §2.5).
        Decides legality.
    :param bomb_on_rocket: ``False`` (**default**) or ``True`` (OpenSpiel): whether any
        bomb may be played on the rocket (which still beats every bomb; RULES.md §2.5).
        Decides legality.
    :raises DdzError: an unknown option value, an option of the wrong type, a
        three-player option (``doubling``, ``bottom_bonus``, ``bidding="rob"``,
        ``bid_rounds="until_passes"``) with ``players=4``, an option that changes nothing
        with ``players=4`` (``kickers="repeat"``, ``wings``, ``four_with_two=False``,
        ``airplane_rank="trios"``, ``beat_reading="cards"``: they speak of single kickers
        and four-with-twos, which that game has not; nor a ``banned`` type it has not:
        TRIO_SINGLE, AIRPLANE_SINGLES, FOUR_TWO_SINGLES, FOUR_TWO_PAIRS; RULES.md §7), or
        ``bid_rounds="until_passes"`` with ``bidding="rob"`` (RULES.md defines rounds for
        bids of points only).

    ``bidding``, ``doubling``, ``bottom_bonus``, ``doubling_bombs``, ``first_bidder``,
    ``bid_rounds``, ``all_pass`` and ``max_redeals`` only matter to :class:`ddz.Game`; the
    move functions ignore them.
    """

    kickers: Literal["distinct", "repeat"] = field(
        default="distinct", metadata={"decides": DECIDES_PLAYS, "choices": _KICKERS,
                                      "help": "kicker rule (RULES.md §2.1)"})
    banned: FrozenSet[PlayType] = field(
        default=frozenset(), metadata={"decides": DECIDES_LEGALITY,
                                       "help": "play types that may not be played (禁手)"})
    bidding: Literal["points", "rob"] = field(default="points", metadata={"choices": _BIDDING})
    doubling: bool = False
    bottom_bonus: bool = False
    players: Literal[3, 4] = field(
        default=3, metadata={"decides": DECIDES_PLAYS, "choices": _PLAYERS,
                             "help": "3 (one deck) or 4 (two decks, RULES.md §7)"})
    straights: bool = field(
        default=True, metadata={"decides": DECIDES_LEGALITY,
                                "help": "whether STRAIGHT may be played (RULES.md §7)"})
    doubling_bombs: Literal["all", "beating", "six_plus"] = field(
        default="all", metadata={"choices": _DOUBLING_BOMBS})

    all_pass: Literal["redeal", "void"] = field(default="redeal", metadata={"choices": _ALL_PASS})
    max_redeals: int = 10
    first_bidder: Literal["random", "face_up"] = field(default="random", metadata={"choices": _FIRST_BIDDER})
    bid_rounds: Literal["once", "until_passes"] = field(default="once", metadata={"choices": _BID_ROUNDS})
    wings: Literal["standard", "trios", "any"] = field(
        default="standard", metadata={"decides": DECIDES_PLAYS, "choices": _WINGS,
                                      "help": "what single kickers may hold beyond RULES.md §2.1 (§2.5)"})
    four_with_two: bool = field(
        default=True, metadata={"decides": DECIDES_PLAYS,
                                "help": "whether the four-with-two types exist (RULES.md §2.5)"})
    airplane_rank: Literal["chain", "trios"] = field(
        default="chain", metadata={"decides": DECIDES_LEGALITY, "choices": _AIRPLANE_RANK,
                                   "help": "how an airplane with singles compares (RULES.md §2.5)"})
    beat_reading: Literal["play", "cards"] = field(
        default="play", metadata={"decides": DECIDES_LEGALITY, "choices": _BEAT_READING,
                                  "help": "read the play to beat as its play or from its cards (RULES.md §2.5)"})
    chain_from_four: bool = field(
        default=True, metadata={"decides": DECIDES_LEGALITY,
                                "help": "whether a chain may start at a rank the hand holds all of (RULES.md §2.5)"})
    bomb_on_rocket: bool = field(
        default=False, metadata={"decides": DECIDES_LEGALITY,
                                 "help": "whether a bomb may be played on the rocket (RULES.md §2.5)"})

    @classmethod
    def profile(cls, name: str, **options: Any) -> "Rules":
        """The rule set whose legal moves are exactly those of another engine (RULES.md
        §2.5): ``"rlcard"`` (``kickers="repeat"``), ``"douzero"`` (``kickers="repeat"``,
        ``wings="any"``, ``airplane_rank="trios"``, ``beat_reading="cards"``) or
        ``"openspiel"`` (``kickers="repeat"``, ``wings="trios"``, ``four_with_two=False``,
        ``chain_from_four=False``, ``bomb_on_rocket=True``, and by default OpenSpiel's
        auction: ``first_bidder="face_up"``, ``bid_rounds="until_passes"``,
        ``all_pass="void"``).

        :param name: the engine's name (a ``str``, case-insensitive).
        :param options: any field that is not a move option of the profile (``bidding``,
            ``doubling``, ``first_bidder``...); they replace the profile's defaults.
        :raises DdzError: an unknown name (the message lists the names), a move option of
            the profile given again, or a bad value.
        """
        key = name.lower() if isinstance(name, str) else None
        if key not in PROFILES:
            raise DdzError(f"unknown engine profile {quote(name)}; the profiles are {', '.join(sorted(PROFILES))}")
        fixed = PROFILES[key]
        clash = sorted(k for k in options if k in fixed)
        if clash:
            raise DdzError(f"Rules.profile({key!r}) fixes {', '.join(clash)}; do not pass them")
        try:
            defaults = dict(_PROFILE_DEFAULTS[key])
            if options.get("bidding", "points") != "points" or options.get("players", 3) != 3:
                defaults.pop("bid_rounds", None)     # rounds are a rule of bids of points, three players
            return cls(**{**defaults, **options, **fixed})
        except TypeError as exc:
            raise DdzError(f"Rules.profile: {exc}") from None

    @classmethod
    def profiles(cls) -> Tuple[str, ...]:
        """The names :meth:`profile` accepts, sorted."""
        return tuple(sorted(PROFILES))

    @classmethod
    def four_player(cls, **options: Any) -> "Rules":
        """The four-player two-deck game (四人斗地主, RULES.md §7): ``Rules(players=4,
        **options)``.

        :param options: any other field that means something in this game
            (``straights``, ``doubling_bombs``, ``banned``, ``chain_from_four``,
            ``bomb_on_rocket``, the auction's). ``players`` is fixed at 4.
        :raises DdzError: a three-player option (``doubling=True``, ``bottom_bonus=True``,
            ``bidding="rob"``), an option that changes nothing in this game
            (``kickers="repeat"``, ``wings``, ``four_with_two=False``,
            ``airplane_rank="trios"``, ``beat_reading="cards"``, a ``banned`` type it does
            not have), ``players`` given, or any bad value.
        """
        if "players" in options:
            raise DdzError("Rules.four_player() fixes players=4; do not pass players")
        try:
            return cls(players=4, **options)
        except TypeError as exc:
            raise DdzError(f"Rules.four_player: {exc}") from None

    def __new__(cls, *args: Any, **options: Any) -> "Rules":
        # an unknown keyword is a DdzError naming it and the fields (dataclass's own
        # __init__ would raise a bare TypeError)
        unknown = options.keys() - _field_names()
        if unknown:
            raise DdzError(f"Rules has no field {', '.join(sorted(map(repr, unknown)))}; "
                           f"the fields are {', '.join(f.name for f in fields(cls))}")
        return super().__new__(cls)

    def __post_init__(self) -> None:
        # every on/off field, and every field of text choices (declared in its metadata)
        for f in fields(self):
            value = getattr(self, f.name)
            choices = f.metadata.get("choices")
            if isinstance(f.default, bool):
                if not isinstance(value, bool):
                    raise DdzError(f"Rules.{f.name} must be True or False, got {quote(value)}")
            elif choices and isinstance(choices[0], str) and (not isinstance(value, str) or value not in choices):
                raise DdzError(f"Rules.{f.name} must be one of {choices}, got {quote(value)}")
        players = _index(self.players)
        if players not in _PLAYERS:
            raise DdzError(f"Rules.players must be the int 3 or 4, got {quote(self.players)}")
        if type(self.players) is not int:
            object.__setattr__(self, "players", players)   # numpy integers
        if self.players == 4:
            wrong = [f"{n}={getattr(self, n)!r}" for n, off in (("doubling", False), ("bottom_bonus", False),
                                                              ("bidding", "points")) if getattr(self, n) != off]
            if wrong:
                raise DdzError(f"{', '.join(wrong)}: a three-player option (RULES.md §7: the four-player "
                               "game has no doubling, no bottom bonus and bids 1-3)")
            moot = [f"{n}={getattr(self, n)!r}" for n, off in _MOOT_WITH_FOUR if getattr(self, n) != off]
            if moot:
                raise DdzError(f"{', '.join(moot)}: changes nothing in the four-player game, which has no single "
                               "kickers and no four-with-two (RULES.md §7); leave it at its default")
        if self.bid_rounds == "until_passes" and (self.bidding == "rob" or self.players == 4):
            raise DdzError("Rules.bid_rounds='until_passes' is a rule of bids of points with three players "
                           f"(RULES.md §3, §7); not with {'bidding=' + repr(self.bidding) if self.bidding == 'rob' else 'players=4'}")
        if self.wings != "standard" and self.kickers != "repeat":
            raise DdzError(f"Rules.wings={self.wings!r} lets single kickers repeat a rank: it needs "
                           "kickers='repeat' (RULES.md §2.5)")
        limit = self.max_redeals
        if type(limit) is not int:
            limit = _index(limit)                  # numpy integers
            if limit is None:
                raise DdzError(f"Rules.max_redeals must be an int from 0 to {MAX_REDEALS}, got {quote(self.max_redeals)}")
            object.__setattr__(self, "max_redeals", limit)
        if not 0 <= limit <= MAX_REDEALS:
            raise DdzError(f"Rules.max_redeals must be an int from 0 to {MAX_REDEALS}, got {limit!r}")
        if not (isinstance(self.banned, frozenset) and all(type(t) is PlayType for t in self.banned)):
            object.__setattr__(self, "banned", _banned_arg(self.banned))
        elif PlayType.PASS in self.banned or PlayType.SINGLE in self.banned:
            _banned_arg(self.banned)  # raises
        if self.players == 4 and self.banned & FOUR_PLAYER_EXCLUDED:
            moot = ", ".join(t.name for t in sorted(self.banned & FOUR_PLAYER_EXCLUDED))
            raise DdzError(f"Rules.banned holds {moot}: the four-player game has no such plays (RULES.md §7), "
                           "so banning them changes nothing; leave them out")
        # Rules are dictionary keys on every call path: the key and its hash, once
        key = tuple(getattr(self, f.name) for f in fields(self))
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other):
        if self is other:
            return True
        if type(other) is not Rules and not isinstance(other, Rules):
            return NotImplemented
        return self._key == other._key

    def __reduce__(self):
        # rebuilt from the fields, so the cached hash is recomputed in the receiving
        # process (string hashes differ between processes)
        return (Rules, tuple(getattr(self, f.name) for f in fields(self)))

    def __repr__(self) -> str:
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            if value != f.default:
                if f.name == "banned":
                    value = "{" + ", ".join(f"PlayType.{t.name}" for t in sorted(value)) + "}"
                    parts.append(f"banned={value}")
                else:
                    parts.append(f"{f.name}={value!r}")
        return f"Rules({', '.join(parts)})"

    # -- derived -------------------------------------------------------------------
    @property
    def decks(self) -> int:
        """Decks in play: 1 for the three-player game, 2 for the four-player game."""
        return 1 if self.players == 3 else 2

    @property
    def seats(self) -> int:
        """Players at the table (``players``): 3 or 4."""
        return self.players

    @property
    def max_hand(self) -> int:
        """The most cards one player can hold: 20 (17 + 3 bottom cards) with one deck, 33
        (25 + 8) with two."""
        return 20 if self.players == 3 else 33

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat: 17, or 25 in the four-player game."""
        return 17 if self.players == 3 else 25

    @property
    def bottom_size(self) -> int:
        """Bottom cards (底牌): 3, or 8 in the four-player game."""
        return 3 if self.players == 3 else 8

    @property
    def forbidden(self) -> FrozenSet[PlayType]:
        """The play types that options of legality take away (``banned``, and STRAIGHT
        without ``straights``): they keep their action ids but are never legal."""
        if self.straights:
            return self.banned
        return self.banned | {PlayType.STRAIGHT}

    @property
    def excluded(self) -> FrozenSet[PlayType]:
        """Every play type that may not be played: ``banned``, STRAIGHT without
        ``straights``, and the types the four-player game does not have."""
        out = set(self.banned)
        if not self.straights:
            out.add(PlayType.STRAIGHT)
        if self.players == 4:
            out |= FOUR_PLAYER_EXCLUDED
        if not self.four_with_two:
            out |= FOUR_WITH_TWO
        return frozenset(out)

    @property
    def repeat_kickers(self) -> bool:
        """``True`` for ``kickers="repeat"`` (single kickers may share a rank)."""
        return self.kickers == "repeat"

    @property
    def move_options(self) -> MoveOptions:
        """The engines' view of the move-deciding options (see :class:`MoveOptions`):
        the one place where they are derived from the fields."""
        allowed = _ALL_TYPES
        for t in self.excluded:
            allowed &= ~(1 << t)
        return MoveOptions(decks=self.decks, max_hand=self.max_hand, kickers_repeat=int(self.repeat_kickers),
                           allowed=allowed, bomb_min=4, bomb_max=4 * self.decks, rocket_width=self.decks,
                           joker_pairs=int(self.decks > 1), wing_trios=int(self.wings != "standard"),
                           wing_bombs=int(self.wings == "any"),
                           airplane_trios=int(self.airplane_rank == "trios"),
                           beat_cards=int(self.beat_reading == "cards"), chain_four=int(self.chain_from_four),
                           bomb_on_rocket=int(self.bomb_on_rocket))

    @property
    def move_rules(self) -> "Rules":
        """The rule set with only the fields that decide plays and legal moves (declared
        ``decides`` in the field metadata) and every other field at its default: one
        shared object per distinct value. Per-rule-set tables are keyed by it, so they are
        built once whatever the bidding or scoring options."""
        return _shared(self, (DECIDES_PLAYS, DECIDES_LEGALITY))

    @property
    def universe_rules(self) -> "Rules":
        """The rule set with only the fields that decide which plays exist (not which are
        allowed, such as ``banned``): its universe numbers the action ids, so ids do not
        change when a play type is banned."""
        return _shared(self, (DECIDES_PLAYS,))

    def is_banned(self, play_type: PlayType) -> bool:
        """Whether plays of ``play_type`` may not be played under these rules (see
        :attr:`excluded`)."""
        return play_type in self.excluded

    # -- JSON (records) ------------------------------------------------------------
    def to_json(self) -> Dict[str, Any]:
        """Every field as JSON values (``banned`` as a sorted list of type names), for
        records (docs/records.md)."""
        out: Dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = sorted(t.name for t in value) if f.name == "banned" else value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any], defaults: Iterable[str] = ()) -> "Rules":
        """The rule set of :meth:`to_json` output: exactly every field, except those named
        in ``defaults``, which may be missing and then take their default.

        :raises DdzError: not a mapping, an unknown or missing field, or a bad value.
        """
        if not isinstance(data, Mapping):
            raise DdzError(f"rules must be a JSON object, not {type(data).__name__}: {quote(data)}")
        names = [f.name for f in fields(cls)]
        unknown = sorted(str(k) for k in data if k not in names)
        if unknown:
            raise DdzError(f"unknown field(s) {unknown}; the fields are {names}")
        optional = set(defaults)
        missing = [k for k in names if k not in data and k not in optional]
        if missing:
            raise DdzError(f"lack field(s) {missing}; a record gives every field of ddz.Rules: {names}")
        value = data.get("banned")
        if value is not None and (not isinstance(value, (list, tuple)) or len(set(map(repr, value))) != len(value)
                                  or not all(isinstance(v, str) and v in PlayType.__members__ for v in value)):
            raise DdzError(f"rules field 'banned' must be a list of distinct play type names "
                           f"(e.g. [\"BOMB\", \"TRIO_PAIR\"]), got {quote(value)}")
        try:
            return cls(**data)
        except TypeError as exc:
            raise DdzError(f"bad rules {quote(data)}: {exc}") from None

    @staticmethod
    def move_fields(decides: Tuple[str, ...] = (DECIDES_PLAYS, DECIDES_LEGALITY)):
        """The dataclass fields that decide plays (and legality): what ``move_rules``
        keeps and the command line offers wherever moves are computed."""
        return [f for f in fields(Rules) if f.metadata.get("decides") in decides]


_shared_lock = threading.Lock()
_CANONICAL: Dict[Rules, Rules] = {}       # one object per distinct value
_MEMO: Dict[Tuple, Rules] = {}            # (decides, rules) -> the canonical reduced rules


def _shared(rules: Rules, decides: Tuple[str, ...]) -> Rules:
    key = (decides, rules)
    shared = _MEMO.get(key)
    if shared is None:
        reduced = Rules(**{f.name: getattr(rules, f.name) for f in Rules.move_fields(decides)})
        with _shared_lock:
            shared = _CANONICAL.setdefault(reduced, reduced)
            _MEMO[key] = shared
    return shared


STANDARD = Rules()
"""The default rule set (``kickers="distinct"``)."""

REPEAT_KICKERS = Rules(kickers="repeat")
"""RLCard's and DouZero's kicker rule (``kickers="repeat"``)."""
