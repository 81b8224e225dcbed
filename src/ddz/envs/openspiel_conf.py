"""What one ``python_ddz`` game fixes (its parameters read, its ids and sizes): the part of
:mod:`ddz.envs.openspiel` that needs no OpenSpiel (RULES.md §1, §3, §7; docs/openspiel.md).

:func:`game_conf` turns OpenSpiel's game parameters (``Rules`` fields, ``profile``,
``start``) into a :class:`GameConf`: the rule set, the chance outcomes' numbering, the
player action ids (``ddz``'s env ids, or OpenSpiel's own under ``profile="openspiel"``),
the sizes of the tensors and the bounds OpenSpiel asks for. Nothing here imports
``pyspiel``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, List, Mapping, Tuple

from ..core.cards import NUM_RANKS, SMALL_JOKER, Card, Suit
from ..core.play import PlayType
from ..core.rules import Rules
from ..errors import DdzError, quote

__all__ = ["GameConf", "game_conf", "PARAMETERS", "card_of", "encode_counts", "ParamError", "canonical", "rules_of",
           "play_env_id", "hidden", "rank_of"]


class ParamError(DdzError):
    """A ``python_ddz`` game parameter that is not a rule set (its message names it)."""


def _defaults() -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for f in dataclasses.fields(Rules):
        value = f.default
        if f.name == "banned":
            value = ""
        elif isinstance(value, str):
            value = ""     # "": the rule set's default (Rules' or the profile's)
        out[f.name] = value
    out["profile"] = ""
    out["start"] = ""
    return out


#: OpenSpiel's parameter specification of ``python_ddz``: every field of :class:`ddz.Rules`
#: (``banned`` as comma-separated play type names, e.g. ``"TRIO_PAIR,BOMB"``; every str
#: field ``""`` for "the default of the rule set": ``Rules``', or the profile's), plus
#: ``profile`` (``""``, ``"rlcard"``, ``"douzero"``, ``"openspiel"``) and ``start`` (an
#: open endgame in :class:`ddz.Position` text, ``""`` for a whole hand)
PARAMETERS: Dict[str, Any] = _defaults()
_RULE_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Rules)}


def _banned(text: Any) -> frozenset:
    if not isinstance(text, str):
        raise ParamError(f"python_ddz parameter 'banned' is a str of play type names separated by commas "
                         f"(e.g. 'TRIO_PAIR,BOMB'), not {quote(text)}")
    names = [t.strip().upper() for t in text.replace("+", ",").replace("|", ",").split(",") if t.strip()]
    bad = [n for n in names if n not in PlayType.__members__]
    if bad:
        raise ParamError(f"python_ddz parameter 'banned': unknown play type(s) {bad}; "
                         f"the types are {', '.join(PlayType.__members__)}")
    return frozenset(PlayType[n] for n in names)


def canonical(params: Mapping[str, Any]) -> Dict[str, Any]:
    """``params`` with ``banned`` and ``start`` in the forms OpenSpiel's game strings can
    carry (no ``,``, ``=``, space or parenthesis): ``banned`` joined by ``+``
    (``"TRIO_PAIR+BOMB"``), ``start`` with ``;`` between words and ``:`` for ``=``
    (``"KK5544/22554/3;landlord:1;to_move:2;to_beat:33;last:1"``)."""
    out = dict(params)
    b = out.get("banned")
    if isinstance(b, str):
        out["banned"] = "+".join(t.strip().upper() for t in b.replace("+", ",").replace("|", ",").split(",")
                                 if t.strip())
    st = out.get("start")
    if isinstance(st, str):
        out["start"] = ";".join(st.replace(";", " ").replace("=", ":").split())
    return out


def rules_of(params: Mapping[str, Any]) -> Tuple[Rules, str, Any]:
    """``(rules, profile, start)`` of OpenSpiel game parameters (see :data:`PARAMETERS`).

    Under a profile, a field equal to its ``Rules`` default counts as not given (OpenSpiel
    fills in every default before the game sees them), so the profile's value holds.

    :raises ParamError: an unknown parameter, a value of the wrong type, a bad rule set,
        a bad ``start`` (with the reason), or ``start`` with four players.
    """
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise ParamError(f"unknown python_ddz parameter(s) {unknown}; the parameters are {sorted(PARAMETERS)}")
    options: Dict[str, Any] = {}
    for name, value in params.items():
        if name in ("profile", "start"):
            continue
        if name == "banned":
            value = _banned(value)
            if value:
                options[name] = value
            continue
        default = _RULE_DEFAULTS[name]
        if isinstance(default, str):
            if not isinstance(value, str):
                raise ParamError(f"python_ddz parameter {name!r} is a str, not {quote(value)}")
            if value != "":
                options[name] = value     # given: it holds, under a profile too
            continue
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise ParamError(f"python_ddz parameter {name!r} is a bool, not {quote(value)}")
        elif not isinstance(value, int) or isinstance(value, bool):
            raise ParamError(f"python_ddz parameter {name!r} is an int, not {quote(value)}")
        if value != default:
            options[name] = value
    profile = params.get("profile", "")
    if not isinstance(profile, str):
        raise ParamError(f"python_ddz parameter 'profile' is a str, not {quote(profile)}")
    profile = profile.lower()
    try:
        rules = Rules.profile(profile, **options) if profile else Rules(**options)
    except DdzError as exc:
        raise ParamError(f"python_ddz parameters {dict(params)!r}: {exc}") from None
    except (TypeError, ValueError) as exc:
        raise ParamError(f"python_ddz parameters {dict(params)!r}: {exc}") from None
    start = params.get("start", "")
    if not isinstance(start, str):
        raise ParamError(f"python_ddz parameter 'start' is a str (a ddz.Position's text), not {quote(start)}")
    position = None
    if start.strip():
        from ..game.position import Position   # import floor (docs/DESIGN.md): the chain of envs.openspiel
        if rules.seats != 3:
            raise ParamError("python_ddz parameter 'start' is an open endgame of the three-player game; "
                             "the four-player game has none")
        try:
            p = Position.parse(start.replace(";", " ").replace(":", "="))
        except DdzError as exc:
            raise ParamError(f"python_ddz parameter 'start' {start!r}: {exc}") from None
        if p.seats != 3:
            raise ParamError(f"python_ddz parameter 'start' {start!r}: give three hands (the landlord and "
                             "two farmers)")
        if p.over:
            raise ParamError(f"python_ddz parameter 'start' {start!r}: the hand is already over")
        try:
            position = Position(p.hands, landlord=p.landlord, to_move=p.to_move, to_beat=p.to_beat,
                                last_player=p.last_player, rules=rules, base=p.base, multiplier=p.multiplier,
                                landlord_plays=p.landlord_plays, farmers_played=p.farmers_played)
        except DdzError as exc:
            raise ParamError(f"python_ddz parameter 'start' {start!r} under {rules!r}: {exc}") from None
    return rules, profile, position


def play_env_id(conf: "GameConf", action: int) -> int:
    """The env id (``ddz.ActionSpace`` id) of a play-phase action id of the game."""
    return conf.from_os[action] if conf.openspiel_ids else action


def hidden(record: List[tuple], i: int, viewer: int) -> bool:
    """Whether record entry ``i`` (``(deal, seat, id, phase code)``; code 1: a double) is
    hidden from ``viewer``: the first farmer's choice, until the second farmer has chosen
    (RULES.md §4: revealed together)."""
    d, seat, _, code = record[i]
    if code != 1 or seat == viewer:
        return False
    doubles = [j for j, e in enumerate(record) if e[0] == d and e[3] == 1]
    return doubles[0] == i and len(doubles) == 1


# -- cards of the chance outcomes -------------------------------------------------------

def card_of(card_id: int) -> Card:
    """The physical card of a card number ``0 .. 54 * decks - 1`` (OpenSpiel's
    ``dou_dizhu`` numbering within each deck: ``c % 54 < 52`` is rank ``c % 13`` of suit
    ``(c % 54) // 13`` (spades, hearts, clubs, diamonds), 52 the small joker, 53 the big
    one)."""
    c = card_id % 54
    if c >= 52:
        return Card(SMALL_JOKER + c - 52)
    return Card(c % 13, Suit(c // 13))


def rank_of(card_id: int) -> int:
    """The rank index (0..14) of a card number (see :func:`card_of`)."""
    c = card_id % 54
    return SMALL_JOKER + c - 52 if c >= 52 else c % 13


def encode_counts(counts, out, start: int, decks: int) -> None:
    """Write counts (15 ints) into ``out[start:start + 54 * decks]`` in
    :func:`ddz.encode_cards`'s layout ("at least k copies" bits; ``out`` zeroed before)."""
    w = 4 * decks
    for r in range(13):
        n = counts[r]
        if n:
            b = start + w * r
            out[b:b + n] = 1
    for j in (0, 1):
        n = counts[SMALL_JOKER + j]
        if n:
            b = start + 52 * decks + decks * j
            out[b:b + n] = 1


# -- the game's constants -----------------------------------------------------------------

class GameConf:
    """Everything one ``python_ddz`` game fixes (built once per game, shared by its states).

    :ivar rules: the :class:`ddz.Rules`. :ivar inner: the rules the wrapped
        :class:`ddz.Game` plays (``all_pass="void"``: the game deals again itself, through
        chance nodes). :ivar start: the open endgame (:class:`ddz.Position`) or ``None``.
    :ivar openspiel_ids: ``True`` under ``profile="openspiel"`` (OpenSpiel's action ids).
    :ivar seats, hand_size, ncards: seats, cards dealt to each, cards in the deck.
    :ivar ndealt: ``seats * hand_size``: the cards dealt one by one (the bottom is what is
        left). :ivar card_base: the chance outcome of card number 0 (``ndealt``).
    :ivar first_outcomes: outcomes of the first chance node (the face-up card's position
        in the deal, or the first bidder).
    :ivar num_actions: OpenSpiel's ``num_distinct_actions``.
    """

    def __init__(self, params: Mapping[str, Any]) -> None:
        from .core import env_actions, observation_size   # import floor (docs/DESIGN.md): envs.openspiel's chain
        rules, profile, start = rules_of(params)
        self.params = dict(params)
        self.rules = rules
        self.profile = profile
        self.start = start
        self.inner = rules if rules.all_pass == "void" else dataclasses.replace(rules, all_pass="void")
        self.redeal = rules.all_pass == "redeal"
        self.max_redeals = rules.max_redeals
        self.seats = s = rules.seats
        self.decks = rules.decks
        self.hand_size = rules.hand_size
        self.bottom_size = rules.bottom_size
        self.ncards = 54 * rules.decks
        self.k = 54 * rules.decks            # one card encoding
        self.ndealt = s * rules.hand_size
        self.card_base = self.ndealt
        self.face_up = rules.first_bidder == "face_up"
        self.first_outcomes = self.ndealt if self.face_up else s
        self.acts = acts = env_actions(rules)
        self.plays = acts.plays
        self.openspiel_ids = profile == "openspiel"
        if self.openspiel_ids:
            if rules.bidding != "points" or rules.doubling:
                raise ParamError("profile='openspiel' numbers actions as OpenSpiel's dou_dizhu does (pass, bids "
                                 "1-3, plays), which has no call, rob or double: leave bidding='points' and "
                                 "doubling=False, or use another profile (ddz's env ids)")
            from ..interop.openspiel import OPENSPIEL_NUM_ACTIONS, openspiel_id_map  # import floor: only this profile
            to_os, from_os = openspiel_id_map(rules)
            self.to_os = to_os
            self.from_os: List[int] = from_os.tolist()
            self.num_actions = OPENSPIEL_NUM_ACTIONS
        else:
            self.to_os = None
            self.from_os = []
            self.num_actions = acts.size
        self.cards = [card_of(c) for c in range(self.ncards)]
        self.card_text = [str(c) for c in self.cards]
        self.ranks = [rank_of(c) for c in range(self.ncards)]
        # Card order (rank, then suit; jokers first in their rank) as one int per number
        self.card_key = [k[0] * 5 + k[1] + 1 for k in (c.sort_key for c in self.cards)]
        # sizes: auction words of one deal, play-phase steps (each play takes a card; at
        # most seats - 1 passes after each), chance nodes
        self.auction_slots = 4 * s + 8
        cards = self.ncards if start is None else sum(sum(h) for h in start.hands)
        self.play_slots = cards * s
        deals = 1 + (self.max_redeals if self.redeal else 0)
        self.max_chance = 0 if start is not None else deals * self.ndealt + 1
        self.max_length = self.max_chance + (0 if start is not None else deals * self.auction_slots) + self.play_slots
        self.obs_size = observation_size(rules) if start is None else self.endgame_obs_size()
        self.info_size = self.info_layout()[-1][2]
        # |returns| <= (seats - 1) * base * multiplier: bounds for OpenSpiel's GameInfo
        doublings = 2 * self.ncards // 4 + 2 + 3 + 6 + 1     # bombs, spring, doubles, robs, rocket
        self.max_utility = float((s - 1) * 3 * 4 * 3 * 2 ** doublings)

    def __reduce__(self):
        # a pickled state (OpenSpiel's serialisation) names its game's parameters only
        return game_conf, (self.params,)

    def endgame_obs_size(self) -> int:
        s, k = self.seats, self.k
        return s * k + k + (s + 1) + s + s + 1

    def info_layout(self) -> List[Tuple[str, int, int]]:
        """The information-state tensor's blocks ``(name, start, stop)`` (docs/openspiel.md)."""
        s, k = self.seats, self.k
        if self.start is None:
            blocks = [("seat", s), ("dealt", k), ("first", s + 1), ("face_up", NUM_RANKS), ("bottom", k),
                      ("open_hand", k), ("redeals", 1), ("auction", self.auction_slots * (s + 7)),
                      ("plays", self.play_slots * (s + k))]
        else:
            blocks = [("seat", s), ("hands", s * k), ("landlord", s), ("to_move", s), ("to_beat", k),
                      ("to_beat_seat", s + 1), ("plays", self.play_slots * (s + k))]
        out, at = [], 0
        for name, n in blocks:
            out.append((name, at, at + n))
            at += n
        return out


_CONFS: Dict[Tuple, GameConf] = {}


def game_conf(params: Mapping[str, Any]) -> GameConf:
    """The :class:`GameConf` of OpenSpiel parameters (one per distinct parameter set).

    :raises ParamError: see :func:`rules_of`."""
    key = tuple(sorted((k, v) for k, v in params.items()))
    conf = _CONFS.get(key)
    if conf is None:
        conf = _CONFS[key] = GameConf(params)
    return conf
