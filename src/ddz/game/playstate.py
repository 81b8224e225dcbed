"""The play phase in plain Python: the twin of the core's ``ddz.game._game.PlayState``.

:class:`PyPlayState` has the methods and properties of the compiled ``PlayState`` (see
its module docstring for the rules of play it steps: RULES.md §5) and decides legality
with :mod:`ddz.core.reference` alone, so a test can step both through the same games and
compare every position. :class:`ddz.Game` uses it when the core is not built
(``DDZ_NO_EXTENSIONS=1``); :func:`play_state` returns whichever is active.

The deal's generator and its twin are :mod:`ddz.game.deal`'s.
"""

from __future__ import annotations

from typing import Any, List, Sequence, Tuple

import numpy as np

from ..core import reference
from ..core.implementation import compiled
from ..core.cards import deck_counts
from ..core.play import PlayType
from ..core.tables import table

__all__ = ["PyPlayState", "play_state"]

_game = compiled("game._game", "the compiled play phase (ddz.game._game)")


class PyPlayState:
    """A play-phase position stepped by action id (RULES.md §5), in plain Python.

    :param table: the rule set's table (``ddz.core.tables.table(rules)``): its ``plays``,
        ``index_of_play`` and ``rules`` are used.
    :param hands: one 15-count sequence per seat, 2 to 4 seats.
    :param to_move: the seat to act. :param to_beat: the id of the play to beat (0:
        leading). :param beat_seat: who made it. :param passes: passes since.
    :param doubling_bombs: which bombs ``bombs``/``rockets`` count (``Rules.doubling_bombs``).
    :raises ValueError: as the compiled ``PlayState``.
    """

    def __init__(self, table: Any, hands: Sequence[Sequence[int]], to_move: int, to_beat: int = 0,
                 beat_seat: int = -1, passes: int = 0, doubling_bombs: str = "all") -> None:
        rules = table.rules
        opts = rules.move_options
        deck = [int(c) for c in deck_counts(opts.decks)]
        self.table = table
        self._rules = rules
        self._plays = table.plays
        hands = [tuple(int(c) for c in np.asarray(h).reshape(-1).tolist()) for h in hands]
        n = len(hands)
        if not 2 <= n <= 4:
            raise ValueError(f"a play-phase position has 2 to 4 hands, got {n}")
        for s, h in enumerate(hands):
            if len(h) != 15 or any(c < 0 or c > d for c, d in zip(h, deck)):
                raise ValueError(f"hand {s} is not 15 counts within the deck")
            if sum(h) > opts.max_hand:
                raise ValueError(f"hand {s} holds {sum(h)} cards, more than {opts.max_hand}")
        if any(sum(col) > d for col, d in zip(zip(*hands), deck)):
            raise ValueError("the hands together hold more cards than the deck")
        if not 0 <= to_move < n:
            raise ValueError(f"to_move {to_move} is not a seat of {n}")
        if doubling_bombs not in ("all", "beating", "six_plus"):
            raise ValueError(f"doubling_bombs must be 'all', 'beating' or 'six_plus', got {doubling_bombs!r}")
        self.doubling_bombs = doubling_bombs
        self.seats = n
        self._hands: List[Tuple[int, ...]] = hands
        self._left = [sum(h) for h in hands]
        self._nplays = [0] * n
        if to_beat:
            if not 0 < to_beat < len(self._plays) or self._plays[to_beat].type in rules.excluded:
                raise ValueError(f"to_beat {to_beat} is no play of the table")
            if not 0 <= beat_seat < n or beat_seat == to_move:
                raise ValueError(f"beat_seat {beat_seat} is not another seat of {n}")
            if not 0 <= passes <= n - 2:
                raise ValueError(f"passes {passes} is not 0..{n - 2}")
            self._beat, self._beat_seat, self._passes = int(to_beat), beat_seat, passes
        else:
            self._beat, self._beat_seat, self._passes = 0, -1, 0
        self._cur = to_move
        self._bombs = self._rockets = 0
        self._win = -1
        self._hist: List[Tuple[int, int, int, int, int]] = []
        self._legal: Any = None
        for s in range(n):
            if self._left[s] == 0:
                self._win, self._cur = s, -1

    # -- the position --
    current = property(lambda self: self._cur, doc="The seat to act, or -1 once over.")
    to_beat = property(lambda self: self._beat, doc="The id of the play to beat (0: leading).")
    to_beat_seat = property(lambda self: self._beat_seat, doc="Who made it, or -1.")
    passes = property(lambda self: self._passes, doc="Passes since the last play.")
    winner = property(lambda self: self._win, doc="The seat that went out, or -1.")
    cards_left = property(lambda self: tuple(self._left), doc="Cards left per seat.")
    plays_made = property(lambda self: tuple(self._nplays), doc="Plays (not passes) per seat.")
    bombs = property(lambda self: self._bombs, doc="Bombs played that double the score.")
    rockets = property(lambda self: self._rockets, doc="Rockets played that double the score.")

    def _doubles(self, play: Any, beat: int) -> bool:
        """RULES.md §6, ``Rules.doubling_bombs``: does this BOMB or ROCKET double the score?"""
        rule = self.doubling_bombs
        if rule == "all":
            return True
        if rule == "beating":
            return beat != 0
        return play.type is PlayType.ROCKET or play.num_cards >= 6

    def hand(self, seat: int) -> Tuple[int, ...]:
        """The 15 counts of ``seat``. :raises IndexError: not a seat."""
        if not 0 <= seat < self.seats:
            raise IndexError(f"seat {seat} of {self.seats}")
        return self._hands[seat]

    def hand_array(self, seat: int) -> np.ndarray:
        """The 15 counts of ``seat`` as a new read-only ``uint8[15]`` array."""
        a = np.array(self.hand(seat), dtype=np.uint8)
        a.flags.writeable = False
        return a

    def history(self, start: int = 0) -> List[Tuple[int, int]]:
        """The steps from number ``start`` on, as ``(seat, id)``."""
        return [(h[0], h[1]) for h in self._hist[max(start, 0):]]

    def __len__(self) -> int:
        return len(self._hist)

    # -- legal moves (the reference decides) --
    def _moves(self) -> List[int]:
        if self._legal is None:
            if self._cur < 0:
                self._legal = []
            else:
                beat = self._plays[self._beat] if self._beat else None
                index = self.table.index_of_play
                self._legal = [index[p] for p in
                               reference.trusted_legal_moves(self._hands[self._cur], beat, self._rules)]
        return self._legal

    def legal_ids(self) -> np.ndarray:
        """The legal ids, a new ``int32`` array in move order."""
        return np.array(self._moves(), dtype=np.int32)

    def legal_plays(self) -> list:
        """The legal plays, a new list of the table's :class:`ddz.Play` objects."""
        plays = self._plays
        return [plays[i] for i in self._moves()]

    def count(self) -> int:
        """How many legal moves the seat to act has."""
        return len(self._moves())

    def legal(self, pid: int) -> bool:
        """Whether id ``pid`` is legal here (``False`` out of range and once over)."""
        if self._cur < 0 or not 0 <= pid < len(self._plays):
            return False
        if pid == 0:
            return self._beat != 0
        play = self._plays[pid]
        if play.type in self._rules.excluded:
            return False
        if any(c > h for c, h in zip(play.counts, self._hands[self._cur])):
            return False
        if not reference.fits(play, self._hands[self._cur], self._rules):
            return False
        return self._beat == 0 or reference.trusted_beats(play, self._plays[self._beat], self._rules)

    # -- stepping --
    def step(self, pid: int) -> bool:
        """Play ``pid`` if legal (``True``); otherwise change nothing (``False``)."""
        if not self.legal(pid):
            return False
        self._apply(int(pid))
        return True

    def advance(self, pid: int) -> int:
        """:meth:`step`, answering the seat to act now, -1 when the hand ended, -2 when
        ``pid`` was not legal (nothing changed)."""
        if not self.legal(pid):
            return -2
        self._apply(int(pid))
        return self._cur

    def _apply(self, pid: int) -> None:
        seat = self._cur
        self._hist.append((seat, pid, self._beat, self._beat_seat, self._passes))
        self._legal = None
        if pid == 0:
            self._passes += 1
            if self._passes == self.seats - 1:
                self._beat, self._beat_seat, self._passes = 0, -1, 0
            self._cur = (seat + 1) % self.seats
            return
        play = self._plays[pid]
        self._hands[seat] = tuple(h - c for h, c in zip(self._hands[seat], play.counts))
        self._left[seat] -= play.num_cards
        self._nplays[seat] += 1
        if play.type is PlayType.BOMB and self._doubles(play, self._beat):
            self._bombs += 1
        elif play.type is PlayType.ROCKET and self._doubles(play, self._beat):
            self._rockets += 1
        self._beat, self._beat_seat, self._passes = pid, seat, 0
        if self._left[seat] == 0:
            self._win, self._cur = seat, -1
        else:
            self._cur = (seat + 1) % self.seats

    def pop(self) -> int:
        """Undo the last step; its id, or -1 when there is none."""
        if not self._hist:
            return -1
        seat, pid, self._beat, self._beat_seat, self._passes = self._hist.pop()
        if pid:
            play = self._plays[pid]
            self._hands[seat] = tuple(h + c for h, c in zip(self._hands[seat], play.counts))
            self._left[seat] += play.num_cards
            self._nplays[seat] -= 1
            if play.type is PlayType.BOMB and self._doubles(play, self._beat):
                self._bombs -= 1
            elif play.type is PlayType.ROCKET and self._doubles(play, self._beat):
                self._rockets -= 1
        self._cur, self._win, self._legal = seat, -1, None
        return pid

    def perft(self, depth: int) -> int:
        """Leaves of the legal-move tree of ``depth`` plies; the state is restored."""
        if depth < 0:
            raise ValueError("depth must be >= 0")
        if depth == 0:
            return 1
        if self._cur < 0:
            return 0
        if depth == 1:
            return self.count()
        total = 0
        for pid in list(self._moves()):
            self._apply(pid)
            total += self.perft(depth - 1)
            self.pop()
        return total

    def copy(self) -> "PyPlayState":
        """An independent copy (history included)."""
        c = PyPlayState.__new__(PyPlayState)
        c.__dict__.update(self.__dict__)
        c._hands, c._left, c._nplays, c._hist = (list(self._hands), list(self._left),
                                                 list(self._nplays), list(self._hist))
        c._legal = None
        return c

    __copy__ = copy

    def __deepcopy__(self, memo: Any) -> "PyPlayState":
        return self.copy()

    def __getstate__(self) -> dict:
        d = self.__dict__.copy()
        d["table"] = None
        d["_plays"] = None
        d["_legal"] = None
        return d

    def __setstate__(self, d: dict) -> None:
        self.__dict__.update(d)
        self.table = table(self._rules)
        self._plays = self.table.plays

    def __repr__(self) -> str:
        return (f"<ddz.game.playstate.PyPlayState seats={self.seats} current={self._cur} "
                f"to_beat={self._beat} cards_left={self.cards_left}>")


def play_state(table: Any, hands: Sequence[Sequence[int]], to_move: int, to_beat: int = 0,
               beat_seat: int = -1, passes: int = 0, doubling_bombs: str = "all") -> Any:
    """A play-phase position of the active implementation: the core's
    ``ddz.game._game.PlayState``, or :class:`PyPlayState` when the core is not built. Arguments
    and errors as :class:`PyPlayState`."""
    make = PyPlayState if _game is None else _game.PlayState
    return make(table, hands, to_move, to_beat, beat_seat, passes, doubling_bombs)
