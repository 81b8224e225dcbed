"""What every RL environment of :mod:`ddz.envs` shares: one action table for the whole
hand and one observation layout for every seat (RULES.md §3–§7). Plain numpy: no
third-party RL library is imported here.

The env action table
--------------------
One ``Discrete(n)`` space serves every seat and every phase. With ``P =
len(ddz.ActionSpace(rules))`` (12,655; 27,472 with ``kickers="repeat"``; 7,952 in the
four-player game):

======================  =============================================================
id                      action
======================  =============================================================
``0``                   the pass, in every phase: no bid (不叫), no call or rob, do not
                        double, do not play open, pass in the play phase (不出)
``1 .. P-1``            the plays of :class:`ddz.ActionSpace` (same ids: ``space.play(i)``)
``P + 0``               bid 1 (``Rules.bidding="points"``)
``P + 1``               bid 2
``P + 2``               bid 3
``P + 3``               call the landlord (叫地主), or rob (抢地主) once someone called
                        (``Rules.bidding="rob"``)
``P + 4``               double (加倍; the landlord's redouble) (``Rules.doubling=True``)
``P + 5``               play open (亮牌, ×3; the four-player landlord, RULES.md §7)
======================  =============================================================

so ``n = P + 6``. In each phase only that phase's ids are legal: the legal ids come from
:meth:`EnvActions.legal_ids` (sorted ascending) or as a mask.

The observation layout
----------------------
A ``float32`` vector of :func:`observation_size` features, the same shape for every seat,
from the point of view of the observing seat. Seats are **relative**: position ``r`` is
the seat ``(observer + r) % seats`` (0 is the observer, 1 the next to act after it, ...).
``K = 54 * rules.decks`` card features encode a count vector as
:func:`ddz.encode_cards` does (DouZero's layout: "at least k copies" bits). In order:

=========================  ==========  ===================================================
block                      size        content
=========================  ==========  ===================================================
``hand``                   K           the observer's cards
``played``                 S × K       cards played so far by each relative seat
``last_play``              S × K       each relative seat's latest play of the play
                                       phase (zeros before it played, and for a pass)
``to_beat``                K           the play to beat (zeros when leading)
``to_beat_seat``           S + 1       one-hot relative seat that made it; slot S: none
``bottom``                 K           the bottom cards once shown to the observer
``open_hand``              K           the landlord's cards when it plays open (§7)
``cards_left``             S           cards left per relative seat (raw counts)
``landlord``               S + 1       one-hot relative seat of the landlord; S: not yet
``to_act``                 S + 1       one-hot relative seat to act; S: nobody (over)
``phase``                  5           one-hot: bidding, doubling, opening, playing, over
``bid``                    4           one-hot highest bid 0..3 (1 once called, ``"rob"``)
``auction``                S × 5       per relative seat, its latest auction word:
                                       one-hot silent, pass, 1, 2, 3 (call/rob is 1)
``doubles``                S × 3       per relative seat: one-hot unknown, no, yes (a
                                       farmer's choice is hidden until both chose, §4)
``robs``                   1           robs so far
``open_play``              1           1 when the landlord plays open
``log2_multiplier``        1           log2 of the multiplier the observer sees (§6)
``face_up``                15 + S + 1  the face-up card's rank one-hot, and the relative
                                       seat that received it (slot S: none)
=========================  ==========  ===================================================

``S = rules.seats``. The compact ``uint8`` observations (``VectorGame(...,
obs_dtype=numpy.uint8)``) have the same layout and values, except ``log2_multiplier``,
which holds ``round(4 * log2_multiplier)`` capped at 255 (:func:`compact_observation`).
The packed rows (``obs_dtype="packed"``) hold the same values in ``packed_size(rules)``
bytes: every 0/1 feature of the layout as bit ``i`` (little-endian bit order), the count
features (``cards_left``, ``robs``, ``log2_multiplier``) as bytes after the bits
(:mod:`ddz.envs.packed`: ``pack_observations``; ``unpack_observations`` gives the ``uint8``
rows back).
:func:`observation_layout` returns these blocks as ``(name, start, stop)``; the tests
check it against this table. With one deck and three seats the size is
610; the four-player game's is 1,379 (:func:`observation_size`).
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

from ..core import arguments as _args
from ..core.implementation import compiled
from ..game.actions import ActionSpace, encode_actions
from ..core.cards import NUM_RANKS, RANK_CHARS, is_integer
from ..errors import ActionIdError, ActionTypeError, DdzError, IllegalActionError, quote
from ..game.deal import DECK_SUITS, DECKS
from ..game.hand import PyHand, hand_settings
from ..game.ids import AUCTION_ACTIONS, AUCTION_IDS, BID_1, CALL, DOUBLE, OPEN, word_id
from ..game.phase import seat_arg
from ..game.state import Game, Phase
from ..core.rules import Rules
from ..core.tables import table

__all__ = ["EnvActions", "env_actions", "observation_layout", "observation_size", "encode_observation",
           "encode_observation_py", "observation_high", "AUCTION_ACTIONS", "reward_scale_arg",
           "REWARD_SCALE_RANGE", "compact_observation", "c_arguments"]

_vector = compiled("envs._vector", "the compiled vectorised game and encoder (ddz.envs._vector)")

# the auction actions after the play ids, by offset from ``P`` (see the module docstring):
# the game's one table (ddz.game.ids, the C hand's numbering)

_PHASES = (Phase.BIDDING, Phase.DOUBLING, Phase.OPENING, Phase.PLAYING, Phase.OVER)
_PHASE_INDEX = {p: i for i, p in enumerate(_PHASES)}


def _game_arg(game: object) -> Game:
    """:raises DdzError: ``game`` is not a :class:`ddz.Game`."""
    if not isinstance(game, Game):
        raise DdzError(f"game must be a ddz.Game, not {type(game).__name__}: {quote(game)}")
    return game


def _rules_arg(rules: object) -> Rules:
    return rules if type(rules) is Rules else _args.rules_arg(rules)


#: the range of ``reward_scale`` (every env): positive, and such that scale × any score
#: (an int64) is a finite float32 and scale itself not a float32 zero
REWARD_SCALE_RANGE = (1e-12, 1e12)


def reward_scale_arg(value: object) -> float:
    """``reward_scale`` of the envs as a float: a real number from 1e-12 to 1e12.

    NaN or an infinity would make NaN or infinite rewards, zero or a negative scale would
    erase or reverse what the scores say (RULES.md §6), and a scale beyond the range would
    overflow (or vanish in) the ``float32`` rewards.

    :raises DdzError: anything else (a bool, a str, NaN, ``inf``, 0, -1, 1e300...).
    """
    lo, hi = REWARD_SCALE_RANGE
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not lo <= value <= hi:          # NaN fails every comparison
        raise DdzError(f"reward_scale must be a number from {lo:g} to {hi:g} (finite and positive), "
                       f"got {quote(value)}")
    return float(value)


class EnvActions:
    """The env action table of one rule set (module docstring): ids ``0..P-1`` are the
    plays of :class:`ddz.ActionSpace`, then bid 1..3, call/rob, double, open. A thin user
    of the game's own ids (issue 42: :meth:`ddz.Game.legal_ids`, :meth:`ddz.Game.action_mask`,
    :meth:`ddz.Game.action_of_id`, the table of :mod:`ddz.game.ids`).

    :param rules: a :class:`ddz.Rules`.
    :ivar space: the :class:`ddz.ActionSpace` of ``rules.move_rules``.
    :ivar plays: ``P = len(space)``. :ivar size: ``P + 6``, the ``Discrete`` size.
    :ivar bid_ids: ids of the bids 1, 2, 3. :ivar call_id, double_id, open_id: ids.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules = _rules_arg(rules)
        self.space = ActionSpace(rules.move_rules)
        p = self.plays = len(self.space)
        self.bid_ids = (p + BID_1, p + BID_1 + 1, p + BID_1 + 2)
        self.call_id = p + CALL
        self.double_id = p + DOUBLE
        self.open_id = p + OPEN
        self.size = p + AUCTION_IDS
        self._rob = rules.bidding == "rob"

    def _game(self, game: object) -> Game:
        """``game``, a :class:`ddz.Game` whose ids are this table's: the same move rules
        (the plays' ids) and auction words (``rob`` or points); other fields, such as
        ``all_pass``, number nothing. :raises DdzError: otherwise."""
        if not isinstance(game, Game):
            _game_arg(game)
        rules = game.rules
        if rules is not self.rules and ((rules.bidding == "rob") != self._rob
                                        or rules.move_rules != self.rules.move_rules):
            raise DdzError(f"the game plays {rules!r}, not this action table's {self.rules!r}: its ids "
                           f"mean other actions (ddz.envs.env_actions(game.rules) is its table)")
        return game

    def legal_ids(self, game: Game) -> npt.NDArray[np.int32]:
        """The legal env ids of the seat to act in ``game``, ascending.

        :returns: a new ``int32`` array (empty once the hand is over).
        :raises DdzError: ``game`` is not a :class:`ddz.Game` of this rule set.
        """
        return self._game(game).legal_ids()

    def env_id(self, phase: Phase, action: Any) -> int:
        """The env id of a bidding, doubling or opening action of :meth:`Game.legal_actions`.

        :param phase: :attr:`Phase.BIDDING`, ``DOUBLING`` or ``OPENING``.
        :param action: a bid ``0..3`` (``bidding="points"``), ``0``/``1`` (pass, call/rob),
            or ``False``/``True`` (doubling, opening).
        :raises IllegalActionError: another phase, or an action that is none of that phase.
        """
        if phase is Phase.BIDDING:
            ok = is_integer(action) and 0 <= action <= (1 if self._rob else 3)
        elif phase is Phase.DOUBLING or phase is Phase.OPENING:
            ok = isinstance(action, (bool, np.bool_))
        else:
            raise IllegalActionError(f"env_id maps the auction phases' actions (bidding, doubling, opening), "
                                     f"not {quote(phase)}: the play ids are those of ddz.ActionSpace")
        if not ok:
            raise IllegalActionError(f"{quote(action)} is no {phase.value} action of {self.rules!r}")
        return word_id(phase, action, self.plays, self._rob)

    def mask(self, game: Game, out: Optional[np.ndarray] = None) -> npt.NDArray[np.int8]:
        """The legal ids of ``game`` as an ``int8[size]`` 0/1 mask (into ``out`` if given).

        :raises DdzError: ``game`` is not a :class:`ddz.Game` of this rule set, or ``out`` is not a writeable
            ``int8[size]`` array."""
        return self._game(game).action_mask(out)

    def game_action(self, game: Game, action_id: Any) -> Any:
        """The :meth:`ddz.Game.step` action of env id ``action_id`` in ``game``'s phase.

        :raises ActionTypeError: not an integer (also a :class:`TypeError`).
        :raises ActionIdError: an integer outside ``0..size-1``.
        :raises IllegalActionError: an id of another phase (e.g. a bid while playing).
        :raises DdzError: ``game`` is not a :class:`ddz.Game` of this rule set.
        """
        return self._game(game).action_of_id(action_id)   # the game's id boundary checks it

    def step(self, game: Game, action_id: Any) -> None:
        """Play env id ``action_id`` in ``game``: :meth:`ddz.Game.step_id`, the game's ids
        in every phase (:mod:`ddz.game.ids`), which checks the id once.

        :raises ActionTypeError, ActionIdError, IllegalActionError: as :meth:`game_action`
            and :meth:`ddz.Game.step`; the game is unchanged then.
        :raises DdzError: ``game`` is not a :class:`ddz.Game` of this rule set.
        """
        self._game(game).step_id(action_id)

    def describe(self, action_id: int) -> str:
        """Text for env id ``action_id``: ``"pass"``, play notation or an auction action.

        :raises ActionIdError: not an int id ``0..size-1`` (:class:`ActionTypeError`:
            not an int at all)."""
        if not is_integer(action_id):
            raise ActionTypeError(f"an env action is an int id 0..{self.size - 1}, not "
                                  f"{type(action_id).__name__}: {quote(action_id)}")
        a = int(action_id)
        if a == 0:
            return "pass"
        if 0 < a < self.plays:
            return self.space.notation(a)
        if self.plays <= a < self.size:
            return AUCTION_ACTIONS[a - self.plays]
        raise ActionIdError(f"env action id {a} is out of range 0..{self.size - 1}")


_CACHE: Dict[Rules, "EnvActions"] = {}


def env_actions(rules: Rules) -> EnvActions:
    """The shared :class:`EnvActions` of ``rules`` (built once per rule set).

    :raises DdzError: ``rules`` is not a :class:`ddz.Rules`."""
    acts = _CACHE.get(_rules_arg(rules))
    if acts is None:
        acts = _CACHE[rules] = EnvActions(rules)
    return acts


def observation_layout(rules: Rules) -> List[Tuple[str, int, int]]:
    """The observation's blocks as ``(name, start, stop)`` (module docstring).

    :param rules: a :class:`ddz.Rules`. :returns: a list covering ``0..size`` in order.
    :raises DdzError: ``rules`` is not a :class:`ddz.Rules`.
    """
    rules = _rules_arg(rules)
    k, s = 54 * rules.decks, rules.seats
    sizes = [("hand", k), ("played", s * k), ("last_play", s * k), ("to_beat", k), ("to_beat_seat", s + 1),
             ("bottom", k), ("open_hand", k), ("cards_left", s), ("landlord", s + 1), ("to_act", s + 1),
             ("phase", 5), ("bid", 4), ("auction", s * 5), ("doubles", s * 3), ("robs", 1), ("open_play", 1),
             ("log2_multiplier", 1), ("face_up", NUM_RANKS + s + 1)]
    out, start = [], 0
    for name, n in sizes:
        out.append((name, start, start + n))
        start += n
    return out


def observation_size(rules: Rules) -> int:
    """The length of the observation vector for ``rules`` (610 for three players, one deck)."""
    return observation_layout(rules)[-1][2]


def compact_observation(obs: Any, rules: Rules) -> npt.NDArray[np.uint8]:
    """The compact ``uint8`` form of observations (``VectorGame(..., obs_dtype=np.uint8)``,
    issue 30): every feature as it is (they are small integers: 0/1, cards left, robs),
    except ``log2_multiplier``, which becomes ``round(4 * log2_multiplier)``, at most 255
    (quarter steps: ×2 is 4, ×3 is 6; a multiplier beyond 2**63 saturates).

    :param obs: ``float32[..., observation_size(rules)]`` observations.
    :returns: a new ``uint8`` array of the same shape.
    :raises DdzError: ``obs`` is not such an array.
    """
    rules = _rules_arg(rules)
    size = observation_size(rules)
    if not isinstance(obs, np.ndarray) or obs.dtype != np.float32 or obs.ndim < 1 or obs.shape[-1] != size:
        raise DdzError(f"obs must be a float32 array of observations (last axis {size}), not {quote(obs)}")
    out = obs.astype(np.uint8)
    at = {name: start for name, start, _ in observation_layout(rules)}["log2_multiplier"]
    out[..., at] = np.minimum(np.rint(obs[..., at] * np.float32(4)), 255).astype(np.uint8)
    return out


def observation_high(rules: Rules) -> npt.NDArray[np.float32]:
    """The upper bound of every observation feature (the lower bound is 0): 1 for the
    0/1 features, ``rules.max_hand`` for ``cards_left``, ``seats`` for ``robs`` and 64 for
    ``log2_multiplier`` (a product of 2^k factors and at most two ×3 or ×4 ones).

    :returns: ``float32[observation_size(rules)]``.
    :raises DdzError: ``rules`` is not a :class:`ddz.Rules`.
    """
    rules = _rules_arg(rules)
    high = np.ones(observation_size(rules), np.float32)
    for name, start, stop in observation_layout(rules):
        if name == "cards_left":
            high[start:stop] = rules.max_hand
        elif name == "robs":
            high[start:stop] = rules.seats
        elif name == "log2_multiplier":
            high[start:stop] = 64
    return high


class _Encoder:
    """Per rule set: the block offsets and the card encoding of every play id."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.k = 54 * rules.decks
        self.seats = rules.seats
        self.size = observation_size(rules)
        self.at = {name: start for name, start, _ in observation_layout(rules)}
        space = env_actions(rules).space
        self.play_enc = encode_actions(np.arange(len(space)), space).astype(np.float32)
        self.index = table(rules.move_rules).index_of_play
        self.play_counts = np.asarray(space.card_counts, np.int64)
        d = rules.decks
        self.thresholds = np.concatenate([np.repeat(np.arange(13), 4 * d), np.repeat([13, 14], d)])
        self.levels = np.concatenate([np.tile(np.arange(1, 4 * d + 1), 13), np.tile(np.arange(1, d + 1), 2)])

    def cards(self, counts: np.ndarray) -> np.ndarray:
        """``(m, 15)`` counts → ``(m, K)`` float32 0/1."""
        return (counts[:, self.thresholds] >= self.levels).astype(np.float32)


_ENCODERS: Dict[Rules, _Encoder] = {}


def _encoder(rules: Rules) -> _Encoder:
    enc = _ENCODERS.get(rules)
    if enc is None:
        enc = _ENCODERS[rules] = _Encoder(rules)
    return enc




_PHASE_CODE = {Phase.BIDDING: 0, Phase.DOUBLING: 1, Phase.OPENING: 2, Phase.PLAYING: 3, Phase.OVER: 4}
_C_ENCODERS: Dict[Rules, Any] = {}


def c_arguments(rules: Rules) -> Tuple[Any, Dict[str, int], Dict[str, int], int, bytes, bytes]:
    """What every C game of ``ddz.envs._vector`` is built from for ``rules``: ``(table,
    hand settings, {block: start} of the observation layout, observation size, the deck's
    ranks, its suits)`` (the arguments of ``GameEncoder``, ``VectorCore`` and ``SeatCore``
    before their own)."""
    layout = {name: start for name, start, _ in observation_layout(rules)}
    return (table(rules.move_rules), hand_settings(rules), layout, observation_size(rules),
            DECKS[rules.decks][1], DECK_SUITS[rules.decks])


def _c_encoder(rules: Rules) -> Any:
    """The C encoder of ``rules`` (``ddz.envs._vector.GameEncoder``), or ``None`` without the
    core."""
    enc = _C_ENCODERS.get(rules, False)
    if enc is False:
        enc = None
        if _vector is not None:
            enc = _vector.GameEncoder(*c_arguments(rules))
        _C_ENCODERS[rules] = enc
    return enc


def encode_observation(game: Game, seat: int, out: Optional[np.ndarray] = None) -> npt.NDArray[np.float32]:
    """The observation vector of ``seat`` in ``game`` (layout in the module docstring):
    only what that seat may see (RULES.md §5).

    With the compiled core the vector is written by the C encoder of the vectorised game
    (``ddz.envs._vector``), for every rule set; under ``DDZ_NO_EXTENSIONS=1`` by
    :func:`encode_observation_py`, the reference, which builds it from
    :meth:`ddz.Game.observation`. The test suite requires both to give the same arrays.

    :param game: a :class:`ddz.Game`. :param seat: 0 .. seats - 1.
    :param out: a writeable ``float32[observation_size(rules)]`` array to fill (else a new
        one; a ``float64`` or non-contiguous one is filled by the reference).
    :returns: ``out``. :raises DdzError: not a game, a bad seat or a bad ``out``.
    """
    enc = _c_encoder(_game_arg(game).rules)
    if enc is None or (out is not None and not (type(out) is np.ndarray and out.dtype == np.float32
                                                and out.shape == (enc.obs_size,) and out.flags.c_contiguous
                                                and out.flags.writeable)):
        return encode_observation_py(game, seat, out)
    # the game's own fields (this module is the observation's other half: it reads them as
    # Game.observation() does, without building the Observation): the C hand's struct as it
    # is, or (a game on the reference hand) the fields one by one
    seat, phase, current, ps, hand, face_up = game.raw_hand(seat)
    if out is None:
        out = np.empty(enc.obs_size, np.float32)
    face_seat, face_rank = (-1, 0) if face_up is None else (face_up[0], RANK_CHARS.index(face_up[1][0]))
    if not isinstance(hand, PyHand):
        enc.encode_hand(seat, _PHASE_CODE[phase], -1 if current is None else current, ps, hand, face_seat,
                        face_rank, out)
        return out
    seat, phase, current, ps, hands, left, bottom, lord, bid, robs, bids, doubles, ndoubles, bonus, open_play, \
        face_up = game.raw_observation(seat)
    enc.encode(seat, _PHASE_CODE[phase], -1 if current is None else current, ps, hands, left, bottom,
               -1 if lord is None else lord, bid, robs, bids, doubles, ndoubles, bonus,
               -1 if open_play is None else int(open_play), face_seat, face_rank, out)
    return out


def encode_observation_py(game: Game, seat: int, out: Optional[np.ndarray] = None) -> npt.NDArray[np.float32]:
    """:func:`encode_observation` in plain Python (the reference), built from
    :meth:`ddz.Game.observation`: only what that seat may see.

    :param game: a :class:`ddz.Game`. :param seat: 0 .. seats - 1.
    :param out: a writeable ``float32`` (or ``float64``) array of ``observation_size(rules)``
        to fill (else a new ``float32`` one).
    :returns: ``out``. :raises DdzError: not a game, a bad seat or a bad ``out``.
    """
    enc = _encoder(_game_arg(game).rules)
    seat = seat_arg(seat, game.seats)
    obs = game.observation(seat)
    s, k, at = enc.seats, enc.k, enc.at
    if out is None:
        out = np.zeros(enc.size, np.float32)
    elif not (isinstance(out, np.ndarray) and out.dtype in (np.float32, np.float64) and out.shape == (enc.size,)
              and out.flags.writeable):
        raise DdzError(f"out must be a writeable float32 (or float64) array of shape ({enc.size},), "
                       f"not {quote(out)}")
    else:
        out[:] = 0

    def rel(x: int) -> int:
        return (x - seat) % s

    # the card blocks: hand, played per seat, bottom, open hand in one vectorised encoding
    counts = np.zeros((s + 3, NUM_RANKS), np.int64)
    counts[0] = obs.hand
    last: List[Optional[int]] = [None] * s
    index = enc.index
    if obs.plays:
        who = np.array([w for w, _ in obs.plays], np.int64)
        pids = np.array([index[p] for _, p in obs.plays], np.int64)
        np.add.at(counts, 1 + (who - seat) % s, enc.play_counts[pids])
        for w, pid in zip(who[-s:].tolist(), pids[-s:].tolist()):
            last[(w - seat) % s] = pid
    if obs.bottom is not None:
        counts[s + 1] = obs.bottom
    if obs.open_hand is not None:
        counts[s + 2] = obs.open_hand
    cards = enc.cards(counts)
    out[at["hand"]:at["hand"] + k] = cards[0]
    out[at["played"]:at["played"] + s * k] = cards[1:s + 1].ravel()
    out[at["bottom"]:at["bottom"] + k] = cards[s + 1]
    out[at["open_hand"]:at["open_hand"] + k] = cards[s + 2]
    for r, pid in enumerate(last):
        if pid:
            out[at["last_play"] + r * k:at["last_play"] + (r + 1) * k] = enc.play_enc[pid]
    if obs.to_beat is not None:
        out[at["to_beat"]:at["to_beat"] + k] = enc.play_enc[index[obs.to_beat]]
        out[at["to_beat_seat"] + rel(obs.to_beat_seat)] = 1
    else:
        out[at["to_beat_seat"] + s] = 1
    for x, n in enumerate(obs.cards_left):
        out[at["cards_left"] + rel(x)] = n
    out[at["landlord"] + (s if obs.landlord is None else rel(obs.landlord))] = 1
    out[at["to_act"] + (s if obs.current_player is None else rel(obs.current_player))] = 1
    out[at["phase"] + _PHASE_INDEX[obs.phase]] = 1
    out[at["bid"] + obs.bid] = 1
    spoken = [0] * s
    for who, value in obs.bidding:
        spoken[rel(who)] = 1 + int(value)
    for r, w in enumerate(spoken):
        out[at["auction"] + 5 * r + w] = 1
    for x, d in enumerate(obs.doubles):
        out[at["doubles"] + 3 * rel(x) + (0 if d is None else 1 + int(d))] = 1
    out[at["robs"]] = obs.robs
    out[at["open_play"]] = obs.open_hand is not None
    out[at["log2_multiplier"]] = math.log2(obs.multiplier)
    if obs.face_up is not None:
        who, card = obs.face_up
        out[at["face_up"] + RANK_CHARS.index(card[0])] = 1
        out[at["face_up"] + NUM_RANKS + rel(who)] = 1
    else:
        out[at["face_up"] + NUM_RANKS + s] = 1
    return out
