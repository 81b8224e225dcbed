"""The expert bot (issue 27): hand decomposition early, the exact solver on sampled deals
late, and its own bidding and doubling (RULES.md §3-§5).

:class:`ExpertBot` needs no training and no GPU. Its parts:

* **The split** (:func:`split`): the hand cut into the fewest, strongest plays, as the
  strongest rule bots do (a minimum-split evaluation): chains (straights, pair chains,
  airplanes) searched exhaustively over the ranks 3..A, the rest as bombs, the rocket,
  trios, pairs and singles, trios and airplanes taking the weakest singles or pairs as
  kickers. A split scores the sum of its plays' values (low cards are liabilities, 2s,
  jokers, bombs and the rocket are control) minus 7 per turn it needs (bombs and the
  rocket take back the lead, so they cost no turn).
* **Playing** while many cards are left: lead the weakest play of the best split (its
  most cards first), never feeding an opponent who is about to go out (no single to a
  landlord with one card, no pair to one with two); as a farmer, feed the partner his
  last card (the lowest single when he has one card left) and never beat the partner's
  play; respond with the play that keeps the best split, beat at any cost (bombs and
  the rocket included) when the opponent who played is close to going out, and keep
  bombs otherwise.
* **The search** (three players): at every decision with a choice, deals of the cards
  it cannot see are sampled consistent with what its seat has seen (its own hand, every
  play, each seat's card count, the bottom cards the landlord still holds). Up to
  ``probes`` of them are tried one after the other with :func:`ddz.solve`, each within
  ``probe`` positions: when none is solved exactly the position is too big for the
  budget and the split's choice is played (early in a hand, as a rule). Otherwise the
  other deals (``samples`` in all) share what is left of ``budget`` positions, solved
  in one :func:`ddz.solve_batch` call, and it plays the move that wins the most deals
  (ties go to the split's choice). A budget of positions a decision, never of time: a
  decision is the same on any machine, and the search starts as early in a hand as the
  solver's speed lets it (no card count).
* **Bidding and doubling**: the hand's strength is its best split's score (with the
  bottom cards for the landlord); it bids 3, 2, 1 or passes by thresholds on it, doubles
  as a farmer and redoubles as the landlord on a strong split, never plays open.

It sees only what its seat may see: its decisions are functions of the
:class:`ddz.Observation` and its own random generator, seeded from ``seed``.
"""

from __future__ import annotations

import numbers
import random
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..core import IMPLEMENTATION
from ..errors import DdzError
from .sampling import sample_deals, solve_budgeted
from ..core.cards import deck_counts
from ..game.observations import Observation
from ..core.play import Play, PlayType

__all__ = ["ExpertBot", "split", "Split", "DEFAULT_BUDGET"]

_T = PlayType
_BOMBS = (_T.BOMB, _T.ROCKET)
_TURN = 7          # what one more turn costs in a split's score
_BOMB_BONUS = 10   # a bomb's value above its rank's
_ROCKET_VALUE = 20
_CHAIN_TOP = 11    # chains run over 3..A (rank indices 0..11)

DEFAULT_BUDGET = 300_000
"""Positions (solver nodes) :class:`ExpertBot` may search for one decision with the
compiled solver (about 0.1 s on one core); the pure-Python reference gets
:data:`REFERENCE_BUDGET`."""
REFERENCE_BUDGET = 72_000
"""The budget under ``DDZ_NO_EXTENSIONS=1``, where the reference solver is some 100x
slower; there the search also waits for :data:`REFERENCE_THRESHOLD` cards or fewer."""
REFERENCE_THRESHOLD = 12
"""Cards left in all hands above which :class:`ExpertBot` does not search under
``DDZ_NO_EXTENSIONS=1`` (its default ``threshold`` there)."""

# a group of a split: (kind, low rank, high rank, value); kinds below
_SINGLE, _PAIR, _TRIO, _BOMB, _ROCKET, _STRAIGHT, _PAIRS, _PLANE = range(8)
_WIDTH = {_STRAIGHT: 1, _PAIRS: 2, _PLANE: 3}
_MIN_LEN = {_STRAIGHT: 5, _PAIRS: 3, _PLANE: 2}


class Split(tuple):
    """The best split of a hand: ``(score, turns, groups, kickers)``; ``groups`` is a
    tuple of ``(kind, low, high, value)`` and ``kickers`` maps the index of a trio or
    airplane in ``groups`` to the ranks of its kickers (each rank once per card)."""

    __slots__ = ()

    @property
    def score(self) -> int:
        """Sum of the plays' values minus 7 per turn."""
        return self[0]

    @property
    def turns(self) -> int:
        """The plays that need the lead (bombs and the rocket excluded)."""
        return self[1]


def _value(r: int) -> int:
    return r - 7       # '3' -7 ... 'T' 0, 'A' +4, '2' +5, small joker +6, big joker +7


def _leaf(c: List[int], chains: List[tuple]) -> tuple:
    """Score the leftover counts ``c`` (no more chains) with ``chains`` taken."""
    groups = list(chains)
    singles: List[tuple] = []
    pairs: List[tuple] = []
    trios: List[int] = []
    total = 0
    turns = 0
    for kind, lo, hi, v in chains:
        total += v
        turns += 1
    if c[13] and c[14]:
        groups.append((_ROCKET, 13, 14, _ROCKET_VALUE))
        total += _ROCKET_VALUE
    else:
        if c[13]:
            singles.append((_value(13), 13))
        if c[14]:
            singles.append((_value(14), 14))
    for r in range(13):
        n = c[r]
        if not n:
            continue
        v = r - 7
        if n == 1:
            singles.append((v, r))
        elif n == 2:
            pairs.append((v, r))
        elif n == 3:
            trios.append(r)
        else:
            groups.append((_BOMB, r, r, v + _BOMB_BONUS))
            total += v + _BOMB_BONUS
    kickers: Dict[int, Tuple[int, ...]] = {}
    # airplanes first (they need as many kickers as trios), then trios, each taking the
    # weakest single or pair left
    if singles or pairs:
        singles.sort()
        pairs.sort()
        for i, (kind, lo, hi, v) in enumerate(chains):
            if kind != _PLANE:
                continue
            n = hi - lo + 1
            s_ok = len(singles) >= n
            p_ok = len(pairs) >= n
            if s_ok and (not p_ok or sum(x[0] for x in singles[:n]) <= sum(x[0] for x in pairs[:n])):
                kickers[i] = tuple(x[1] for x in singles[:n])
                del singles[:n]
            elif p_ok:
                kickers[i] = tuple(x[1] for x in pairs[:n] for _ in (0, 1))
                del pairs[:n]
    for r in trios:
        v = r - 7
        i = len(groups)
        groups.append((_TRIO, r, r, v))
        total += v
        turns += 1
        if singles and (not pairs or singles[0][0] <= pairs[0][0]):
            if singles[0][0] < _TURN:
                kickers[i] = (singles.pop(0)[1],)
        elif pairs and pairs[0][0] < _TURN:
            k = pairs.pop(0)[1]
            kickers[i] = (k, k)
    for v, r in singles:
        groups.append((_SINGLE, r, r, v))
        total += v
        turns += 1
    for v, r in pairs:
        groups.append((_PAIR, r, r, v))
        total += v
        turns += 1
    return (total - _TURN * turns, turns, tuple(groups), kickers)


def _search(c: List[int], r: int, chains: List[tuple], best: List[Any], first_kind: int) -> None:
    """Depth-first over the chains that start at rank ``r`` or above (``first_kind``: the
    smallest (kind, length) code still allowed at ``r``, so each set is met once)."""
    while r <= _CHAIN_TOP - 1 and c[r] == 0:
        r += 1
        first_kind = 0
    if r > _CHAIN_TOP - 1:
        leaf = _leaf(c, chains)
        if best[0] is None or leaf[0] > best[0][0]:
            best[0] = leaf
        return
    code = 0
    for kind in (_STRAIGHT, _PAIRS, _PLANE):
        w = _WIDTH[kind]
        if c[r] < w:
            code += 13
            continue
        n = 0
        while r + n <= _CHAIN_TOP and c[r + n] >= w:
            n += 1
        for length in range(_MIN_LEN[kind], n + 1):
            k = code + length
            if k < first_kind:
                continue
            for q in range(r, r + length):
                c[q] -= w
            hi = r + length - 1
            chains.append((kind, r, hi, _value(hi) + 1))
            _search(c, r, chains, best, k)
            chains.pop()
            for q in range(r, r + length):
                c[q] += w
        code += 13
    # no (more) chain starts at r
    _search(c, r + 1, chains, best, 0)


_CACHE: Dict[Tuple[int, ...], tuple] = {}
_CACHE_MAX = 200_000


def split(hand: Sequence[int]) -> Split:
    """The best split of a hand (see the module docstring).

    :param hand: 15 counts (one deck).
    :returns: a :class:`Split`; ``Split.score`` is the hand's strength (higher is better;
        an empty hand scores 0).
    """
    key = tuple(hand)
    found = _CACHE.get(key)
    if found is None:
        best: List[Any] = [None]
        _search(list(key), 0, [], best, 0)
        found = best[0]
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        _CACHE[key] = found
    return Split(found)


def _score(hand: Sequence[int]) -> int:
    key = tuple(hand)
    found = _CACHE.get(key)
    if found is None:
        return split(key)[0]
    return found[0]


def _minus(hand: Sequence[int], counts: Sequence[int]) -> Tuple[int, ...]:
    return tuple([a - b for a, b in zip(hand, counts)])


class ExpertBot:
    """A strong rule-and-search bot for three-player games (see :mod:`ddz.search.expert`).

    :param seed: seeds its own ``random.Random`` (the sampled deals).
    :param budget: positions (solver nodes) one decision may search, the probe's included
        (int >= 1; default :data:`DEFAULT_BUDGET`, :data:`REFERENCE_BUDGET` under
        ``DDZ_NO_EXTENSIONS=1``, where the solver is the pure-Python reference).
    :param samples: deals sampled per searched decision, the probe's included (int >= 1;
        default 12).
    :param probe: positions for each probe (int >= 1; one above ``budget`` counts as
        ``budget``; default
        ``budget // (2 * samples)``, 12,500 with the default budget).
    :param probes: deals tried one after the other, each within ``probe`` positions,
        until one is solved exactly; when none is, the search is skipped and the split
        decides (int >= 1; default 3). Their positions count against ``budget``.
    :param node_limit: positions per deal after the probe (int >= 1; default ``None``:
        an even share of what the probe left of ``budget``).
    :param threshold: an optional upper gate: no search while more than this many cards
        are left in all hands (int >= 0; default ``None``: the probe alone decides;
        :data:`REFERENCE_THRESHOLD` under ``DDZ_NO_EXTENSIONS=1``).
    :raises DdzError: a bad number (not an int, or below its minimum).

    With four players (RULES.md §7) it plays by the split alone. :attr:`searched` says
    how far its last decision went: ``None`` (no search), ``"probe"`` (the probe was not
    exact) or ``"samples"`` (the sampled deals were solved).
    """

    def __init__(self, seed: Optional[int] = None, threshold: Optional[int] = None, samples: int = 12,
                 node_limit: Optional[int] = None, budget: Optional[int] = None,
                 probe: Optional[int] = None, probes: int = 3) -> None:
        if IMPLEMENTATION == "reference":      # the pure-Python solver is some 100x slower
            budget = REFERENCE_BUDGET if budget is None else budget
            threshold = REFERENCE_THRESHOLD if threshold is None else threshold
        elif budget is None:
            budget = DEFAULT_BUDGET
        for name, v, low in (("threshold", threshold, 0), ("samples", samples, 1), ("node_limit", node_limit, 1),
                             ("budget", budget, 1), ("probe", probe, 1), ("probes", probes, 1)):
            if v is None and name in ("threshold", "node_limit", "probe"):
                continue
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < low:
                raise DdzError(f"ExpertBot {name} must be an int >= {low}, got {v!r}")
        # numpy's integers are ints here (a sweep over np.arange, say)
        threshold, samples, node_limit, budget, probe, probes = (
            None if v is None else int(v) for v in (threshold, samples, node_limit, budget, probe, probes))
        # a probe searches within the decision's budget: one above it is the budget (an
        # error here would only surface as a forfeit of every hand in the arena)
        probe = max(1, budget // (2 * samples)) if probe is None else min(probe, budget)
        self.threshold = threshold
        self.samples = samples
        self.node_limit = node_limit
        self.budget = budget
        self.probe = probe
        self.probes = probes
        self.searched: Optional[str] = None
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return (f"ExpertBot(budget={self.budget}, probe={self.probe}, probes={self.probes}, samples={self.samples}, "
                f"node_limit={self.node_limit}, threshold={self.threshold})")

    def seed(self, seed: Optional[int]) -> None:
        """Seed its random generator again (the bot protocol's helper calls it per hand)."""
        self._rng = random.Random(seed)

    # -- the auction --------------------------------------------------------------------
    def _strength(self, obs: Observation) -> int:
        return split(obs.hand)[0]

    def act(self, observation: Observation, legal: List[Any]) -> Any:
        """Choose one of ``legal`` for the seat of ``observation``."""
        obs = observation
        phase = obs.phase
        if phase == "playing":
            return self._play(obs, legal)
        s = self._strength(obs)
        if phase == "bidding":
            # 17 cards: the split scores -45 at the median, -33 at the 75th percentile,
            # -24 at the 90th (seeds 0..2999)
            if obs.rules.bidding == "rob":
                return 1 if s >= -30 and 1 in legal else legal[0]
            want = 3 if s >= -24 else 2 if s >= -30 else 1 if s >= -37 else 0
            return want if want in legal else legal[0]
        if phase == "doubling":
            if obs.seat == obs.landlord:
                return s >= -20          # 20 cards: the bottom is in the hand
            return s >= -27
        return False         # opening (four players): never play open

    # -- the play -----------------------------------------------------------------------
    def _play(self, obs: Observation, legal: List[Play]) -> Play:
        self.searched = None
        if len(legal) == 1:
            return legal[0]
        hand = obs.hand
        left = sum(hand)
        for p in legal:
            if p.num_cards == left and p:
                return p
        choice = self._heuristic(obs, legal)
        if obs.rules.players == 3 and (self.threshold is None or sum(obs.cards_left) <= self.threshold):
            solved = self._endgame(obs, legal, choice)
            if solved is not None:
                return solved
        return choice

    def _heuristic(self, obs: Observation, legal: List[Play]) -> Play:
        hand = obs.hand
        seat = obs.seat
        n = len(obs.cards_left)
        partners = obs.partners
        enemies = [s for s in range(n) if s != seat and s not in partners]
        enemy_min = min(obs.cards_left[s] for s in enemies)
        if obs.to_beat is None:
            return self._lead(obs, legal, hand, partners, enemy_min)
        return self._respond(obs, legal, hand, partners)

    def _lead(self, obs, legal, hand, partners, enemy_min) -> Play:
        # a farmer feeds a partner about to go out: the lowest single (or pair)
        nxt = (obs.seat + 1) % len(obs.cards_left)
        if partners and nxt in partners and obs.cards_left[nxt] <= 2 and obs.landlord is not None:
            want = _T.SINGLE if obs.cards_left[nxt] == 1 else _T.PAIR
            low = [p for p in legal if p.type is want]
            if low:
                return min(low, key=lambda p: p.rank)
        best = None
        base = _score(hand)
        danger = {_T.SINGLE: 1, _T.PAIR: 2}
        for p in legal:
            if p.type in _BOMBS:
                continue
            sc = _score(_minus(hand, p.counts)) - base + _TURN
            if danger.get(p.type, 0) and enemy_min <= danger[p.type] and not self._unbeatable(obs, p):
                sc -= 40 + 3 * p.rank
            # among equal splits, shed the weakest cards, then the most cards
            key = (sc, p.num_cards, -p.rank)
            if best is None or key > best[0]:
                best = (key, p)
        if best is None:
            return min(legal, key=lambda p: (p.type is _T.ROCKET, p.rank))
        return best[1]

    def _unbeatable(self, obs: Observation, p: Play) -> bool:
        """No card the seat cannot see beats ``p`` as a single or pair of a higher rank."""
        unseen = self._unseen(obs)
        need = 1 if p.type is _T.SINGLE else 2
        top = 15 if p.type is _T.SINGLE else 13
        return not any(unseen[r] >= need for r in range(p.rank + 1, top))

    @staticmethod
    def _unseen(obs: Observation) -> List[int]:
        seen = list(obs.hand)
        for _, p in obs.plays:
            if p:
                for r, c in enumerate(p.counts):
                    seen[r] += c
        return [int(d) - s for d, s in zip(deck_counts(obs.rules.decks), seen)]

    def _respond(self, obs, legal, hand, partners) -> Play:
        beater = obs.to_beat_seat
        if beater in partners:
            return legal[0]          # never beat the partner's play
        base = _score(hand)
        urgent = obs.cards_left[beater] <= 2 or (obs.landlord == beater and obs.cards_left[beater] <= 4)
        best = None
        for p in legal[1:]:
            rest = _minus(hand, p.counts)
            sc = _score(rest) - base + _TURN
            if p.type in _BOMBS and not urgent:
                rest_split = split(rest)
                if rest_split[1] > 1:
                    continue             # keep a bomb unless it decides the hand
            key = (sc, -p.rank)
            if best is None or key > best[0]:
                best = (key, p)
        if best is None:
            return legal[0]
        if urgent or best[0][0] >= 0:     # it costs the split nothing, or it must be beaten
            return best[1]
        return legal[0]

    # -- the endgame ---------------------------------------------------------------------
    def _endgame(self, obs: Observation, legal: List[Play], choice: Play) -> Optional[Play]:
        deals = sample_deals(obs, self._rng, self.samples)
        found, searched = solve_budgeted(obs, legal, choice, deals, self.budget, self.probe, self.node_limit,
                                         probes=self.probes)
        self.searched = "samples" if searched else "probe"
        return found
