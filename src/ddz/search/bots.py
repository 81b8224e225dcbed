"""Bots: a tiny protocol and three players (RULES.md §3–§5).

A bot is any object with ``act(observation, legal) -> action``: it receives the
:class:`ddz.Observation` of the seat to act and the list from
:meth:`ddz.Game.legal_actions`, and returns one of those actions.
:func:`play_hand` runs a :class:`ddz.Game` to the end with a bot per seat.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, List, Optional, Sequence

from .. import core as moves
from ..core.arguments import seed_arg
from ..core.cards import BIG_JOKER, R2, RA, SMALL_JOKER, to_counts
from ..errors import DdzError, IllegalActionError, quote
from ..game.observations import Observation
from ..game.state import Game
from . import registry
from .sampling import sample_deals, solve_sampled
from ..core.play import Play, PlayType

try:  # Python 3.8+
    from typing import Protocol, runtime_checkable
except ImportError:  # pragma: no cover
    from typing_extensions import Protocol, runtime_checkable  # type: ignore

__all__ = ["Bot", "RandomBot", "GreedyBot", "SolverBot", "play_hand", "hand_strength", "make_bot",
           "solve_sampled", "sample_deals"]

_BOMBS = (PlayType.BOMB, PlayType.ROCKET)


@runtime_checkable
class Bot(Protocol):
    """Anything with ``act(observation, legal) -> action``.

    ``observation`` is a :class:`ddz.Observation` of the seat to act, ``legal`` the
    non-empty list of :meth:`ddz.Game.legal_actions`; the result must be one of them.
    """

    def act(self, observation: Observation, legal: List[Any]) -> Any:  # pragma: no cover
        """Return one element of ``legal`` for the seat of ``observation``."""
        ...


class RandomBot:
    """Picks a legal action uniformly at random.

    :param seed: an int >= 0 seeding its own ``random.Random`` (``None``: from the
        operating system).
    :raises DdzError: a seed that is not an int, or negative (``random.Random`` would play
        the same for ``-s`` and ``s``: refused as :class:`ddz.Game` refuses it).
    """

    def __init__(self, seed: Optional[int] = None) -> None:
        self._rng = random.Random(_seed_arg(seed, "a RandomBot seed"))
        self._below = self._rng.randrange

    def act(self, observation: Observation, legal: List[Any]) -> Any:
        """A uniformly random element of ``legal`` (the observation is ignored).

        :raises DdzError: ``legal`` is not a list; :class:`ddz.IllegalActionError`: it is
            empty (the hand is over)."""
        if type(legal) is not list or not legal:
            _legal_arg(legal)
        return legal[self._below(len(legal))]

    def __repr__(self) -> str:
        return "RandomBot()"


def _seed_arg(seed: Any, what: str) -> Optional[int]:
    """A bot's seed: ``None``, or a seed as every seed of ddz (``core.arguments.seed_arg``:
    ``random.Random`` would play the same for ``-s`` and ``s``, and take a float or a str).
    :raises DdzError: anything else."""
    return None if seed is None else seed_arg(seed, f"{what} (or None)")


def _legal_arg(legal: Any) -> None:
    """Raise for a ``legal`` that is not a non-empty list of actions (the bots' fast path
    takes a non-empty ``list`` as it is)."""
    if not isinstance(legal, (list, tuple)):
        raise DdzError(f"a bot chooses from the list of legal actions (ddz.Game.legal_actions()), "
                       f"not {type(legal).__name__}: {quote(legal)}")
    if not legal:
        raise IllegalActionError("a bot was asked to act with no legal action (the hand is over)")


def hand_strength(hand: Sequence[int]) -> int:
    """A rough count of high cards used by :class:`GreedyBot` to bid and double:
    big joker 4, small joker 3, each 2 two points, each ace one, each bomb 4, a rocket 2
    more.

    :param hand: 15 counts (or card notation), of one or two decks.
    :returns: an int, about 0..30 (a 17-card hand of average strength scores 5–6).
    :raises HandError, NotationError, ImpossibleHandError: not a hand.
    """
    if type(hand) is not tuple or len(hand) != 15:
        hand = tuple(to_counts(hand, decks=2).tolist())
    score = 4 * hand[BIG_JOKER] + 3 * hand[SMALL_JOKER] + 2 * hand[R2] + hand[RA]
    score += 4 * sum(1 for r in range(R2 + 1) if hand[r] == 4)
    if hand[BIG_JOKER] and hand[SMALL_JOKER]:
        score += 2
    return score


class GreedyBot:
    """A simple, deterministic heuristic player.

    * **Bidding** (RULES.md §3): with :func:`hand_strength` *s*, bids 3 if *s* ≥ 11, 2 if
      *s* ≥ 8, 1 if *s* ≥ 6 (when that is above the highest bid; else passes). In the rob
      variant it calls or robs when *s* ≥ 7.
    * **Doubling** (§4): a farmer doubles when *s* ≥ 8 (counted on its 17 cards), the
      landlord redoubles when *s* ≥ 11. It never plays open (§7).
    * **Leading** (§5): a play that empties its hand if there is one; otherwise the play
      with the most cards that is not a bomb or rocket, lowest main rank first (long plays
      shed the most cards); bombs only when nothing else is left.
    * **Responding**: passes when its partner made the play to beat (it never beats its
      partner's winning play) unless it can go out at once; otherwise plays the lowest
      non-bomb play that beats it, fewest cards first. A bomb or the rocket is used only
      when it decides the hand: it empties the hand, or what is left after it is a single
      play, or the opponent who made the play to beat has at most 4 cards left.
    """

    def act(self, observation: Observation, legal: List[Any]) -> Any:
        """Choose an action from ``legal`` (see the class docstring).

        :raises DdzError: ``observation`` is not a :class:`ddz.Observation`, or ``legal``
            not a list; :class:`ddz.IllegalActionError`: ``legal`` is empty."""
        obs = observation
        if type(obs) is not Observation:
            raise DdzError(f"a bot acts on the ddz.Observation of the seat to act, not "
                           f"{type(obs).__name__}: {quote(obs)}")
        if type(legal) is not list or not legal:
            _legal_arg(legal)
        if obs.phase == "bidding":
            s = hand_strength(obs.hand)
            if obs.rules.bidding == "rob":
                return 1 if s >= 7 and 1 in legal else 0
            want = 3 if s >= 11 else 2 if s >= 8 else 1 if s >= 6 else 0
            return want if want in legal else legal[0]   # the pass, or the lowest forced bid
        if obs.phase == "doubling":
            if obs.seat == obs.landlord:
                return hand_strength(obs.hand) >= 11
            return hand_strength(obs.hand) >= 8
        if obs.phase == "opening":
            return False          # open play (×3) shows the hand: the greedy player never does
        return self._play(obs, legal)

    def _play(self, obs: Observation, legal: List[Play]) -> Play:
        left = sum(obs.hand)
        for p in legal:
            if p and p.num_cards == left:
                return p          # going out ends the hand: always do it
        if obs.to_beat is None:
            plain = [p for p in legal if p.type not in _BOMBS]
            if not plain:
                return min(legal, key=lambda p: (p.type is PlayType.ROCKET, p.rank))
            return max(plain, key=lambda p: (p.num_cards, -p.rank, -sum(p.kickers)))
        # responding
        if obs.to_beat_seat in obs.partners:
            return legal[0]       # the pass: let a partner's play stand
        plain = [p for p in legal[1:] if p.type not in _BOMBS]
        if plain:
            return min(plain, key=lambda p: (p.num_cards, p.rank, sum(p.kickers)))
        bombs = [p for p in legal[1:] if p.type in _BOMBS]
        if bombs and self._bomb_decides(obs, bombs[0]):
            return bombs[0]
        return legal[0]

    @staticmethod
    def _bomb_decides(obs: Observation, bomb: Play) -> bool:
        rest = tuple(h - c for h, c in zip(obs.hand, bomb.counts))
        if not any(rest):
            return True
        if obs.cards_left[obs.to_beat_seat] <= 4:
            return True
        return bool(moves.readings(rest, _kicker_rules(obs)))

    def __repr__(self) -> str:
        return "GreedyBot()"


def _kicker_rules(obs: Observation):
    return replace(obs.rules, bidding="points", doubling=False, bottom_bonus=False)


def make_bot(spec: str, seed: Optional[int] = None) -> Bot:
    """A bot by its spec: a registered name (``"random"``, ``"greedy"``, ``"solver"``,
    ``"expert"``, ``"expert-2026-12"``, ``"douzero-rlcard"``...), with options
    (``"expert:samples=4"``), or a Python class as ``"py:module:Class"``
    (:mod:`ddz.search.registry`, the grammar every bot argument of ``ddz`` reads).

    :param seed: an int >= 0 or ``None``, for the bots that take one.
    :raises DdzError: a spec that is not a str, an unknown name or option, a ``py:`` spec
        that names no bot, a ``cmd:`` program (the arena runs those: ``ddz arena``).
    """
    found = registry.check_spec(spec)
    if found.kind == "protocol":
        raise DdzError(f"bot {spec!r}: a protocol program plays in the arena (ddz arena, ddz.arena.run), "
                       "which starts and stops it; here give a bot name or py:module:Class")
    return registry.make(found, seed)


def play_hand(game: Game, bots: Sequence[Bot]) -> Game:
    """Let ``bots[seat]`` act for each seat until the hand is over.

    :param game: a :class:`ddz.Game` (played in place).
    :param bots: one bot per seat (3, or 4 in the four-player game). A bot with an
        ``act_game(game, observation, legal)`` method is asked through it (an adapter of
        another engine that rebuilds its own view of the hand from the game's public
        history: DouZero's agents, :mod:`ddz.arena.bots`).
    :returns: ``game``, now in phase ``over`` (see :attr:`ddz.Game.result`; a hand that
        everybody passed until ``Rules.all_pass``/``Rules.max_redeals`` voided it is over
        too, with ``result.void`` set and zero scores, so this always returns).
    :raises DdzError: ``game`` not a Game; not one bot per seat, or one without a
        callable ``act``; a bot's illegal action propagates.
    """
    if not isinstance(game, Game):
        raise DdzError(f"play_hand needs a ddz.Game, not {type(game).__name__}: {game!r}")
    if isinstance(bots, (str, bytes)):
        raise DdzError(f"play_hand needs a sequence of {game.seats} bots, not a string: {bots!r} "
                       f"(make_bot({bots!r}) makes one bot; give one per seat)")
    try:
        bots = list(bots)
    except TypeError:
        raise DdzError(f"play_hand needs a sequence of {game.seats} bots, not {type(bots).__name__}: {bots!r}") from None
    if len(bots) != game.seats:
        raise DdzError(f"play_hand needs {game.seats} bots (one per seat), got {len(bots)}")
    for seat, bot in enumerate(bots):
        if not callable(getattr(bot, "act", None)):
            raise DdzError(f"bots[{seat}] is not a bot (it needs a callable act(observation, legal)): "
                           f"{type(bot).__name__}: {bot!r}")
    step = game.step
    legal_actions = game.legal_actions
    observe = game.observation
    adapters = [getattr(bot, "act_game", None) for bot in bots]
    while game.current_player is not None:
        seat = game.current_player
        adapter = adapters[seat]
        if adapter is None:
            step(bots[seat].act(observe(seat), legal_actions()))
        else:
            step(adapter(game, observe(seat), legal_actions()))
    return game


MAX_SAMPLES = 10_000
"""The most deals :class:`SolverBot` may sample per turn (each one is a solve)."""


class SolverBot:
    """Perfect-information Monte Carlo with the endgame solver (issue 12; RULES.md §5).

    While more than ``threshold`` cards are left in all hands it plays exactly like
    :class:`GreedyBot` (bidding and doubling always do). From then on, at each turn it
    samples ``samples`` deals of the cards it cannot see, consistent with what it has
    seen (its own hand, every play so far, each seat's card count, and the bottom cards
    the landlord has not played yet), solves each deal with :func:`ddz.solve`
    (``all_moves=True``, at most ``node_limit`` positions each) and plays the move that
    wins in the most deals; ties go to the move :class:`GreedyBot` would play when it is
    among them, else to the first in move order. If no deal was solved exactly it plays
    like :class:`GreedyBot`.

    :param threshold: cards left (all hands) at or below which it searches (default 20).
    :param samples: deals sampled per turn (default 12; 1 to :data:`MAX_SAMPLES`).
    :param node_limit: per solve (default 200,000).
    :param seed: an int >= 0 or ``None``, seeding its own ``random.Random``.
    :raises DdzError: a bad argument.
    """

    def __init__(self, threshold: int = 20, samples: int = 12, node_limit: int = 200_000,
                 seed: Optional[int] = None) -> None:
        for name, v, low in (("threshold", threshold, 0), ("samples", samples, 1), ("node_limit", node_limit, 1)):
            if isinstance(v, bool) or not isinstance(v, int) or v < low:
                raise DdzError(f"SolverBot {name} must be an int >= {low}, got {v!r}")
        if samples > MAX_SAMPLES:       # each sample is a solve on every turn: more would never answer
            raise DdzError(f"SolverBot samples must be at most {MAX_SAMPLES:,}, got {samples!r}")
        self.threshold = threshold
        self.samples = samples
        self.node_limit = node_limit
        self._rng = random.Random(_seed_arg(seed, "a SolverBot seed"))
        self._greedy = GreedyBot()

    def __repr__(self) -> str:
        return f"SolverBot(threshold={self.threshold}, samples={self.samples})"

    def act(self, observation: Observation, legal: List[Any]) -> Any:
        """Choose an action from ``legal`` (see the class docstring)."""
        obs = observation
        greedy = self._greedy.act(obs, legal)
        if obs.phase != "playing" or obs.rules.players != 3 or len(legal) == 1 or sum(obs.cards_left) > self.threshold:
            return greedy
        choice = solve_sampled(obs, legal, greedy, sample_deals(obs, self._rng, self.samples), self.node_limit)
        return greedy if choice is None else choice


