"""The arena's per-deal values and the figures computed from them.

Each deal is kept as integers (:class:`DealValues`): per pair of bots ``(A, B)`` A's and
B's seats (sides, in douzero mode) won and points over the deal's tables, and per bot its
wins, points and seats in each role. Every figure of an :class:`ddz.arena.ArenaResult`
(:func:`figures`) is computed from these rows, so a result read back from its file, a
resumed run and a merge of runs give the figures of one run over the same deals.
"""

from __future__ import annotations

import math
from array import array
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import DdzError
from .sprt import Sprt
from .stats import adp_interval, elo_interval, rating_list, wp_interval

__all__ = ["DealValues", "MAX_DEAL_NUMBERS", "deal_numbers", "figures", "seats_per_pair"]

PAIR_COLS = 4       # per pair: A's seats won, B's seats won, A's points, B's points
ROLE_COLS = 6       # per bot: landlord wins, points, seats; farmer wins, points, seats

MAX_DEAL_NUMBERS = 25_000_000
"""The most per-deal integers one result holds (``deals * (4 * pairs + 6 * bots)``: 200
MB as int64, about as much again in its file): two bots, 1,562,500 deals; three bots
(three pairs), 833,333."""


def deal_numbers(bots: int) -> int:
    """The integers one deal keeps for ``bots`` bots."""
    return PAIR_COLS * bots * (bots - 1) // 2 + ROLE_COLS * bots


def seats_per_pair(mode: str, players: int) -> int:
    """Each bot's seats in one pair's tables of a deal: 2 sides in douzero mode (its
    landlord seat, its farmers' side), ``players ** 2`` seats in game mode (1 at each of the
    ``players`` rotations of ``(A, B, B)``, ``players - 1`` at each of ``(B, A, A)``)."""
    return 2 if mode == "douzero" else players * players


class DealValues:
    """The per-deal integers of a run, in deal order (see the module docstring).

    :ivar seeds: ``[[seed, rows], ...]``: the run's seed of each stretch of rows (one
        stretch but in a merge of runs of several seeds).
    :ivar deal: shape ``(n,)`` int64: each row's deal index under its seed.
    :ivar pairs: shape ``(n, pairs, 4)`` int64. :ivar roles: shape ``(n, bots, 6)`` int64.
    :ivar seats: each bot's seats per pair and deal (:func:`seats_per_pair`).
    """

    def __init__(self, bots: int, seats: int, seed: int) -> None:
        self.bots = bots
        self.npairs = bots * (bots - 1) // 2
        self.seats = seats
        self.seeds: List[List[int]] = [[seed, 0]]
        self._deal = array("q")
        self._pairs = array("q")
        self._roles = array("q")

    def __len__(self) -> int:
        return len(self._deal)

    def add(self, d: int, pairs: Sequence[Sequence[int]], roles: Sequence[Sequence[int]]) -> None:
        """Append deal ``d``'s row (under the last seed)."""
        self._deal.append(d)
        for row in pairs:
            self._pairs.extend(row)
        for row in roles:
            self._roles.extend(row)
        self.seeds[-1][1] += 1

    @property
    def deal(self) -> np.ndarray:
        return np.frombuffer(self._deal, dtype=np.int64) if len(self._deal) else np.zeros(0, np.int64)

    @property
    def pairs(self) -> np.ndarray:
        a = np.frombuffer(self._pairs, dtype=np.int64) if len(self._pairs) else np.zeros(0, np.int64)
        return a.reshape(len(self), self.npairs, PAIR_COLS)

    @property
    def roles(self) -> np.ndarray:
        a = np.frombuffer(self._roles, dtype=np.int64) if len(self._roles) else np.zeros(0, np.int64)
        return a.reshape(len(self), self.bots, ROLE_COLS)

    def keys(self) -> List[Tuple[int, int]]:
        """``(seed, deal)`` of every row."""
        out = []
        deals = self.deal.tolist()
        i = 0
        for seed, rows in self.seeds:
            out += [(seed, d) for d in deals[i:i + rows]]
            i += rows
        return out

    def scores(self) -> np.ndarray:
        """Shape ``(n, pairs)``: A's duplicate score against B on each deal, in [0, 1]."""
        p = self.pairs
        return 0.5 + (p[..., 0] - p[..., 1]) / (2.0 * self.seats)

    def to_json(self) -> Dict[str, Any]:
        """The rows as JSON-serializable lists."""
        return {"seats": self.seats, "seeds": [list(s) for s in self.seeds], "deal": self.deal.tolist(),
                "pairs": self.pairs.tolist(), "roles": self.roles.tolist()}

    @classmethod
    def from_json(cls, data: Any, bots: int) -> "DealValues":
        """Read :meth:`to_json`'s lists back.

        :raises DdzError: not of that shape.
        """
        try:
            seeds = [[int(s), int(r)] for s, r in data["seeds"]]
            v = cls(bots, int(data["seats"]), seeds[0][0])
            v.seeds = seeds
            deal = np.asarray(data["deal"], dtype=np.int64).reshape(-1)
            pairs = np.asarray(data["pairs"], dtype=np.int64).reshape(deal.size, v.npairs, PAIR_COLS)
            roles = np.asarray(data["roles"], dtype=np.int64).reshape(deal.size, bots, ROLE_COLS)
            if sum(r for _, r in seeds) != deal.size or v.seats < 1:
                raise ValueError("seeds")
        except (KeyError, TypeError, ValueError, IndexError, OverflowError) as exc:
            raise DdzError(f"an arena result's deal values are malformed ({type(exc).__name__}: {exc})") from None
        v._deal = array("q", deal.tobytes())
        v._pairs = array("q", pairs.tobytes())
        v._roles = array("q", roles.tobytes())
        return v

    @classmethod
    def concat(cls, parts: Sequence["DealValues"]) -> "DealValues":
        """The rows of ``parts`` sorted by ``(seed, deal)``, stretches of one seed joined."""
        first = parts[0]
        keys = [k for p in parts for k in p.keys()]
        deal = np.concatenate([p.deal for p in parts])
        pairs = np.concatenate([p.pairs for p in parts])
        roles = np.concatenate([p.roles for p in parts])
        order = sorted(range(len(keys)), key=keys.__getitem__)
        v = cls(first.bots, first.seats, keys[order[0]][0] if keys else first.seeds[0][0])
        v.seeds = []
        for i in order:
            if v.seeds and v.seeds[-1][0] == keys[i][0]:
                v.seeds[-1][1] += 1
            else:
                v.seeds.append([keys[i][0], 1])
        if not v.seeds:
            v.seeds = [[first.seeds[0][0], 0]]
        idx = np.asarray(order, dtype=np.int64)
        v._deal = array("q", deal[idx].tobytes())
        v._pairs = array("q", pairs[idx].tobytes())
        v._roles = array("q", roles[idx].tobytes())
        return v


def _iv(kind: str, values: np.ndarray, low: float = 0.0, high: float = 1.0) -> Tuple[float, List[float]]:
    if not values.size:
        return math.nan, [math.nan, math.nan]
    m, lo, hi = wp_interval(values) if kind == "wp" else adp_interval(values, low, high)
    return m, [lo, hi]


def figures(values: DealValues, names: Sequence[str], pairs: Sequence[Tuple[int, int]], mode: str,
            sprt: Optional[Sprt]) -> Dict[str, Any]:
    """Every figure of a result from its per-deal values: ``bots`` (without the timings
    and counts the caller adds), ``pairs``, ``wp_matrix``, ``ratings`` (three or more
    bots, else ``None``), ``sprt`` (its state, or ``None``) and ``points_range`` (the
    ``M`` of the points' range ``[-M, M]`` the ADP intervals use: the largest points per
    seat of any deal, at least 2)."""
    nb = len(names)
    S = values.seats
    P = values.pairs.astype(np.float64)
    R = values.roles.astype(np.float64)
    score = values.scores()
    adp_a, adp_b = P[..., 2] / S, P[..., 3] / S
    with np.errstate(invalid="ignore", divide="ignore"):
        role_wp = R[..., [0, 3]] / R[..., [2, 5]]
        role_adp = R[..., [1, 4]] / R[..., [2, 5]]
    big = [2.0] + [float(np.max(np.abs(a))) for a in (adp_a, adp_b) if a.size]
    big += [float(np.nanmax(np.abs(role_adp)))] if np.any(np.isfinite(role_adp)) else []
    M = max(big)
    out_bots = []
    for k in range(nb):
        mine = [(p, +1) for p, (a, _) in enumerate(pairs) if a == k] + [(p, -1) for p, (_, b) in enumerate(pairs) if b == k]
        sc = np.mean([score[:, p] if s > 0 else 1 - score[:, p] for p, s in mine], axis=0)
        won = np.mean([P[:, p, 0 if s > 0 else 1] for p, s in mine], axis=0) / S
        adp = np.mean([adp_a[:, p] if s > 0 else adp_b[:, p] for p, s in mine], axis=0)
        wp, wp_ci = _iv("wp", sc)
        a, a_ci = _iv("adp", adp, -M, M)
        elo, elo_ci = elo_interval(wp, *wp_ci) if sc.size else (None, [None, None])
        roles = {}
        for j, role in enumerate(("landlord", "farmer")):
            held = np.isfinite(role_wp[:, k, j])
            rwp, rwp_ci = _iv("wp", np.clip(role_wp[held, k, j], 0, 1))
            radp, radp_ci = _iv("adp", role_adp[held, k, j], -M, M)
            roles[role] = {"wp": rwp, "wp_ci": rwp_ci, "adp": radp, "adp_ci": radp_ci, "deals": int(held.sum())}
        out_bots.append({"name": names[k], "wp": wp, "wp_ci": wp_ci, "adp": a, "adp_ci": a_ci,
                         "won": float(np.mean(won)) if won.size else math.nan,
                         "elo": elo, "elo_ci": elo_ci, "roles": roles})
    pair_rows = []
    matrix: List[List[Optional[float]]] = [[None] * nb for _ in range(nb)]
    for p, (a, b) in enumerate(pairs):
        wp, wp_ci = _iv("wp", score[:, p])
        adp, adp_ci = _iv("adp", adp_a[:, p], -M, M)
        diff, diff_ci = _iv("adp", adp_a[:, p] - adp_b[:, p], -2 * M, 2 * M)
        elo, elo_ci = elo_interval(wp, *wp_ci) if score.shape[0] else (None, [None, None])
        pair_rows.append({"bots": [names[a], names[b]], "wp": wp, "wp_ci": wp_ci, "elo": elo, "elo_ci": elo_ci,
                          "adp": adp, "adp_ci": adp_ci, "diff": diff, "diff_ci": diff_ci})
        matrix[a][b] = wp
        matrix[b][a] = 1 - wp if score.shape[0] else math.nan
    ratings = None
    if nb >= 3 and score.shape[0]:
        ratings = [{"name": names[k], "elo": r, "elo_ci": [lo, hi]}
                   for k, (r, lo, hi) in enumerate(rating_list(pairs, score, nb))]
    state = None
    if sprt is not None:
        st = sprt.state(score[:, 0].tolist() if score.shape[0] else [])
        state = {**sprt.to_dict(), **st.to_dict()}
    return {"bots": out_bots, "pairs": pair_rows, "wp_matrix": matrix, "ratings": ratings, "sprt": state,
            "points_range": M}


# -- one deal, in the worker ----------------------------------------------------------------

def summary(tables: List[tuple], pairs: List[Tuple[int, int]], n_tables: int, mode: str, nb: int) -> tuple:
    """The integers of one deal from its tables (computed in the worker, so that little
    crosses between processes): ``(hands, forfeits, decisions, seconds, timeouts,
    pair rows, role rows, names, record lines)``."""
    decisions_k = [0] * nb
    seconds_k = [0.0] * nb
    timeouts_k = [0] * nb
    forfeits = []
    roles = [[0] * ROLE_COLS for _ in range(nb)]
    pair_rows = []
    names: List[str] = []
    for p, (a, b) in enumerate(pairs):
        won = {a: 0, b: 0}
        pts = {a: 0, b: 0}
        for t in range(n_tables):
            lineup, lord, wins, scores, bombs, forfeit, events, decisions, seconds, names, _ = tables[p * n_tables + t]
            if forfeit is not None:
                forfeits.append((p, t, lineup[forfeit["seat"]], forfeit))
            seats = range(len(lineup))
            if mode == "douzero":
                # one side per table: the landlord's seat, and the farmers' side as one
                fs = (lord + 1) % 3
                sides = [(lineup[lord], wins[lord], scores[lord], 0),
                         (lineup[fs], wins[fs], scores[fs] + scores[(lord + 2) % 3], 3)]
            else:
                sides = [(lineup[s], wins[s], scores[s], None if lord is None else (0 if s == lord else 3))
                         for s in seats]
            for k, w, sc, role in sides:
                won[k] += int(w)
                pts[k] += int(sc)
                if role is not None:
                    roles[k][role] += int(w)
                    roles[k][role + 1] += int(sc)
                    roles[k][role + 2] += 1
            for s in seats:
                k = lineup[s]
                decisions_k[k] += decisions[s]
                seconds_k[k] += seconds[s]
            for e in events:
                if e.get("event") == "timeout":
                    timeouts_k[lineup[e["seat"]]] += 1
        pair_rows.append((won[a], won[b], pts[a], pts[b]))
    lines = [t[-1] for t in tables] if tables and tables[0][-1] is not None else None
    return len(tables), forfeits, decisions_k, seconds_k, timeouts_k, pair_rows, roles, names, lines


class Totals:
    """What a run counts besides the deal rows: hands, per bot decisions, seconds of
    thinking, forfeits and timeouts, and every forfeit."""

    def __init__(self, nbots: int) -> None:
        self.hands = 0
        self.decisions = [0] * nbots
        self.seconds = [0.0] * nbots
        self.forfeits = [0] * nbots
        self.timeouts = [0] * nbots
        self.forfeit_list: List[Dict[str, Any]] = []


def add_deal(values: DealValues, totals: Totals, d: int, summ: tuple, pairs: List[Tuple[int, int]],
             names: List[str]) -> float:
    """Add deal ``d``'s :func:`summary`; returns the first pair's duplicate score (the
    SPRT's sample)."""
    hands, forfeits, decisions, seconds, timeouts, pair_rows, roles, seen, _ = summ
    names[:] = seen
    totals.hands += hands
    for p, t, k, forfeit in forfeits:
        a, b = pairs[p]
        totals.forfeits[k] += 1
        totals.forfeit_list.append({"deal": d, "pair": [names[a], names[b]], "table": t, "bot": names[k], **forfeit})
    for k in range(len(decisions)):
        totals.decisions[k] += decisions[k]
        totals.seconds[k] += seconds[k]
        totals.timeouts[k] += timeouts[k]
    values.add(d, pair_rows, roles)
    wa, wb = pair_rows[0][0], pair_rows[0][1]
    return 0.5 + (wa - wb) / (2.0 * values.seats)
