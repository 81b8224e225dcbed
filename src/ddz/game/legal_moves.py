"""The legal actions of the seat to act: :meth:`ddz.Game.legal_actions`, their ids,
the timeout action, and the live :class:`LegalMoves` view (RULES.md §3–§5)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, List, Union

import numpy as np

from ..core.cards import NUM_RANKS
from ..core.play import PASS, Play, PlayType
from ..errors import DdzError, IllegalActionError, quote
from .phase import _BIDDING, _DOUBLING, _OPENING, _OVER, _PLAYING

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["LegalMoves", "Action", "GameLegal"]

Action = Union[Play, str, int, bool]


class GameLegal:
    """The legal actions of :class:`ddz.Game` (a part of the class, by concept: the game's
    state lives in ``ddz.game.state``, which composes this mixin)."""

    __slots__ = ()

    def legal_actions(self) -> List[Action]:
        """The legal actions of :attr:`current_player` (RULES.md §3–§5), in a fixed order.

        :returns: a new list: bids ``[0, b+1, ..., 3]`` (``0`` is the pass) or ``[0, 1]``
            (rob variant: pass, call/rob); ``[False, True]`` when doubling; when playing,
            :class:`ddz.Play` values in the move order of :func:`ddz.legal_moves` (the
            pass first when responding); ``[]`` when the hand is over.
        """
        if self._phase is _PLAYING:
            return self._ps.legal_plays()
        legal = self._legal
        if legal is None:
            legal = self._compute_legal()
        return list(legal)

    def _compute_legal(self) -> list:
        phase = self._phase
        if phase is _PLAYING:
            return self._ps.legal_plays()
        if phase is _BIDDING:
            legal = self._hand.legal_values()
        elif phase is _DOUBLING or phase is _OPENING:
            legal = [False, True]
        else:
            legal = []
        self._legal = legal
        return legal

    def legal_action_ids(self) -> npt.NDArray[np.int32]:
        """The legal plays as action ids of ``ddz.game.actions.ActionSpace(rules)`` (play phase).

        Ids are those of :attr:`action_space` (id 0 is the pass), ascending, which is the
        order of :meth:`legal_actions`; :meth:`step_id` plays one, and ``space.play(i)``
        turns an id back into the :class:`ddz.Play`. One kernel call on the play state.

        Deprecated spelling (issue 42, no warning: RL loops call it at every step):
        :meth:`legal_ids` gives the same ids in the play phase and the auction's ids before.

        :returns: a new numpy ``int32`` array.
        :raises IllegalActionError: not in the play phase (use :meth:`legal_ids`).
        """
        if self._phase is _PLAYING:
            return self._ps.legal_ids()
        raise IllegalActionError(f"action ids exist only in the play phase; the phase is {self._phase.value!r}")


    def timeout_action(self) -> Action:
        """What :attr:`current_player` does on a timeout (RULES.md §5): pass when bidding
        (bid 1 when the four-player forced bid forbids the pass), not double, not play
        open, pass when responding, and when leading its lowest single card.

        :returns: the action (pass it to :meth:`step`).
        :raises IllegalActionError: the hand is over.
        """
        phase = self._phase
        if phase is _BIDDING:
            return self._compute_legal()[0]     # the pass, or the lowest bid when it is forced
        if phase is _DOUBLING or phase is _OPENING:
            return False
        if phase is _PLAYING:
            ps = self._ps
            if ps.to_beat:
                return PASS
            hand = ps.hand(ps.current)
            low = next(r for r in range(NUM_RANKS) if hand[r])
            return self._table.plays[self._table.index_of_play[Play(PlayType.SINGLE, low, 1)]]
        raise IllegalActionError("the hand is over: nobody is to act")

    @property
    def legal_moves(self) -> "LegalMoves":
        """A live view of the legal moves of :attr:`current_player` (python-chess style):
        ``len()``/``count()``, ``bool()``, ``play in view`` (a fit check and one
        comparison, nothing listed), iteration and indexing in the order of
        :meth:`legal_actions`. It always shows the game's current position."""
        return LegalMoves(self.legal_actions, self._count_legal, self._is_legal_action, self._is_over)

    def _count_legal(self) -> int:
        if self._phase is _PLAYING:
            return self._ps.count()
        return len(self.legal_actions())

    def _is_over(self) -> bool:
        return self._phase is _OVER

    def _is_legal_action(self, action: object) -> bool:
        if self._phase is not _PLAYING:
            return any(type(a) is type(action) and a == action for a in self.legal_actions())
        if isinstance(action, str):
            try:
                action = Play.parse(action, self._move_rules)
            except DdzError:
                return False
        if not isinstance(action, Play):
            return False
        pid = self._table.index_of_play.get(action)
        return pid is not None and self._ps.legal(pid)


class LegalMoves:
    """The live view of :attr:`Game.legal_moves` (python-chess style): the legal actions
    of the seat to act in the game's current position, whatever it is when asked.

    ``len(view)`` and ``view.count()`` count them (in the play phase without listing
    them); ``bool(view)`` is ``False`` only once the hand is over; ``action in view``
    tests one action (in the play phase a :class:`ddz.Play` or notation, by a fit check
    and one comparison); iteration and indexing follow :meth:`Game.legal_actions`.

    Made by the game, from its own bound methods (it reads nothing of the game's state).
    """

    __slots__ = ("_actions", "_count", "_contains", "_over")

    def __init__(self, actions: Callable[[], list], count: Callable[[], int],
                 contains: Callable[[object], bool], over: Callable[[], bool]) -> None:
        self._actions = actions
        self._count = count
        self._contains = contains
        self._over = over

    def count(self) -> int:
        """How many legal actions the seat to act has (0 once over)."""
        return self._count()

    __len__ = count

    def __bool__(self) -> bool:
        # every phase but the end has a legal action: a pass, a bid, or any single
        return not self._over()

    def __contains__(self, action: object) -> bool:
        return self._contains(action)

    def __iter__(self):
        return iter(self._actions())

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, bool) or not isinstance(index, (int, np.integer, slice)):   # a list reads True as 1
            raise DdzError(f"legal moves are indexed by an int or a slice, not {quote(index)} ({type(index).__name__})")
        return self._actions()[index]

    def __repr__(self) -> str:
        acts = self._actions()
        shown = ", ".join(str(a) for a in acts[:10]) + (", ..." if len(acts) > 10 else "")
        return f"<ddz.LegalMoves ({len(acts)}): {shown}>"
