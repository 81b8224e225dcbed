"""Exceptions raised by ``ddz``.

Every error is a :class:`DdzError`, which is also a :class:`ValueError`, so callers
may catch either. Messages quote the offending input with ``!r``.
"""

__all__ = [
    "quote",
    "DdzError",
    "NotationError",
    "HandError",
    "ImpossibleHandError",
    "InvalidPlayError",
    "AmbiguousPlayError",
    "NotInHandError",
    "IllegalActionError",
    "DealError",
    "RecordError",
    "ActionIdError",
    "ActionTypeError",
    "TableMemoryError",
    "VectorMemoryError",
    "CheckpointError",
]


def quote(value: object, limit: int = 60) -> str:
    """``repr(value)``, cut to about ``limit`` characters for error messages (a
    100,000-card string must not become a 100 KB message)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} characters)"


class DdzError(ValueError):
    """Base class of every error ``ddz`` raises on bad input."""


class NotationError(DdzError):
    """Text that is not valid card or play notation (RULES.md §1)."""


class HandError(DdzError):
    """A hand or card vector of the wrong type, shape, dtype or with negative counts."""


class ImpossibleHandError(HandError):
    """More copies of a rank than the deck holds (RULES.md §1), alone or together
    with the play to beat."""


class InvalidPlayError(DdzError):
    """Cards that form no play under the rules in force (RULES.md §2), or a play
    to beat that is not a play."""


class AmbiguousPlayError(InvalidPlayError):
    """Cards that form more than one play under the rules in force (an engine profile's
    wings, RULES.md §2.5: ``333444555666`` is an airplane and two airplanes with wings):
    the message lists the readings in ``+`` notation, which picks one. ``readings`` holds
    them (a tuple of :class:`ddz.Play`)."""

    def __init__(self, message: str, readings: tuple = ()) -> None:
        super().__init__(message)
        self.readings = tuple(readings)


class NotInHandError(DdzError):
    """A play whose cards are not all in the hand."""


class IllegalActionError(DdzError):
    """An action that is not legal in the game's current state (RULES.md §3–§5): out of
    its phase, a bid not higher than the last, a pass when leading, a play that does not
    beat the play to beat, or an action after the hand is over."""


class DealError(DdzError):
    """A deal that is not a deal: wrong number of cards per hand, cards missing or
    repeated, or suits needed (``Rules.bottom_bonus``) but not given."""


class RecordError(DdzError):
    """A game record that is malformed or does not replay (the message names the first
    bad action by index and seat)."""


class ActionIdError(InvalidPlayError):
    """An action id outside ``0 .. len(space) - 1`` of a :class:`ddz.ActionSpace`, or an id
    array of the wrong type."""


class ActionTypeError(ActionIdError, TypeError):
    """An action id that is not an integer at all (a str such as ``'3'``, ``None``, a
    float, a bool, a list): refused at the id boundary (:meth:`ddz.Game.step_id`, the env
    action table of :mod:`ddz.envs.core`), also a :class:`TypeError`, so that a
    Gymnasium env raises it instead of scoring it as an illegal move."""


class TableMemoryError(DdzError, MemoryError):
    """The transposition table of :func:`ddz.solve` (``table_mb`` MiB, shared by its
    threads) could not be allocated, or would not fit in the memory available: choose a
    smaller ``table_mb``. Also a :class:`MemoryError`."""


class VectorMemoryError(DdzError, MemoryError):
    """The games of :class:`ddz.envs.VectorGame` (``num_envs`` of them) need more memory
    than the machine has available: the message says how much they need and how much is
    available; choose a smaller ``num_envs``. Also a :class:`MemoryError`."""


class CheckpointError(DdzError):
    """A network checkpoint (``torch.save``'s format, :mod:`ddz.neural.checkpoint`) that
    ``ddz`` will not read or write: not such a file, truncated or corrupt, a pickle naming
    anything beyond the allow-list, a path that leaves its archive, sizes past the limits,
    a storage offset past the data, a dtype other than float32, or tensors whose names and
    shapes are not the network's. Nothing of the file is run."""
