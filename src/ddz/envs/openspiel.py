"""``python_ddz``: every ``ddz`` rule set as an OpenSpiel game (RULES.md §3–§7;
docs/openspiel.md).

``import ddz.envs.openspiel`` registers the game with OpenSpiel (it imports ``pyspiel``,
which ``import ddz`` never does); then ``pyspiel.load_game("python_ddz", {...})`` gives a
game every Python algorithm of OpenSpiel accepts::

    import pyspiel
    import ddz.envs.openspiel  # registers python_ddz
    game = pyspiel.load_game("python_ddz", {"bidding": "rob", "doubling": True})

Parameters: every field of :class:`ddz.Rules` (``banned`` as ``"TRIO_PAIR,BOMB"``; a str
field left ``""`` takes the rule set's default), ``profile`` (``"openspiel"``: OpenSpiel's
own rules and action ids, move for move its ``dou_dizhu``) and ``start`` (an open endgame
in :class:`ddz.Position` text: no deal, no auction, every hand seen by every seat).

The hand: chance nodes deal one card at a time (first the face-up card's position in the
deal, or the first bidder; then card ``k`` of the deal to seat ``k % seats``; what is left
is the bottom), then the auction, doubling, open play and play of :class:`ddz.Game`,
whose returns are the settlement of RULES.md §6. A deal that everybody passes is dealt
again through chance nodes (``all_pass="redeal"``, at most ``max_redeals`` times).
"""

from __future__ import annotations

import random
from typing import Any, List, Optional

import numpy as np
import pyspiel

from ..core.cards import NUM_RANKS
from ..errors import DdzError, IllegalActionError
from ..game.deal import Deal
from ..game.phase import Phase
from ..game.state import Game
from .openspiel_conf import PARAMETERS, GameConf, ParamError, canonical, game_conf
from . import openspiel_obs as _obs
from . import openspiel_sample as _sample

__all__ = ["DdzGame", "DdzState", "GAME_TYPE", "GAME_NAME", "ParamError", "MIN_OPEN_SPIEL"]

GAME_NAME = "python_ddz"
#: the oldest open_spiel this module is tested with (docs/openspiel.md)
MIN_OPEN_SPIEL = "1.6.0"

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Dou Dizhu (ddz: every rule set)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS)

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_PLAYING = Phase.PLAYING
_OVER = Phase.OVER
_BIDDING = Phase.BIDDING
_DOUBLING = Phase.DOUBLING


class DdzGame(pyspiel.Game):
    """The ``python_ddz`` game of one parameter set (module docstring).

    :param params: OpenSpiel's parameters (``pyspiel.load_game`` fills in the defaults).
    :raises ParamError: parameters that are no rule set (the message names the bad one).
    """

    def __init__(self, params: Optional[dict] = None) -> None:
        params = canonical(dict(PARAMETERS, **(params or {})))
        self.conf = conf = game_conf(params)
        info = pyspiel.GameInfo(
            num_distinct_actions=conf.num_actions,
            max_chance_outcomes=0 if conf.start is not None else conf.card_base + conf.ncards,
            num_players=conf.seats,
            min_utility=-conf.max_utility,
            max_utility=conf.max_utility,
            utility_sum=0.0,
            max_game_length=conf.max_length)
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> "DdzState":
        """A new hand (at its first chance node; at the endgame with ``start``)."""
        return DdzState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """OpenSpiel's observer: perfect recall gives the information state, otherwise
        the seat's observation (docs/openspiel.md)."""
        if params:
            raise ParamError(f"python_ddz observers take no parameters, got {params!r}")
        perfect = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _obs.InfoObserver(self.conf) if perfect else _obs.ObsObserver(self.conf)


class _Core:
    """The Python side of one state: everything that changes, in one object with a cheap
    ``__deepcopy__`` (OpenSpiel clones a Python state by deep-copying its ``__dict__``)."""

    __slots__ = ("conf", "first", "dealt", "deck", "old", "game", "pos", "record", "cur", "ret", "redeals",
                 "start_record")

    def __init__(self, conf: GameConf) -> None:
        self.conf = conf
        self.first: Optional[int] = None       # the first chance outcome (position or seat)
        self.dealt: List[int] = []             # card numbers of this deal, in deal order
        self.deck: Optional[List[int]] = None  # cards not dealt yet (sorted), made on first use
        self.old: List[List[int]] = []         # the deals before a redeal
        self.game: Optional[Game] = None       # the hand, once dealt
        self.pos = conf.start                  # the open endgame (start=...)
        self.record: List[tuple] = []          # (deal, seat, action id, phase code) of every player action
        self.redeals = 0
        self.ret: Optional[List[float]] = None
        self.cur = _CHANCE if conf.start is None else conf.start.to_move

    def __deepcopy__(self, memo: Any) -> "_Core":
        c = _Core.__new__(_Core)
        c.conf = self.conf
        c.first = self.first
        c.dealt = self.dealt[:]
        c.deck = None if self.deck is None else self.deck[:]
        c.old = self.old               # lists of finished deals are never changed
        g = self.game
        c.game = None if g is None else g.clone()
        c.pos = self.pos               # immutable
        c.record = self.record[:]
        c.redeals = self.redeals
        c.ret = self.ret
        c.cur = self.cur
        return c

    def __getstate__(self):
        return {name: getattr(self, name) for name in self.__slots__ if name != "start_record"}

    def __setstate__(self, state):
        for name, value in state.items():
            setattr(self, name, value)


def _conf_of(state: Any) -> GameConf:
    return state.get_game().conf


class DdzState(pyspiel.State):
    """A state of ``python_ddz`` (module docstring). Its Python side is one attribute,
    ``_s``; :attr:`ddz_game` is the wrapped :class:`ddz.Game` once dealt."""

    def __init__(self, game: DdzGame) -> None:
        super().__init__(game)
        self._s = _Core(game.conf)

    def __setstate__(self, state):   # pragma: no cover - OpenSpiel sets attributes one by one
        self.__dict__.update(state)

    # -- views -------------------------------------------------------------------------
    @property
    def ddz_game(self) -> Optional[Game]:
        """The :class:`ddz.Game` of the deal in play (``None`` during the deal and in an
        endgame started with ``start``). Read it; stepping it desynchronises the state."""
        return self._s.game

    @property
    def position(self):
        """The open endgame's current :class:`ddz.Position` (``start`` games), else ``None``."""
        return self._s.pos if self._s.conf.start is not None else None

    def current_player(self) -> int:
        """The seat to act, ``pyspiel.PlayerId.CHANCE`` during the deal, ``TERMINAL``."""
        return self._s.cur

    def is_terminal(self) -> bool:
        """Whether the hand is over (played out, or void)."""
        return self._s.cur == _TERMINAL

    def returns(self) -> List[float]:
        """The settlement of RULES.md §6 per seat (landlord ±2S or ±3S, farmers ∓S; zeros
        for a void hand and before the end)."""
        r = self._s.ret
        return list(r) if r is not None else [0.0] * self._s.conf.seats

    def rewards(self) -> List[float]:
        """The returns at the terminal step, zeros before (terminal rewards)."""
        return self.returns()

    def chance_outcomes(self) -> List[tuple]:
        """``(outcome, probability)`` of the chance node: the first outcomes (position of
        the face-up card, or the first bidder), then every card not dealt yet."""
        s = self._s
        conf = s.conf
        if s.first is None:
            n = conf.first_outcomes
            p = 1.0 / n
            return [(i, p) for i in range(n)]
        deck = s.deck
        if deck is None:
            deck = s.deck = _sample.undealt(conf, s.dealt)
        p = 1.0 / len(deck)
        base = conf.card_base
        return [(base + c, p) for c in deck]

    # legal_actions() and is_chance_node() answered in Python: OpenSpiel's own (C++) ones
    # call back into current_player() and _legal_actions() through its trampolines, the
    # larger part of a Python-driven decision's cost; C++ callers still use those, and a
    # test holds both answers equal.
    def legal_actions(self, player: Optional[int] = None) -> List[int]:
        """The legal actions of the player to act in ascending order: the chance
        outcomes' actions at a chance node, none once terminal; with ``player``,
        OpenSpiel's own ``State.legal_actions(player)``."""
        if player is not None:
            return pyspiel.State.legal_actions(self, player)
        cur = self._s.cur
        if cur >= 0:
            return self._legal_actions(cur)
        if cur == _CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return []

    def is_chance_node(self) -> bool:
        """Whether the deal is being dealt (a chance node)."""
        return self._s.cur == _CHANCE

    def _legal_actions(self, player: int) -> List[int]:
        s = self._s
        g = s.game
        conf = s.conf
        if g is None:
            return _obs.endgame_legal(s) if s.pos is not None else []
        if g.phase is _PLAYING:
            ids = g.legal_ids()
            if conf.openspiel_ids:
                return np.sort(conf.to_os[ids]).tolist()
            return ids.tolist()
        ids = conf.acts.legal_ids(g).tolist()
        if conf.openspiel_ids:
            base = conf.plays - 1
            return [a - base if a else 0 for a in ids]
        return ids

    def _apply_action(self, action: int) -> None:
        s = self._s
        conf = s.conf
        if s.cur == _CHANCE:
            self._deal(s, conf, action)
            return
        g = s.game
        if g is None:
            _obs.endgame_apply(s, action)
            return
        phase = g.phase
        if phase is _PLAYING and not conf.openspiel_ids:
            # the common step (a play by ddz's own id), first and short: its cost is most
            # of a decision's (bench/bench_openspiel.py)
            seat = s.cur
            g.step_id(action)
            s.record.append((s.redeals, seat, action, 3))
            cur = g.current_player
            if cur is not None:
                s.cur = cur
                return
            self._over(s, conf, g)
            return
        a = action
        if conf.openspiel_ids:
            if phase is _PLAYING:
                a = conf.from_os[action] if 0 <= action < len(conf.from_os) else -1
                if a < 0:
                    raise IllegalActionError(f"OpenSpiel action {action} is not a play here")
            elif action:
                a = conf.plays + action - 1
        seat = s.cur
        if phase is _PLAYING:
            g.step_id(a)
            code = 3
        else:
            conf.acts.step(g, a)
            code = 0 if phase is _BIDDING else (1 if phase is _DOUBLING else 2)
        s.record.append((s.redeals, seat, action, code))
        if g.phase is _OVER:
            self._over(s, conf, g)
        else:
            s.cur = g.current_player

    @staticmethod
    def _over(s: _Core, conf: GameConf, g: Game) -> None:
        """The hand just ended: deal again (a void hand, ``all_pass="redeal"``) or settle."""
        res = g.result
        if res.void and conf.redeal and s.redeals < conf.max_redeals:
            s.old = s.old + [s.dealt]
            s.dealt = []
            s.deck = None
            s.game = None
            s.redeals += 1
            s.cur = _CHANCE
            return
        s.ret = [float(x) for x in res.scores]
        s.cur = _TERMINAL

    def _deal(self, s: _Core, conf: GameConf, action: int) -> None:
        if s.first is None:
            if not 0 <= action < conf.first_outcomes:
                raise DdzError(f"chance outcome {action} is not a first outcome 0..{conf.first_outcomes - 1}")
            s.first = action
            return
        c = action - conf.card_base
        deck = s.deck
        if deck is None:
            deck = s.deck = _sample.undealt(conf, s.dealt)
        try:
            deck.remove(c)
        except ValueError:
            raise DdzError(f"chance outcome {action} is not a card left to deal") from None
        s.dealt.append(c)
        if len(s.dealt) == conf.ndealt:
            face = (s.old[0] if s.old else s.dealt)[s.first] if conf.face_up else None
            s.game = new_game(conf, s.first, s.dealt, deck, s.redeals, face)
            s.deck = None
            s.cur = s.game.current_player

    def _action_to_string(self, player: int, action: int) -> str:
        conf = _conf_of(self)
        if player == _CHANCE:
            if action < conf.card_base and self._s.first is None:
                return (f"face-up card at deal position {action}" if conf.face_up
                        else f"seat {action} bids first")
            c = action - conf.card_base
            if not 0 <= c < len(conf.card_text):
                raise DdzError(f"chance outcome {action} is no card of this game "
                               f"({conf.card_base}..{conf.card_base + len(conf.card_text) - 1})")
            return f"deal {conf.card_text[c]}" + (f" of deck {c // 54 + 1}" if conf.decks > 1 else "")
        return _obs.action_text(conf, action, self._s)

    def __str__(self) -> str:
        return _obs.state_text(self._s)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> "DdzState":
        """A state drawn uniformly among the hands consistent with what seat
        ``player_id`` knows here (its own cards, every play, the bottom once shown to it,
        the face-up card, an open hand; a farmer's double it has not seen yet is drawn
        uniformly), with the same actions (docs/openspiel.md).

        :param probability_sampler: a callable returning floats in [0, 1) (OpenSpiel's
            ``UniformProbabilitySampler``), a ``random.Random``, or ``None`` (a fresh one).
        """
        if isinstance(probability_sampler, random.Random):
            rng = probability_sampler
        elif probability_sampler is None:
            rng = random.Random()
        else:
            rng = random.Random(int(probability_sampler() * 2 ** 52))
        return _sample.resample(self, player_id, rng)


def new_game(conf: GameConf, first: int, dealt: List[int], bottom: List[int], redeals: int,
             face_card: Optional[int] = None) -> Game:
    """The :class:`ddz.Game` of a complete deal: card ``k`` of ``dealt`` to seat
    ``k % seats``, ``bottom`` the rest; ``first`` the face-up card's position in the first
    deal (``face_up`` rules: ``face_card`` is that card) or the first bidder."""
    seats = conf.seats
    cards, ranks, key = conf.cards, conf.ranks, conf.card_key.__getitem__
    parts = []
    counts = []
    # card numbers sorted by the Card order (an int key per number: comparing Card objects
    # and counting them through cards_to_counts cost 100 us a deal, most of a game's time)
    for nums in [dealt[i::seats] for i in range(seats)] + [bottom]:
        nums = sorted(nums, key=key)
        parts.append(tuple([cards[c] for c in nums]))
        cnt = [0] * NUM_RANKS
        for c in nums:
            cnt[ranks[c]] += 1
        counts.append(tuple(cnt))
    deal = Deal(tuple(counts[:seats]), counts[seats], tuple(parts))
    if conf.face_up:
        seat = first % seats
        face = (seat, conf.card_text[face_card])
        if redeals == 0:
            return Game(conf.inner, seed=0, deal=deal, face_up=face)
        g = Game(conf.inner, seed=0, deal=deal, first_bidder=seat)
        g.face_up = face   # RULES.md §3: the face-up card is drawn once per hand; a redeal keeps it
        return g
    return Game(conf.inner, seed=0, deal=deal, first_bidder=first)


pyspiel.register_game(GAME_TYPE, DdzGame)


def ddz_action(conf: GameConf, obs: Any, legal: List[Any], action: int) -> Any:
    """The element of ``legal`` (:meth:`ddz.Game.legal_actions`) that is action id
    ``action`` of the game in the phase of ``obs``.

    :raises DdzError: no such element."""
    acts = conf.acts
    phase = obs.phase
    for item in legal:
        if phase is _PLAYING:
            e = acts.space.id(item) if item else 0
            a = int(conf.to_os[e]) if conf.openspiel_ids else e
        else:
            e = acts.env_id(phase, item)
            a = (e - conf.plays + 1 if e else 0) if conf.openspiel_ids else e
        if a == action:
            return item
    raise DdzError(f"action {action} of python_ddz is none of the legal actions {legal!r}")


knowledge_of_observation = _sample.knowledge_of_observation
replay_knowledge = _sample.replay_knowledge
resample = _sample.resample
