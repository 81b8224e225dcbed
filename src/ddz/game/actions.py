"""A fixed action space for reinforcement learning: every play ↔ an integer id,
legal-action masks, batch APIs and array encodings (DESIGN.md, "Three speeds of API").

Id order
--------
``ActionSpace(rules)`` numbers the pass and every play of :func:`ddz.all_plays`:

* id 0 is the pass (:attr:`ActionSpace.pass_id`);
* ids 1.. are ``all_plays(rules)`` in move order (type, chain length, main rank, then
  kickers; see :mod:`ddz.core.reference`).

So ``len(ActionSpace())`` is 12,655 (``kickers="distinct"``) and
``len(ActionSpace(REPEAT_KICKERS))`` is 27,472, and legal ids come out sorted ascending,
in the same order as :func:`ddz.legal_moves`. The table is frozen by a test (a sha256 of
the whole id → notation table): changing it is a breaking change.

Why not RLCard's order? RLCard's 27,472 ids (pass last, id 27,471) exist only for
``kickers="repeat"``, come from a JSON file rather than a rule, and do not follow move
order. The same 27,471 plays are in both spaces; :func:`ddz.interop.rlcard_id_map` gives the
permutation between them (and :mod:`ddz.interop` converts to DouZero and OpenSpiel).

The card encoding of each play (:meth:`ActionSpace.encode_actions`) is
:func:`ddz.game.encoding.encode_cards`'s.

Implementations
---------------
The legal-id kernels live in the compiled ``ddz.game._actions`` (built on the core's
``legal_codes``); ``DDZ_NO_EXTENSIONS=1`` selects the pure-Python path, which filters
the plays of :mod:`ddz.core.reference` and is the oracle the tests compare against.
:data:`IMPLEMENTATION` says which one answers by default.

"""

from __future__ import annotations

import enum
from typing import Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from ..core import arguments as _args
from .. import core as moves
from ..core.implementation import compiled
from ..core.cards import NUM_RANKS, is_integer, CardsLike
from ..errors import ActionIdError, DdzError, InvalidPlayError
from ..core.play import Play, play_arg, to_beat_arg
from ..core.rules import STANDARD, Rules
from ..core.tables import table as _table
from . import action_arguments as _arguments
from .action_arguments import _check_out, _threads_arg
from .encoding import ENCODING_SIZE, _encoded, encode_cards, encoding_size

__all__ = ["ActionSpace", "ActionIdError", "encode_cards", "encode_actions",
           "IMPLEMENTATION", "ENCODING_SIZE", "encoding_size"]

_kernel = compiled("game._actions", "the compiled action kernels (ddz.game._actions)")

IMPLEMENTATION = "reference" if _kernel is None else "kernel"
"""Which legal-id path :class:`ActionSpace` uses by default: ``"kernel"`` or ``"reference"``."""

IdLike = Union[int, np.integer]
ToBeat = Union[None, int, np.integer, Play, str]


def _rebuild_space(rules: Rules, implementation: str) -> "ActionSpace":
    return ActionSpace(rules, implementation=implementation)


class ActionSpace:
    """Every play of one rule set, and the pass, numbered by a stable integer id.

    Id 0 is the pass; ids ``1..len-1`` are :func:`ddz.all_plays` in move order (see the
    module docstring). ``len(ActionSpace())`` is 12,655 and
    ``len(ActionSpace(Rules(kickers="repeat")))`` is 27,472 (RULES.md §2.1).

    Iterating yields the :class:`Play` values in id order; ``x in space`` accepts a
    :class:`Play`, play notation or an integer id. Two spaces of the same rules are equal.

    Parameters
    ----------
    rules : Rules, default ``ddz.STANDARD``
        The rule set. The tables are built once per rule set (about a millisecond) and shared.
    implementation : {"kernel", "reference"}, optional
        Which legal-id path answers: the compiled kernels or the pure-Python oracle.
        Default :data:`IMPLEMENTATION`. Both give identical results.

    Raises
    ------
    DdzError
        ``rules`` is not a :class:`ddz.Rules`, or ``implementation`` is unknown or
        not built.
    """

    __slots__ = ("rules", "_t", "_kern")

    def __init__(self, rules: Rules = STANDARD, *, implementation: Optional[str] = None) -> None:
        rules = _args.rules_arg(rules)
        if implementation is None:
            implementation = IMPLEMENTATION
        if implementation == "kernel":
            if _kernel is None:
                raise DdzError("the compiled ddz.game._actions kernels are not available "
                               "(DDZ_NO_EXTENSIONS is set, or the package was not built)")
            kern = _kernel
        elif implementation == "reference":
            kern = None
        else:
            raise DdzError(f"implementation must be 'kernel' or 'reference', got {implementation!r}")
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "_t", _table(rules))
        object.__setattr__(self, "_kern", kern)

    def __setattr__(self, name, value):
        raise AttributeError("ActionSpace is immutable")

    def __reduce__(self):
        # immutable and rebuilt from shared per-rule-set tables: copies and pickles
        # (e.g. to subprocess workers) carry only the rules and the implementation
        return (_rebuild_space, (self.rules, self.implementation))

    def __copy__(self) -> "ActionSpace":
        return self

    def __deepcopy__(self, memo) -> "ActionSpace":
        return self

    @property
    def implementation(self) -> str:
        """``"kernel"`` or ``"reference"``: which path computes legal ids."""
        return "reference" if self._kern is None else "kernel"

    # -- the table ------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._t.plays)

    def __iter__(self) -> Iterator[Play]:
        return iter(self._t.plays)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Play):
            return item in self._t.index_of_play
        if isinstance(item, str):
            try:
                return Play.parse(item, self.rules.universe_rules) in self._t.index_of_play
            except DdzError:
                return False
        if is_integer(item):
            return 0 <= int(item) < len(self._t.plays)
        return False

    def __eq__(self, other):
        if not isinstance(other, ActionSpace):
            return NotImplemented
        return self.rules == other.rules

    def __hash__(self):
        return hash((ActionSpace, self.rules))

    def __repr__(self) -> str:
        return f"ActionSpace({self.rules!r})  # {len(self)} actions"

    @property
    def pass_id(self) -> int:
        """The id of the pass: 0."""
        return 0

    def id(self, play: Union[Play, str]) -> int:
        """The id of a play.

        Parameters
        ----------
        play : Play or str
            A play (the pass included) or its notation (``"333444+56"``, ``"pass"``).

        Returns
        -------
        int

        Raises
        ------
        InvalidPlayError
            Not a play under this space's rules (RULES.md §2, §2.1).
        NotationError, ImpossibleHandError
            Bad notation.
        """
        p = play_arg(play, self.rules.universe_rules, moves.trusted_readings)  # banned plays keep their ids
        try:
            return self._t.index_of_play[p]
        except KeyError:  # pragma: no cover - play_arg admits only plays of the rules
            raise InvalidPlayError(f"{str(p)!r} is not in {self!r}") from None

    def play(self, action_id: IdLike) -> Play:
        """The :class:`Play` of an id.

        Raises
        ------
        ActionIdError
            ``action_id`` is not an integer in ``0 .. len(self) - 1``.
        """
        return self._t.plays[self._check_id(action_id)]

    def notation(self, action_id: IdLike) -> str:
        """Canonical notation of an id's play (``str(space.play(i))``).

        Raises
        ------
        ActionIdError
            Out of range.
        """
        return self._t.notation[self._check_id(action_id)]

    @property
    def codes(self) -> npt.NDArray[np.int64]:
        """``int64[len(self)]``: the compact code (:attr:`ddz.Play.code`) of each id (read-only)."""
        return self._t.codes

    @property
    def card_counts(self) -> npt.NDArray[np.uint8]:
        """``uint8[len(self), 15]``: the cards of each id's play (read-only)."""
        return self._t.counts

    def ids_of_codes(self, codes: Union[np.ndarray, Sequence[int]]) -> npt.NDArray[np.int32]:
        """The ids of play codes (:attr:`ddz.Play.code`), through the same code -> id table
        the kernels use.

        Parameters
        ----------
        codes : int64 array of any shape

        Returns
        -------
        numpy.ndarray
            ``int32`` of the same shape: each code's id, 0 for the pass, -1 for a code that
            is no play of this space.

        Raises
        ------
        InvalidPlayError
            Not integers, or values outside int64.
        """
        try:
            arr = np.asarray(codes)
        except Exception as exc:
            raise InvalidPlayError(f"codes is not an array of play codes: {type(codes).__name__}") from exc
        if arr.size and (arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer)):
            raise InvalidPlayError(f"codes must be integers, got dtype {arr.dtype}")
        if arr.size and arr.dtype == np.uint64 and int(arr.max()) >= 1 << 63:
            raise InvalidPlayError("codes must fit in int64")
        return self._t.ids_of_codes(arr.astype(np.int64, copy=False)).reshape(arr.shape)

    def codes_of_ids(self, ids: Union[np.ndarray, Sequence[int]]) -> npt.NDArray[np.int64]:
        """The play codes (:attr:`ddz.Play.code`) of action ids.

        Parameters
        ----------
        ids : int array of any shape

        Returns
        -------
        numpy.ndarray
            ``int64`` of the same shape (0 for the pass).

        Raises
        ------
        ActionIdError
            Not integers, or an id out of range.
        """
        return self._t.codes[self._id_array(ids, "ids")]

    def _check_id(self, action_id: object, what: str = "action id") -> int:
        if not is_integer(action_id) or isinstance(action_id, enum.Enum):  # a PlayType is no id
            raise ActionIdError(f"{what} must be an int, not {type(action_id).__name__}: {action_id!r}")
        i = int(action_id)
        if not 0 <= i < len(self._t.plays):
            raise ActionIdError(f"{what} {i!r} is out of range 0..{len(self._t.plays) - 1} of {self!r}")
        return i

    # -- one position -----------------------------------------------------------
    def _position(self, hand: CardsLike, to_beat: ToBeat) -> Tuple[Tuple[int, ...], int]:
        """Validated (hand counts, to-beat id; pass_id when leading)."""
        counts = _args.hand_arg(hand, self.rules)
        if to_beat is None:
            return counts, 0
        if is_integer(to_beat):
            i = self._check_id(to_beat, "the play to beat (id)")
            if i == 0:
                return counts, 0
            to_beat_arg(self._t.plays[i], self.rules, counts, moves.trusted_readings)  # deck check
            return counts, i
        if not isinstance(to_beat, (Play, str)):
            raise InvalidPlayError(
                f"the play to beat must be an action id, a ddz.Play, play notation or None, "
                f"not {type(to_beat).__name__}: {to_beat!r}")
        play = to_beat_arg(to_beat, self.rules, counts, moves.trusted_readings)
        return counts, self._t.index_of_play[play]

    def legal_ids(self, hand: CardsLike, to_beat: ToBeat = None) -> npt.NDArray[np.int32]:
        """Ids of the legal moves (RULES.md §2.3), ascending (= move order).

        Parameters
        ----------
        hand : str or int[15]
            Notation or 15 counts, at most ``rules.max_hand`` cards.
        to_beat : int, Play, str or None
            The last non-pass play of the trick: an id, a :class:`Play` or notation;
            ``None`` or :attr:`pass_id` when leading. (A *Play* or notation of the pass
            is an error, as in :func:`ddz.legal_moves`.)

        Returns
        -------
        numpy.ndarray
            ``int32[M]``; contains :attr:`pass_id` (first) exactly when responding.

        Raises
        ------
        NotationError, HandError, ImpossibleHandError
            Bad hand, or a hand that holds cards of the play to beat beyond the deck.
        InvalidPlayError
            ``to_beat`` is not a play (or is the pass given as a Play or notation).
        ActionIdError
            ``to_beat`` is an id out of range.
        """
        kern = self._kern
        if kern is not None and type(hand) is np.ndarray and (to_beat is None or type(to_beat) is int):
            # the kernel checks the hand and the id in C; on a bad one, the checked path
            # below names the error
            try:
                return kern.legal_ids_one(self._t, hand, 0 if to_beat is None else to_beat)
            except DdzError:
                pass
        counts, tb = self._position(hand, to_beat)
        hands = np.asarray(counts, dtype=np.uint8).reshape(1, NUM_RANKS)
        tbs = np.array([tb], dtype=np.int32)
        if self._kern is None:
            return self._ids_reference(hands, tbs)[0]
        return self._kern.legal_ids_one(self._t, hands[0], tb)

    def legal_mask(self, hand: CardsLike, to_beat: ToBeat = None,
                   out: Optional[np.ndarray] = None) -> npt.NDArray[np.bool_]:
        """Boolean mask of the legal moves (RULES.md §2.3) over the whole space.

        Parameters
        ----------
        hand, to_beat
            As in :meth:`legal_ids`.
        out : bool[len(self)], optional
            A C-contiguous buffer to fill (and return) instead of allocating.

        Returns
        -------
        numpy.ndarray
            ``bool[len(self)]``, ``True`` at exactly the ids of :meth:`legal_ids`.

        Raises
        ------
        HandError
            ``out`` has the wrong shape, dtype or layout.
        NotationError, ImpossibleHandError, InvalidPlayError, ActionIdError
            As in :meth:`legal_ids`.
        """
        kern = self._kern
        if out is None and kern is not None and type(hand) is np.ndarray and (to_beat is None or type(to_beat) is int):
            try:     # checked in C; a refusal is worded by the checked path below
                return kern.legal_mask_one(self._t, hand, 0 if to_beat is None else to_beat)
            except DdzError:
                pass
        ids = self.legal_ids(hand, to_beat)
        if out is None:
            mask = np.zeros(len(self), dtype=np.bool_)
        else:
            mask = _check_out(out, (len(self),), np.bool_)
            mask.fill(False)
        mask[ids] = True
        return mask

    # -- batches ----------------------------------------------------------------
    def legal_masks(self, hands: np.ndarray, to_beat_ids: Union[np.ndarray, Sequence[int]],
                    out: Optional[np.ndarray] = None, *, threads: int = 1) -> npt.NDArray[np.bool_]:
        """Legal-move masks of a batch of positions (RULES.md §2.3).

        Parameters
        ----------
        hands : uint8[B, 15]
            Count vectors (any integer dtype is accepted and converted). Every row is
            checked: at most ``rules.max_hand`` cards, no more copies than the deck.
        to_beat_ids : int32[B]
            The id of the play to beat in each row; :attr:`pass_id` when leading.
        out : bool[B, len(self)], optional
            A C-contiguous buffer to fill and return (reuse it across a training loop).
        threads : int, default 1
            Worker threads for the kernel: 1 runs serially (predictable when the machine
            is already busy, e.g. with one actor process per core); ``n > 1`` uses up to
            ``n`` OpenMP threads (at most the usable CPUs), 0 every usable CPU
            (:func:`ddz.core.parallel.threads_arg`). Batches under
            256 rows always run serially. Must be an ``int >= 0`` (not a bool) on every
            path; the reference path and builds without OpenMP (``ddz.game._actions.OPENMP``)
            check it, then run serially.

        Returns
        -------
        numpy.ndarray
            ``bool[B, len(self)]``; row ``i`` equals ``legal_mask(hands[i], to_beat_ids[i])``.

        Raises
        ------
        HandError
            ``hands`` not a 2-D integer array with 15 columns; ``to_beat_ids`` not a 1-D
            integer array of length B; ``out`` of the wrong shape, dtype or layout.
        ImpossibleHandError
            A row holds more cards than a player can, more copies than the deck, or more
            than the deck together with its play to beat (the message names the row).
        ActionIdError
            An id out of range (the message names the row).
        DdzError
            ``threads`` is not an int >= 0.

        Notes
        -----
        The kernel validates everything first, then releases the GIL.
        """
        threads = _threads_arg(threads)
        h, tb = self._batch_args(hands, to_beat_ids)
        mask = self._out_mask(out, (h.shape[0], len(self)))
        if self._kern is None:
            mask.fill(False)
            for i, ids in enumerate(self._ids_reference(h, tb)):
                mask[i, ids] = True
            return mask
        try:
            self._kern.legal_masks(self._t, h, tb, mask, threads)
        except DdzError:
            self._check_rows(h, tb)  # raises, naming the row in full
            raise
        return mask

    def legal_ids_batch(self, hands: np.ndarray, to_beat_ids: Union[np.ndarray, Sequence[int]],
                        *, threads: int = 1) -> Tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]:
        """Legal ids of a batch of positions (RULES.md §2.3), in CSR form.

        Parameters
        ----------
        hands, to_beat_ids, threads
            As in :meth:`legal_masks`.

        Returns
        -------
        ids : numpy.ndarray
            ``int32[M]``: the legal ids of every row, row after row, each row ascending.
        offsets : numpy.ndarray
            ``int64[B + 1]``: row ``i``'s ids are ``ids[offsets[i]:offsets[i + 1]]``.

        Raises
        ------
        HandError, ImpossibleHandError, ActionIdError
            As in :meth:`legal_masks`.
        """
        threads = _threads_arg(threads)
        h, tb = self._batch_args(hands, to_beat_ids)
        if self._kern is None:
            rows = self._ids_reference(h, tb)
            offsets = np.zeros(len(rows) + 1, dtype=np.int64)
            np.cumsum([len(r) for r in rows], out=offsets[1:])
            ids = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int32)
            return ids.astype(np.int32, copy=False), offsets
        try:
            return self._kern.legal_ids_csr(self._t, h, tb, threads)
        except DdzError:
            self._check_rows(h, tb)  # raises, naming the row in full
            raise

    # -- encodings ----------------------------------------------------------------
    def encode_actions(self, ids: Union[np.ndarray, Sequence[int]],
                       out: Optional[np.ndarray] = None) -> npt.NDArray[np.uint8]:
        """The card encoding (:func:`encode_cards`) of each id's play; the pass is all zeros.

        Parameters
        ----------
        ids : int array of any shape
        out : uint8[*ids.shape, E], optional
            ``E`` is :attr:`encoding_size` (54, or 108 with two decks).

        Returns
        -------
        numpy.ndarray
            ``uint8[*ids.shape, E]``.

        Raises
        ------
        ActionIdError
            Not integers, or an id out of range.
        HandError
            ``out`` of the wrong shape, dtype or layout.
        """
        arr = self._id_array(ids, "ids")
        table = _encoded(self._t)
        if out is None:
            return table[arr]
        _check_out(out, arr.shape + (table.shape[1],), np.uint8)
        return np.take(table, arr, axis=0, out=out)

    # -- helpers (ddz.game.action_arguments) ---------------------------------------
    _id_array = _arguments._id_array
    _out_mask = _arguments._out_mask
    _batch_args = _arguments._batch_args
    _check_rows = _arguments._check_rows

    def _ids_reference(self, hands: np.ndarray, tbs: np.ndarray) -> List[np.ndarray]:
        """The pure-Python path: :mod:`ddz.core.reference`'s legal moves, mapped to ids.
        Trusts validated input."""
        # the pure path only: the compiled path never loads the reference here
        from ..core.reference import trusted_legal_moves as _legal_moves

        t = self._t
        out = []
        for row, tb in zip(hands.tolist(), tbs.tolist()):
            beat = None if tb == 0 else t.plays[tb]
            moves = _legal_moves(tuple(row), beat, self.rules)
            out.append(np.fromiter((t.index_of_play[p] for p in moves), dtype=np.int32, count=len(moves)))
        return out


def encode_actions(ids: Union[np.ndarray, Sequence[int]], rules: Union[Rules, ActionSpace] = STANDARD,
                   out: Optional[np.ndarray] = None) -> npt.NDArray[np.uint8]:
    """Card encodings (:func:`encode_cards`) of action ids; the pass encodes as zeros.

    Parameters
    ----------
    ids : int array of any shape (e.g. ``int32[M]`` from :meth:`ActionSpace.legal_ids`)
    rules : Rules or ActionSpace, default ``ddz.STANDARD``
        Whose ids these are.
    out : uint8[*ids.shape, E], optional
        ``E = 54 * decks`` (:func:`encoding_size`).

    Returns
    -------
    numpy.ndarray
        ``uint8[*ids.shape, E]``.

    Raises
    ------
    ActionIdError
        Non-integer ids or an id out of range.
    DdzError
        ``rules`` is neither a Rules nor an ActionSpace.
    """
    space = rules if isinstance(rules, ActionSpace) else ActionSpace(rules, implementation="reference")
    return space.encode_actions(ids, out=out)
