"""The whole game: deal, bid, double or play open, play, score (RULES.md §3–§7).

:class:`Game` is a state machine whose :attr:`Game.phase` goes
``bidding → (doubling) → playing → over`` with three players, and
``bidding → opening → playing → over`` with four (``Rules.four_player()``). At every
point one seat is to act (:attr:`Game.current_player`); :meth:`Game.legal_actions` lists
what it may do and :meth:`Game.step` does it. An illegal action raises a
:class:`ddz.DdzError` subclass and leaves the state unchanged.

How each phase reads its actions: :mod:`ddz.game.action_words`.

How a game deals, redeals and picks the first bidder: :mod:`ddz.game.deal`.
"""

from __future__ import annotations

import enum
import random
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Union

import numpy as np

from ..core import arguments as _args
from ..core.cards import is_integer
from .deal import (SEED_LIMIT, Deal, bottom_bonus_factor, bottom_flush, check_bonus_deal, copy_rng, cut_deal,
                   legacy_rng, new_rng, shuffled_deal)
from . import hand as _hand_mod
from ..errors import ActionIdError, ActionTypeError, DdzError, IllegalActionError, quote
from ..core.play import Play
from .playstate import play_state
from .render import render as _render
from ..core.rules import STANDARD, Rules
from ..core.tables import table
from .action_words import GameWords, _face_up_arg, _int_arg, _nth_card
from .ids import GameIds
from .legal_moves import Action, GameLegal, LegalMoves
from .observations import GameViews, Observation
from .phase import _BIDDING, _DOUBLING, _OPENING, _OVER, _PLAYING, BOTTOM_SIZE, HAND_SIZE, SEATS, Phase, seat_arg
from .records import RECORD_FORMAT, RECORD_VERSION, GameRecords
from .results import Result, played_result, void_reason

if TYPE_CHECKING:
    from .actions import ActionSpace

__all__ = ["Game", "Phase", "Deal", "Result", "Observation", "Action", "LegalMoves",
           "SEATS", "HAND_SIZE", "BOTTOM_SIZE", "RECORD_FORMAT", "RECORD_VERSION",
           "bottom_bonus_factor"]

Counts = Tuple[int, ...]


class Game(GameLegal, GameIds, GameWords, GameViews, GameRecords):
    """One hand of Dou Dizhu (RULES.md §3–§6), three players or four (§7, with
    ``Rules.four_player()``).

    :param rules: the :class:`ddz.Rules` (players, kickers, bidding, doubling, bottom bonus...).
    :param seed: an ``int`` ``0 .. 2**64 - 1``, the key of the deal stream that deals, redeals
        and draws the first bidder (:mod:`ddz.game.deal`); ``None`` draws one from the
        operating system (kept in :attr:`seed`).
    :param deal: a deal to use instead of shuffling (see :meth:`Deal.parse`).
    :param first_bidder: the seat (0 .. seats - 1) to speak first; drawn from the generator
        if ``None``.
    :param face_up: with ``Rules.first_bidder="face_up"``, the card turned face up as
        ``(seat, card)``: a card of that seat's dealt hand (its text as in
        :attr:`face_up`: ``"7"`` in a deal of ranks, ``"7H"`` in a suited one); that seat
        bids first (RULES.md §3; to replay another engine's deal, e.g. OpenSpiel's).
        ``None`` (default) draws it from the generator.
    :raises DdzError: ``rules`` is not a :class:`ddz.Rules`, ``seed`` is not an int
        ``0 .. 2**64 - 1``,
        ``first_bidder`` is not a seat (ints and numpy integers are accepted; bools and
        floats are not), ``face_up`` is given with ``first_bidder`` or under rules that
        turn no card, or is not a card of that seat's hand.
    :raises DealError: a bad ``deal``, or an unsuited deal with ``bottom_bonus``.

    Attributes (read-only): :attr:`phase`, :attr:`current_player`, :attr:`landlord`,
    :attr:`result` (``None`` until the hand is over), :attr:`deal`, :attr:`deals` (every
    deal of this hand, redeals included), :attr:`actions` (``(seat, action)`` in order).

    The class is written by concept (DESIGN.md, issue 42): the state and its transitions
    here; its legal actions (:class:`ddz.game.legal_moves.GameLegal`), its env ids in every
    phase (:class:`ddz.game.ids.GameIds`), the words it reads
    (:class:`ddz.game.action_words.GameWords`), what a seat sees
    (:class:`ddz.game.observations.GameViews`) and its records
    (:class:`ddz.game.records.GameRecords`) in mixins that only ``Game`` composes. Only
    those parts read the game's underscore names; every other module reads its public
    surface.
    """

    def __init__(self, rules: Rules = STANDARD, seed: Optional[int] = None,
                 deal: Any = None, first_bidder: Optional[int] = None,
                 face_up: Optional[Tuple[int, str]] = None, *, _legacy: bool = False) -> None:
        # _legacy (records.from_record only): deal with random.Random, as records of
        # version 4 and older did (ddz.game.deal)
        rules = _args.rules_arg(rules)
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 63)
        else:
            seed = _args.seed_arg(seed, "a seed", _LEGACY_LIMIT if _legacy else SEED_LIMIT)
        seats = rules.seats
        if first_bidder is not None:
            first_bidder = _int_arg(first_bidder, f"first_bidder (0..{seats - 1} or None)")
            if not 0 <= first_bidder < seats:
                raise DdzError(f"first_bidder must be a seat 0..{seats - 1} or None, got {first_bidder!r}")
        self.rules = rules
        self.seats = seats
        self._move_rules = rules.move_rules
        self.seed = seed
        self._dealt_from_seed = deal is None
        self._pending: List[Deal] = []
        face = rules.first_bidder == "face_up"
        hand = None
        if deal is None and not _legacy and self._new_hand is _C_NEW_HAND:
            # the product's one route (issue 42): the C hand deals, draws the first bidder
            # (or the face-up card) and later redeals from its own deal stream, the very
            # function every hand of VectorGame starts with (hand_new_hand); Python reads
            # the suited deal back
            self._rng = None
            hand = self._new_hand(rules, 0)
            drawn, k = hand.new_hand(seed)
            dealt_first = drawn
            first = self._dealt(hand)
        else:
            # the reference (no core, a deal given, records of version 4 and older, the
            # lockstep test's PyHand): the deal stream in Python, the same draws
            self._rng = legacy_rng(seed) if _legacy else new_rng(seed)
            first = self._shuffle() if deal is None else Deal.parse(deal, rules)
            # always drawn, so that redeals do not depend on a first_bidder given or not
            k = self._rng.randrange(seats * rules.hand_size) if face else -1
            drawn = -1 if face else self._rng.randrange(seats)
        if rules.bottom_bonus:
            check_bonus_deal(first)
        self.face_up: Optional[Tuple[int, str]] = None
        if face:
            drawn = k // rules.hand_size
            if face_up is not None:
                if first_bidder is not None:
                    raise DdzError("give first_bidder or face_up, not both (the face-up card decides who bids first)")
                self.face_up = _face_up_arg(face_up, first, seats)
                drawn = self.face_up[0]
            elif first_bidder is None:
                self.face_up = (drawn, _nth_card(first, drawn, k % rules.hand_size))
        else:
            if face_up is not None:
                raise DdzError(f"face_up={face_up!r}: only Rules(first_bidder='face_up') turns a card face up, "
                               f"not first_bidder={rules.first_bidder!r}")
        self.first_bidder = drawn if first_bidder is None else first_bidder
        self._deals: List[Deal] = []
        if hand is None:
            hand = self._new_hand(rules, self.first_bidder)     # RULES.md §3-§7: ddz.game.hand
        elif self.first_bidder != dealt_first:
            hand.set_first(self.first_bidder)
        self._hand = hand
        self._actions: List[Tuple[int, Any]] = []
        self._calls: List[int] = []  # indices into _actions of rob-variant calls (vs robs)
        self._npushed = 0            # plays made with push() since the last step: pop() undoes them
        self._space = None
        self._table = table(self._move_rules)
        self._start_deal(first, dealt=self._rng is None)

    # -- set-up --
    def _shuffle(self) -> Deal:
        return shuffled_deal(self._rng, self.rules)

    def _dealt(self, hand: Any) -> Deal:
        """The deal the C hand just dealt, suited (for records and text)."""
        positions, counts = hand.dealt()
        return cut_deal(positions, counts, self.rules)

    # the hand (auction, doubling, open play, redeals, score): the C one, or the reference
    # (ddz.game.hand.new_hand decides; the lockstep test's reference games use PyHand)
    _new_hand = staticmethod(_hand_mod.new_hand)

    def _start_deal(self, deal: Deal, dealt: bool = False) -> None:
        self._deals.append(deal)
        if not dealt:                 # else the C hand dealt it (_C_NEW_HAND)
            self._hand.deal(deal.hands, deal.bottom, bottom_flush(deal))
        self._bids: List[Tuple[int, int]] = []     # this deal's auction, (seat, value)
        self._phase = _BIDDING
        self._current: Optional[int] = self.first_bidder
        self.landlord: Optional[int] = None
        self._ps: Any = None          # the play phase (ddz.game._game.PlayState), from its start
        self._plays: List[Tuple[int, Play]] = []   # cache of `plays` (pop() truncates it)
        self.result: Optional[Result] = None
        self._legal: Optional[list] = None

    def _redeal(self) -> None:
        # shuffled deals have suits; recorded ones were checked by from_record
        if self._rng is None:         # the C hand deals from its own stream
            self._hand.redeal()
            self._start_deal(self._dealt(self._hand), dealt=True)
            return
        deal = self._pending.pop(0) if self._pending else self._shuffle()
        self._start_deal(deal)

    def _void(self, reason: str) -> None:
        """End the hand void: no landlord, no winner, every score 0."""
        self.result = Result.voided(reason, self.seats)
        self._phase = _OVER
        self._current = None
        self._legal = None

    # -- read-only views --
    @property
    def phase(self) -> Phase:
        """The current :class:`Phase`."""
        return self._phase

    @property
    def current_player(self) -> Optional[int]:
        """The seat to act, or ``None`` when the hand is over."""
        return self._current

    @property
    def deal(self) -> Deal:
        """The deal being played (the last one, after redeals)."""
        return self._deals[-1]

    @property
    def deals(self) -> Tuple[Deal, ...]:
        """Every deal of this hand in order (more than one after all-pass redeals)."""
        return tuple(self._deals)

    @property
    def redeals(self) -> int:
        """How many times the hand was void and redealt (RULES.md §3)."""
        return len(self._deals) - 1

    @property
    def actions(self) -> Tuple[Tuple[int, Any], ...]:
        """Every action so far, over all deals, as ``(seat, action)``: bids as ints,
        doubles as bools, plays as :class:`ddz.Play`."""
        return tuple(self._actions) + self.plays

    @property
    def plays(self) -> Tuple[Tuple[int, Play], ...]:
        """Every play of the play phase so far, passes included, as ``(seat, Play)``."""
        ps = self._ps
        if ps is None:
            return ()
        cache = self._plays   # (seat, Play) of the play state's history, extended as it grows
        n = len(ps)
        if len(cache) < n:
            plays = self._table.plays
            cache.extend([(seat, plays[i]) for seat, i in ps.history(len(cache))])
        return tuple(cache)

    @property
    def bid(self) -> int:
        """The highest bid so far (with ``bidding="rob"``: 1 once someone called)."""
        return self._hand.bid

    @property
    def to_beat(self) -> Optional[Play]:
        """The play to beat, or ``None`` when the player to act leads (or not playing).
        Once the hand is over: the last play."""
        ps = self._ps
        if ps is None:
            return None
        b = ps.to_beat
        return self._table.plays[b] if b else None

    @property
    def to_beat_seat(self) -> Optional[int]:
        """The seat that made :attr:`to_beat`, or ``None``."""
        ps = self._ps
        if ps is None or not ps.to_beat:
            return None
        return ps.to_beat_seat

    def hand(self, seat: int) -> Counts:
        """The cards of ``seat`` (15 counts). :raises DdzError: not a seat (0 .. seats - 1)."""
        seat = self._seat_arg(seat)
        ps = self._ps
        if ps is not None:
            return ps.hand(seat)
        return self._hand.hand(seat)

    @property
    def cards_left(self) -> Tuple[int, ...]:
        """Cards left per seat (RULES.md §5: public), a tuple of ints."""
        ps = self._ps
        if ps is not None:
            return ps.cards_left
        return tuple(self._hand.left)

    @property
    def multiplier(self) -> int:
        """The multiplier so far (RULES.md §6): robs, doubles, bottom bonus, bombs and
        rockets played; spring and anti-spring count once the hand is over.

        This is the referee's view: it counts a farmer's double before the other farmer
        has chosen. What a player may see is :meth:`observation` ``.multiplier``."""
        if self.result is not None:
            return self.result.multiplier
        ps = self._ps
        return self._hand.multiplier(0 if ps is None else ps.bombs + ps.rockets)

    @property
    def play_state(self) -> Any:
        """The play phase's state (``ddz.game._game.PlayState``, or the reference's
        ``PyPlayState``), ``None`` before the play phase: for the engine's own readers
        (perft, DouZero's features), which read it and never step it (stepping it behind
        the game's back leaves the game out of step)."""
        return self._ps

    def _seat_arg(self, seat: Any) -> int:
        return seat_arg(seat, self.seats)

    def __repr__(self) -> str:
        return (f"<ddz.Game seed={self.seed} phase={self._phase.value} "
                f"current_player={self._current} landlord={self.landlord}>")

    def __str__(self) -> str:
        """The table as text, every hand shown: :meth:`render` with no seat."""
        return _render(self)

    def render(self, seat: Optional[int] = None) -> str:
        """The table as plain text (like python-chess's ``str(board)``): the seed, the
        phase and who is to act; the bid, multiplier and bottom cards; a row per seat with
        its role, cards left, hand grouped by rank and what it said or played in the
        current trick; the play to beat; the result once the hand is over. Every phase of
        the three- and four-player game is drawn (auction, doubling, open play, play,
        over, void). ``str(game)`` is ``game.render()``. Layout: :mod:`ddz.game.render`.

        :param seat: ``None`` (default): the referee's view, every hand shown. A seat
            (0 .. seats - 1): what that seat may see (RULES.md §5, :meth:`observation`):
            its own hand, the landlord's when it plays open (§7), the bottom cards once
            shown to it, the multiplier it may know; the other hands read ``hidden``
            until the hand is over.
        :returns: a ``str`` of several lines, no trailing newline.
        :raises DdzError: ``seat`` is not a seat.
        """
        return _render(self, seat)

    def _repr_html_(self) -> str:
        """The table in a notebook (Jupyter): every hand drawn with the SVG cards of
        ``ddz serve``, the bottom, the bid, the multiplier and the result
        (:func:`ddz.web.cards.game_html`; imported here, so ``import ddz`` stays light)."""
        from ..web.cards import game_html   # the one upward import (DESIGN.md): a notebook's view, from ddz.web
        return game_html(self)

    def step_id(self, action_id: Union[int, np.integer[Any]]) -> None:
        """Take the action of env id ``action_id`` (:mod:`ddz.game.ids`), in every phase
        (RULES.md §3-§5, §7): in the play phase an id of :attr:`action_space`, the same as
        ``step(action_space.play(action_id))`` without building or parsing a Play on the
        way in; before it, 0 (the pass, not doubling, not playing open) or an auction id
        ``P + k`` (bid 1..3, call/rob, double, open: :meth:`legal_ids`).

        :param action_id: an ``int`` or numpy integer.
        :raises ActionTypeError: not an integer (an :class:`ActionIdError` and a
            :class:`TypeError`), in any phase.
        :raises ActionIdError: not an env id (``0 .. num_ids - 1``).
        :raises IllegalActionError: an id of another phase, or not legal here (the
            message says why, as :meth:`step` does).
        :raises NotInHandError: a play whose cards the player does not hold.

        On any error the state is unchanged. Like :meth:`step`, it ends the undo history of
        :meth:`push`.
        """
        ps = self._ps
        if ps is not None and type(action_id) is int:
            # the hot path of RL loops: one call into the play state, which refuses
            # anything illegal (and every id once the hand is over) without changing
            try:
                seat = ps.advance(action_id)
            except OverflowError:
                seat = -2
            if seat >= 0:
                self._current = seat
                self._npushed = 0
                return
            if seat == -1:            # the play ended the hand
                self._after_play(ps)
                return
        if not is_integer(action_id) or isinstance(action_id, enum.Enum):
            raise ActionTypeError(f"an action id is an int, not {type(action_id).__name__}: {quote(action_id)}")
        if self._phase is not _PLAYING:
            self.step(self.action_of_id(action_id))   # a word of the auction (ddz.game.ids), or raises
            return
        action_id = int(action_id)
        if 0 <= action_id < len(self._table.plays) and ps.step(action_id):
            self._after_play(ps)
            return
        if action_id >= len(self._table.plays):
            self.action_of_id(action_id)              # raises: out of range, or an id of the auction
        play = self.action_space.play(action_id)   # raises ActionIdError out of range
        self.step(play)                               # raises, naming why it is illegal
        raise AssertionError("unreachable: step() accepted an id that the play state refused")  # pragma: no cover

    def _after_play(self, ps: Any) -> None:
        """Bookkeeping after the play state took a step (any step ends the push history)."""
        self._npushed = 0
        self._moved(ps)

    def _moved(self, ps: Any) -> None:
        """The play state moved on: the next seat acts, or the hand is over."""
        c = ps.current
        if c >= 0:
            self._current = c
        else:
            self._finish(ps.winner)

    @property
    def action_space(self) -> ActionSpace:
        """The ``ddz.game.actions.ActionSpace`` of the game's move rules (shared, immutable)."""
        space = self._space
        if space is None:
            space = self._space = _action_space(self._move_rules)
        return space

    def position(self) -> Any:
        """The play-phase position as a :class:`ddz.Position` (perfect information: every
        hand), for :func:`ddz.solve`. :raises DdzError: not in the play phase."""
        from .position import Position   # import floors (DESIGN.md): the game module stays below the position
        return Position.from_game(self)

    # -- acting --
    def step(self, action: Action) -> None:
        """Let :attr:`current_player` take ``action`` (see the module docstring).

        :param action: a bid, a double choice, a :class:`ddz.Play` or play notation.
        :raises IllegalActionError: an action of the wrong kind for the phase, a bid not
            above the highest, a pass when leading, a play that does not beat the play
            to beat, or any action once the hand is over.
        :raises NotInHandError: a play whose cards the player does not hold.
        :raises InvalidPlayError, NotationError: notation or a ``Play`` that is no play
            under the rules.

        On any error the state is unchanged. A step ends the undo history of :meth:`push`.
        """
        phase = self._phase
        if phase is _PLAYING:
            ps = self._ps
            pid = self._table.index_of_play.get(action) if isinstance(action, Play) else None
            if pid is None or not ps.step(pid):
                pid = self._play_arg(action)
                ps.step(pid)
            self._after_play(ps)
            return
        if phase is _BIDDING:
            self._apply_bid(self._bid_arg(action))
        elif phase is _DOUBLING:
            self._apply_double(self._double_arg(action))
        elif phase is _OPENING:
            self._apply_open(self._open_arg(action))
        else:
            raise IllegalActionError(f"the hand is over; no action is legal (got {action!r})")
        self._npushed = 0

    # -- transitions (trusted arguments): the hand decides, the game keeps the record --
    def _apply_bid(self, value: int) -> None:
        seat = self._current
        self._actions.append((seat, value))
        if value and self.rules.bidding == "rob" and not any(v for _, v in self._bids):
            self._calls.append(len(self._actions) - 1)      # the first call (the record's word)
        self._bids.append((seat, value))
        self._word(value)

    def _apply_open(self, value: bool) -> None:
        """The four-player landlord plays open (亮牌, ×3) or not (RULES.md §7)."""
        self._actions.append((self._current, value))
        self._word(int(value))

    def _apply_double(self, value: bool) -> None:
        """A double or redouble (RULES.md §4)."""
        self._actions.append((self._current, value))
        self._word(int(value))

    def _word(self, value: int) -> None:
        """The hand takes a word of the auction, doubling or open play; the game follows."""
        h = self._hand
        status = h.step(value)
        self._legal = None
        if status == _hand_mod.HAND_VOID:
            self._void(void_reason(self.rules, len(self._deals)))
            return
        if status == _hand_mod.HAND_DEAL:
            self._redeal()
            return
        self.landlord = h.landlord
        phase = h.phase
        if phase == _hand_mod.PLAYING:
            self._phase = _PLAYING
            self._current = self.landlord
            self._ps = play_state(self._table, [h.hand(s) for s in range(self.seats)], self.landlord,
                                  doubling_bombs=self.rules.doubling_bombs)
        else:
            self._phase = _PHASES[phase]
            self._current = h.current

    def _finish(self, seat: int) -> None:
        """``seat`` played its last card: score the hand (RULES.md §6)."""
        self.result = played_result(self._hand, self._ps, self.landlord, seat, self.seats)
        self._phase = _OVER
        self._current = None

    # undo, for search (perft, bots, solvers): only the play phase
    def push(self, play: Play) -> None:
        """Play one of :meth:`legal_actions` (play phase) so that :meth:`pop` can undo it:
        the search API (perft, bots, solvers). Legality is a fit check and one comparison
        in the play state; anything else is refused and the game is unchanged.

        :param play: a :class:`ddz.Play` legal here.
        :raises IllegalActionError: not in the play phase, not a Play, or not legal here.
        """
        if self._phase is not _PLAYING:
            raise IllegalActionError(f"push() plays in the play phase; the phase is {self._phase.value!r}")
        pid = self._table.index_of_play.get(play) if isinstance(play, Play) else None
        ps = self._ps
        if pid is None or not ps.step(pid):
            raise IllegalActionError(f"push() takes one of legal_actions(), not {play!r}")
        self._npushed += 1
        self._moved(ps)

    def pop(self) -> Play:
        """Undo the last :meth:`push`; returns the play undone (:meth:`step` and
        :meth:`step_id` end the push history: only pushes are undone).

        :raises IllegalActionError: nothing pushed to undo.
        """
        if not self._npushed:
            raise IllegalActionError("nothing to pop: pop() undoes plays made with push()")
        self._npushed -= 1
        ps = self._ps
        pid = ps.pop()
        del self._plays[len(ps):]
        self._current = ps.current
        if self._phase is _OVER:
            self._phase = _PLAYING
            self.result = None
        return self._table.plays[pid]

    # -- copies --
    def __getstate__(self) -> Dict[str, Any]:
        # the shared table and action space are looked up again, not pickled; the C hand
        # travels as its state (its settings are the rules')
        d = self.__dict__.copy()
        d["_table"] = None
        d["_space"] = None
        if not isinstance(self._hand, _hand_mod.PyHand):
            d["_hand"] = ("CHand", self._hand.state())
        return d

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._table = table(self._move_rules)
        h = self._hand
        if isinstance(h, tuple):
            self._hand = _hand_mod.new_hand(self.rules, self.first_bidder)
            if isinstance(self._hand, _hand_mod.PyHand):
                raise DdzError("this game was pickled with the compiled core; unpickle it with the core")
            self._hand.restore(h[1])

    def __copy__(self) -> "Game":
        return self.clone()

    def __deepcopy__(self, memo) -> "Game":
        return self.clone()

    def clone(self) -> "Game":
        """An independent copy (cheap: copies a few lists; cards and plays are immutable).

        The copy shares nothing mutable with the original and has the same seed
        generator state, so it redeals identically. It starts with no :meth:`push` history
        (a pickled copy keeps it).
        """
        g = Game.__new__(Game)
        d = self.__dict__.copy()
        d["_rng"] = None if self._rng is None else copy_rng(self._rng)
        for name in ("_pending", "_deals", "_actions", "_calls", "_bids", "_plays"):
            d[name] = list(d[name])
        d["_hand"] = self._hand.copy()
        d["_legal"] = None
        d["_npushed"] = 0
        if self._ps is not None:
            d["_ps"] = self._ps.copy()
        g.__dict__ = d
        return g


_PHASES = (_BIDDING, _DOUBLING, _OPENING, _PLAYING, _OVER)     # by the hand's phase number
#: seeds of records of version 4 and older (random.Random takes any int >= 0)
_LEGACY_LIMIT = float("inf")
#: the hand maker whose hands deal for themselves (the compiled one), or None without the core
_C_NEW_HAND = _hand_mod.new_hand if _hand_mod.COMPILED else None


def _action_space(rules: Rules):
    """The :class:`ddz.ActionSpace` of ``rules.move_rules``, kept on the rule set's table."""
    from .actions import ActionSpace  # written alongside; imported lazily
    derived = table(rules).derived
    space = derived.get("action_space")
    if space is None:
        space = derived["action_space"] = ActionSpace(rules.move_rules)
    return space
