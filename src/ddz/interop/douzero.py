"""DouZero (``douzero.env``): its card lists, its deals and its information sets."""

from __future__ import annotations

import collections.abc
from typing import Dict, Iterable, List, Tuple

import numpy as np

from ..core import arguments as _args
from .. import core as moves
from ..core.cards import NUM_RANKS, format_cards_unchecked, is_integer
from ..errors import DdzError, DealError, HandError, InvalidPlayError, NotationError, quote
from ..core.play import PASS, Play, PlayType
from ..core.rules import STANDARD, Rules
from ..game.state import Game
from .engines import DOUZERO, PlayOrCards, _engine_play, _three_player

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
    if position not in DOUZERO_POSITIONS:
        raise DdzError(f"a DouZero position is one of {', '.join(DOUZERO_POSITIONS)}, got {position!r}")
    if isinstance(landlord, bool) or not is_integer(landlord) or not 0 <= landlord < 3:
        raise DdzError(f"the landlord's seat is 0..2, got {landlord!r}")
    return (int(landlord) + DOUZERO_POSITIONS.index(position)) % 3


def _dz_list(cards, what: str) -> Tuple[int, ...]:
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
