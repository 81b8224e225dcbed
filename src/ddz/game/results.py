"""How a hand ends: :class:`Result` and the scoring of a hand played out (RULES.md §6),
or of a void one (§3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

from ..core.cards import is_integer
from ..errors import DdzError, quote
from .phase import SEATS

__all__ = ["Result", "played_result", "void_reason"]


@dataclass(frozen=True)
class Result:
    """The outcome of a finished hand (RULES.md §5, §6), or of a void one (§3).

    :ivar landlord: the landlord's seat (``None`` for a void hand).
    :ivar winner: ``"landlord"`` or ``"farmers"`` (``None`` for a void hand).
    :ivar winners: the winning seats (``()`` for a void hand).
    :ivar base: the base score (the winning bid; 1 with ``bidding="rob"``; 0 for a void
        hand).
    :ivar bombs: bombs played (each ×2). :ivar rockets: rockets played (each ×2).
    :ivar spring: 春天 (×2). :ivar anti_spring: 反春天 (×2).
    :ivar doubles: doubles and redoubles (each ×2). :ivar robs: robs (each ×2).
    :ivar bottom_bonus: the bottom-card factor (1 when the option is off).
    :ivar multiplier: the product of every factor above (and ×3 for open play).
    :ivar score: S = base × multiplier.
    :ivar scores: settlement per seat (zero-sum): the landlord ±2S, each farmer ∓S; in the
        four-player game the landlord ±3S (RULES.md §7).
    :ivar void: ``None`` for a hand that was played out; for a void hand (everybody
        passed the auction and ``Rules.all_pass`` or ``Rules.max_redeals`` ended it, RULES.md
        §3) the reason, a sentence. A void hand has no landlord, no winner, score 0 and
        scores all 0; test it with ``if result.void:``.
    :ivar open_play: the four-player landlord played open (亮牌, ×3, RULES.md §7).

    ``bombs`` and ``rockets`` count those that doubled the score under
    ``Rules.doubling_bombs`` (RULES.md §6): every one played with ``"all"``.
    """

    landlord: Optional[int]
    winner: Optional[str]
    winners: Tuple[int, ...]
    base: int
    bombs: int
    rockets: int
    spring: bool
    anti_spring: bool
    doubles: int
    robs: int
    bottom_bonus: int
    multiplier: int
    score: int
    scores: Tuple[int, ...]
    void: Optional[str] = None
    open_play: bool = False

    @classmethod
    def won(cls, landlord: int, landlord_wins: bool, seats: int, **fields: Any) -> "Result":
        """The result of a hand that was played out (RULES.md §6): the winner and the
        winners follow from who went out; ``fields`` are the other fields (``base``,
        ``bombs``, ..., ``scores``, ``open_play``)."""
        farmers = tuple(s for s in range(seats) if s != landlord)
        return cls(landlord=landlord, winner="landlord" if landlord_wins else "farmers",
                   winners=(landlord,) if landlord_wins else farmers, **fields)

    @classmethod
    def voided(cls, reason: str, seats: int = SEATS) -> "Result":
        """The result of a void hand (RULES.md §3): nobody wins, every score is 0.

        :param reason: why the hand is void (kept in :attr:`void`), a non-empty str.
        :param seats: players at the table (3 or 4).
        :raises DdzError: another reason or number of seats.
        """
        if not isinstance(reason, str) or not reason or not is_integer(seats) or seats not in (3, 4):
            raise DdzError(f"a void result needs a reason (a non-empty str) and 3 or 4 seats, got "
                           f"{quote(reason)} and {quote(seats)}")
        return cls(landlord=None, winner=None, winners=(), base=0, bombs=0, rockets=0,
                   spring=False, anti_spring=False, doubles=0, robs=0, bottom_bonus=1,
                   multiplier=1, score=0, scores=(0,) * int(seats), void=reason)

    @property
    def breakdown(self) -> Dict[str, int]:
        """Each factor of S = base × multiplier, e.g. ``{"bid": 3, "bombs": 4, ...}``:
        ``bid`` is the base, every other entry a factor (1 when it did not apply)."""
        return {"bid": self.base, "bombs": 2 ** self.bombs, "rocket": 2 ** self.rockets,
                "spring": 2 if self.spring else 1, "anti_spring": 2 if self.anti_spring else 1,
                "doubles": 2 ** self.doubles, "robs": 2 ** self.robs,
                "bottom_bonus": self.bottom_bonus, "open_play": 3 if self.open_play else 1}

    def to_json(self) -> Dict[str, Any]:
        """A JSON-serializable dict of every field (``void``: ``null`` or the reason)."""
        return {"landlord": self.landlord, "winner": self.winner, "winners": list(self.winners),
                "base": self.base, "bombs": self.bombs, "rockets": self.rockets,
                "spring": self.spring, "anti_spring": self.anti_spring, "doubles": self.doubles,
                "robs": self.robs, "bottom_bonus": self.bottom_bonus,
                "multiplier": self.multiplier, "score": self.score, "scores": list(self.scores),
                "void": self.void, "open_play": self.open_play}


def void_reason(rules: Any, deals: int) -> str:
    """Why everybody passing ended a hand of ``rules`` void after ``deals`` deals
    (``Rules.all_pass``, ``Rules.max_redeals``, RULES.md §3): :attr:`Result.void`'s text."""
    if rules.all_pass == "void":
        return "everybody passed the auction (Rules.all_pass='void')"
    what = "1 deal" if deals == 1 else f"{deals} deals in a row"
    return f"everybody passed the auction of {what} (Rules.max_redeals={rules.max_redeals})"


def played_result(hand: Any, ps: Any, landlord: int, winner: int, seats: int) -> Result:
    """The :class:`Result` of a hand played out (RULES.md §6): ``winner`` played its last
    card. The one assembly of a played hand's result from the hand that scores it.

    :param hand: the hand (``ddz.game.hand``: a ``CHand`` or ``PyHand``) after its play
        phase. :param ps: its play state (bombs and rockets played, whether each side
        played). :param landlord: the landlord's seat. :param winner: the seat that went
        out. :param seats: 3 or 4. Trusted arguments (the game's own).
    """
    spring, anti, multiplier, score, scores = hand.finish(ps)     # the hand scores (ddz.game.hand)
    return Result.won(
        landlord, winner == landlord, seats, base=hand.bid, bombs=ps.bombs, rockets=ps.rockets, spring=spring,
        anti_spring=anti, doubles=hand.ndoubles, robs=hand.robs, bottom_bonus=hand.bonus, multiplier=multiplier,
        score=score, scores=scores, open_play=bool(hand.open_play))
