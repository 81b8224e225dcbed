"""A match: a fixed number of hands with the scores adding up (RULES.md §3, §6).

``Match(rules, hands=6, seed=S)`` plays hands one after another. ``match.game`` is the
current :class:`ddz.Game`; once it is over, :meth:`Match.next_hand` starts the next.
The first hand's first bidder follows ``Rules.first_bidder`` (drawn, or the face-up
card); the first bidder of every later hand is the seat after the previous hand's first
bidder (RULES.md §3). A hand that ends void (everybody passed, ``Rules.all_pass``) is not a
hand of the match (§6): it is dealt again, with the same first bidder. Redeals within a
hand are the hand's own (they never count). The totals add up the scores of the hands
played out; when the last one is over the match is finished and the highest total wins
(ties share the win).

Deals are reproducible: hand ``k`` (counting void ones) is ``Game(rules,
seed=random.Random(S).getrandbits(63) drawn k+1 times)``, so a match record names one seed.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ..core.arguments import SEED_LIMIT, rules_arg, seed_arg
from ..core.cards import is_integer
from ..errors import DdzError, IllegalActionError, RecordError, quote
from .records import _ADDED_IN_4, LEGACY_DEAL_VERSION, _known_fields
from .state import Game
from ..core.rules import STANDARD, Rules

__all__ = ["Match", "MATCH_FORMAT", "MATCH_VERSION"]

MATCH_FORMAT = "ddz-match"
MATCH_VERSION = 1
_MATCH_FIELDS = frozenset({"format", "version", "rules", "hands", "seed", "games", "totals"})


class Match:
    """A match of ``hands`` hands (RULES.md §6).

    :param rules: the :class:`ddz.Rules` of every hand (three or four players).
    :param hands: how many hands count (an int >= 1; commonly 3, 6 or 12).
    :param seed: an int >= 0 seeding the hands' deals; ``None`` draws one (kept in
        :attr:`seed`).
    :raises DdzError: bad rules, a bad ``hands`` or ``seed``.

    Attributes: :attr:`game` (the current hand), :attr:`games` (every hand so far, void
    ones included, the current one last), :attr:`totals`, :attr:`hands_played`,
    :attr:`finished`, :attr:`winners`. A match pickles and copies like a game.
    """

    def __init__(self, rules: Rules = STANDARD, hands: int = 6, seed: Optional[int] = None, *,
                 _legacy: bool = False) -> None:
        # _legacy (from_record only): hands dealt with random.Random, as in match records
        # whose hand records are of version 4 or older (ddz.game.deal)
        rules = rules_arg(rules)
        if not is_integer(hands) or hands < 1:
            raise DdzError(f"a match has an int >= 1 of hands, got {hands!r}")
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 63)
        else:
            seed = seed_arg(seed, "a match seed", float("inf") if _legacy else SEED_LIMIT)
        self.rules = rules
        self.hands = int(hands)
        self.seed = int(seed)
        self._rng = random.Random(self.seed)
        self._legacy = _legacy
        self.games: List[Game] = []
        self._new_game(None)

    def _new_game(self, first_bidder: Optional[int]) -> None:
        self.games.append(Game(self.rules, seed=self._rng.getrandbits(63), first_bidder=first_bidder,
                               _legacy=self._legacy))

    # -- the state --
    @property
    def game(self) -> Game:
        """The current hand."""
        return self.games[-1]

    @property
    def seats(self) -> int:
        """Players at the table: 3 or 4."""
        return self.rules.seats

    def _counted(self) -> List[Game]:
        return [g for g in self.games if g.result is not None and not g.result.void]

    @property
    def hands_played(self) -> int:
        """Hands played out so far (void hands do not count)."""
        return len(self._counted())

    @property
    def totals(self) -> Tuple[int, ...]:
        """Each seat's total score over the hands played out (a tuple of ints)."""
        totals = [0] * self.seats
        for g in self._counted():
            for s, v in enumerate(g.result.scores):
                totals[s] += v
        return tuple(totals)

    @property
    def finished(self) -> bool:
        """``True`` once :attr:`hands` hands have been played out."""
        return self.hands_played >= self.hands

    @property
    def winners(self) -> Tuple[int, ...]:
        """The seats with the highest total once the match is finished (ties share the
        win); ``()`` before."""
        if not self.finished:
            return ()
        totals = self.totals
        best = max(totals)
        return tuple(s for s, v in enumerate(totals) if v == best)

    def next_hand(self) -> Game:
        """Start the next hand once the current one is over: the first bidder is the next
        seat after this hand's (the same seat again after a void hand, which does not
        count).

        :returns: the new :attr:`game`.
        :raises IllegalActionError: the current hand is not over, or the match is finished.
        """
        g = self.game
        if g.result is None:
            raise IllegalActionError(f"hand {len(self.games)} is not over (phase {g.phase.value!r}): "
                                     "finish it before the next hand")
        if self.finished:
            raise IllegalActionError(f"the match of {self.hands} hand{'s' if self.hands != 1 else ''} is over; "
                                     f"winners {self.winners}")
        first = g.first_bidder if g.result.void else (g.first_bidder + 1) % self.seats
        self._new_game(first)
        return self.game

    def __repr__(self) -> str:
        return (f"<ddz.Match hands={self.hands_played}/{self.hands} seed={self.seed} totals={self.totals}"
                f"{' finished' if self.finished else ''}>")

    # -- records --
    def to_record(self) -> Dict[str, Any]:
        """The match as a JSON-serializable record (docs/records.md, "Matches"):
        ``{"format": "ddz-match", "version", "rules", "hands", "seed", "games": [hand
        records], "totals"}``."""
        return {"format": MATCH_FORMAT, "version": MATCH_VERSION, "rules": self.rules.to_json(),
                "hands": self.hands, "seed": self.seed, "games": [g.to_record() for g in self.games],
                "totals": list(self.totals)}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> "Match":
        """Replay a match record, checking every hand (:meth:`ddz.Game.from_record`), that
        its seeds and first bidders are the match's, and the totals.

        :raises RecordError: anything that does not replay, named by hand; a field a
            match record does not have (docs/records.md); ``totals`` present but not a
            list of one int per seat.
        """
        if not isinstance(record, Mapping) or record.get("format") != MATCH_FORMAT \
                or type(record.get("version")) is not int or record.get("version") != MATCH_VERSION:
            raise RecordError(f"not a {MATCH_FORMAT} record of version {MATCH_VERSION}"
                              + (f": version {quote(record.get('version'))}" if isinstance(record, Mapping) else ""))
        missing = {"rules", "hands", "seed", "games"} - set(record)
        if missing:
            raise RecordError(f"the match record lacks {sorted(missing)}")
        _known_fields(record, _MATCH_FIELDS, "a match record")
        try:
            # fields added after a match record could first be written (records version 4:
            # RULES.md §2.5) may be missing, and take their defaults, as in its hand records
            rules = Rules.from_json(record["rules"], defaults=_ADDED_IN_4)
            games = record["games"]
            first = games[0] if isinstance(games, list) and games and isinstance(games[0], Mapping) else {}
            version = first.get("version")
            legacy = type(version) is int and version <= LEGACY_DEAL_VERSION
            match = cls(rules, hands=record["hands"], seed=record["seed"], _legacy=legacy)
        except DdzError as exc:
            raise RecordError(f"bad match header: {exc}") from None
        games = record["games"]
        if not isinstance(games, list) or not games:
            raise RecordError("the match record has no games")
        for k, rec in enumerate(games):
            if k:
                try:
                    match.next_hand()
                except DdzError as exc:
                    raise RecordError(f"hand {k + 1}: {exc}") from None
            want = match.game
            try:
                got = Game.from_record(rec)
            except RecordError as exc:
                raise RecordError(f"hand {k + 1}: {exc}") from None
            if got.rules != rules:
                raise RecordError(f"hand {k + 1}: its rules {got.rules!r} are not the match's {rules!r}")
            if got.seed != want.seed or got.first_bidder != want.first_bidder:
                raise RecordError(f"hand {k + 1}: seed {got.seed}, first bidder {got.first_bidder} are not the "
                                  f"match's: it deals seed {want.seed}, first bidder {want.first_bidder}")
            match.games[-1] = got
        if "totals" in record:
            want = record["totals"]
            if not isinstance(want, list) or len(want) != match.seats or not all(is_integer(t) for t in want):
                raise RecordError(f"the match record's totals must be a list of {match.seats} ints (one per seat), "
                                  f"or left out, not {quote(want)}")
            if want != list(match.totals):
                raise RecordError(f"the recorded totals {want!r} differ from the replayed {list(match.totals)}")
        return match
