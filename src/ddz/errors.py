"""Exceptions raised by ``ddz``.

Every error is a :class:`DdzError`, which is also a :class:`ValueError`, so callers
may catch either. Messages quote the offending input with ``!r``.
"""

__all__ = [
    "DdzError",
    "NotationError",
    "HandError",
    "ImpossibleHandError",
    "InvalidPlayError",
    "NotInHandError",
]


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


class NotInHandError(DdzError):
    """A play whose cards are not all in the hand."""
