"""Action ids in every phase (issue 42): the env ids of :class:`ddz.Game`
(:meth:`ddz.Game.legal_ids`, :meth:`ddz.Game.action_mask`, :meth:`ddz.Game.step_id`).

The one numbering of a hand's actions, the C hand's (``ddz.game._game``: ``hand_count_ids``,
``hand_write_ids``, ``hand_is_legal``, ``hand_apply``; every game of
:class:`ddz.envs.VectorGame`) and every environment's: ids ``0 .. P - 1`` are the plays of
:class:`ddz.ActionSpace` (``P`` plays, id 0 the pass), then, by offset from ``P``, bid 1,
bid 2, bid 3, call/rob, double, play open (:data:`AUCTION_ACTIONS`). The pass, not
doubling and not playing open are id 0 (the pass), so a hand's ids need ``P + 6`` values
in all. A play's id keeps its meaning: ``step_id`` of a play id does what it always did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from ..core.cards import is_integer
from ..errors import ActionIdError, ActionTypeError, DdzError, IllegalActionError, quote
from .phase import _BIDDING, _DOUBLING, _OPENING, _PLAYING, Phase

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["AUCTION_ACTIONS", "BID_1", "CALL", "DOUBLE", "OPEN", "AUCTION_IDS", "GameIds", "word_id", "id_word"]

#: the auction's actions after the play ids, by offset from ``P`` (the C hand's numbering)
AUCTION_ACTIONS = ("bid 1", "bid 2", "bid 3", "call/rob", "double", "open")
#: their offsets from ``P``: bid ``v`` is ``P + BID_1 + v - 1``
BID_1, CALL, DOUBLE, OPEN = 0, 3, 4, 5
#: how many ids follow the plays
AUCTION_IDS = len(AUCTION_ACTIONS)


def word_id(phase: Phase, word: Any, plays: int, rob: bool) -> int:
    """The env id of a legal word of the auction's phases (trusted): a bid ``0..3``
    (``rob``: 0 pass, 1 call/rob) or a bool (doubling, opening); ``plays`` is ``P``."""
    if not word:
        return 0
    if phase is _BIDDING:
        return plays + CALL if rob else plays + BID_1 + int(word) - 1
    return plays + (DOUBLE if phase is _DOUBLING else OPEN)


def id_word(phase: Phase, action_id: int, plays: int, rob: bool) -> Any:
    """The word of env id ``action_id`` (an int ``0 .. P + 5``) in ``phase``, one of the
    auction's: a bid int, or a bool for doubling and opening; ``None`` when the id is none
    of that phase's."""
    a = action_id - plays
    if phase is _BIDDING:
        if action_id == 0:
            return 0
        if rob:
            return 1 if a == CALL else None
        return a - BID_1 + 1 if BID_1 <= a < BID_1 + 3 else None
    if phase is _DOUBLING or phase is _OPENING:
        if action_id == 0:
            return False
        return True if a == (DOUBLE if phase is _DOUBLING else OPEN) else None
    return None


class GameIds:
    """:class:`ddz.Game`'s env ids in every phase (a part of the class, by concept: the
    game's state lives in ``ddz.game.state``, which composes this mixin)."""

    __slots__ = ()

    @property
    def num_ids(self) -> int:
        """How many env ids the game's rules have: ``P + 6`` (module docstring)."""
        return len(self._table.plays) + AUCTION_IDS

    def legal_ids(self) -> npt.NDArray[np.int32]:
        """The legal actions of :attr:`current_player` as env ids, ascending, in every phase
        (module docstring): the play ids of :attr:`action_space` while playing (as
        :meth:`legal_action_ids`), the auction's ids before (the C hand's own, through
        ``hand_write_ids``, when the core is built).

        :returns: a new numpy ``int32`` array (empty once the hand is over).
        """
        phase = self._phase
        if phase is _PLAYING:
            return self._ps.legal_ids()
        if self._current is None:
            return np.zeros(0, np.int32)
        ids = getattr(self._hand, "legal_ids", None)      # the C hand's (CHand), or the table below
        if ids is not None:
            return ids()
        plays, rob = len(self._table.plays), self.rules.bidding == "rob"
        legal = self._legal if self._legal is not None else self._compute_legal()
        return np.array(sorted(word_id(phase, w, plays, rob) for w in legal), np.int32)

    def action_mask(self, out: Optional[np.ndarray] = None) -> npt.NDArray[np.int8]:
        """:meth:`legal_ids` as a 0/1 mask over every env id, in every phase.

        :param out: a writeable ``int8[num_ids]`` array to fill, or ``None`` for a new one.
        :returns: ``out`` (or the new array).
        :raises DdzError: ``out`` is not a writeable ``int8`` array of shape ``(num_ids,)``.
        """
        size = self.num_ids
        if out is None:
            out = np.zeros(size, np.int8)
        elif not (isinstance(out, np.ndarray) and out.dtype == np.int8 and out.shape == (size,)
                  and out.flags.writeable):
            raise DdzError(f"out must be a writeable int8 array of shape ({size},), not {quote(out)}")
        else:
            out[:] = 0
        out[self.legal_ids()] = 1
        return out

    def action_of_id(self, action_id: Any) -> Any:
        """The :meth:`step` action of env id ``action_id`` in the current phase: a
        :class:`ddz.Play` while playing, a bid int, or a bool (doubling, opening). Legality
        is :meth:`step`'s question.

        :raises ActionTypeError: not an integer (also a :class:`TypeError`).
        :raises ActionIdError: an integer outside ``0 .. num_ids - 1``.
        :raises IllegalActionError: an id of another phase (a bid while playing), or any
            id once the hand is over.
        """
        if not is_integer(action_id):
            raise ActionTypeError(f"an action id is an int 0..{self.num_ids - 1}, not "
                                  f"{type(action_id).__name__}: {quote(action_id)}")
        a = int(action_id)
        plays = len(self._table.plays)
        if not 0 <= a < plays + AUCTION_IDS:
            raise ActionIdError(f"action id {a} is out of range 0..{plays + AUCTION_IDS - 1}")
        phase = self._phase
        if phase is _PLAYING:
            if a < plays:
                return self._table.plays[a]
            word = None
        else:
            word = id_word(phase, a, plays, self.rules.bidding == "rob")
        if word is None:
            if self._current is None:
                raise IllegalActionError(f"the hand is over: no action is legal (got action id {a})")
            what = "pass" if a == 0 else (str(self._table.plays[a]) if a < plays else AUCTION_ACTIONS[a - plays])
            raise IllegalActionError(f"action id {a} ({what}) is not an action of the {phase.value} phase")
        return word
