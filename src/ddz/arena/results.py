"""What a duplicate match found: :class:`ArenaResult`, and the tally of the deals as
they finish (scores, pairs, Elo, confidence intervals, the SPRT)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple


from ..core.rules import Rules
from .stats import Sprt, elo_of, mean_ci

__all__ = ["ArenaResult"]


def _stat(values: Sequence[float]) -> Tuple[float, List[float]]:
    m, lo, hi = mean_ci(values) if values else (math.nan, math.nan, math.nan)
    return m, [lo, hi]


@dataclass
class ArenaResult:
    """What :func:`run` measured. :meth:`to_dict` gives it as JSON-serializable data;
    ``str()`` as a table.

    :ivar mode: ``"douzero"`` or ``"game"``. :ivar rules: the :class:`ddz.Rules`.
    :ivar seed: the seed. :ivar deals: deals played (fewer than asked when the SPRT
        stopped). :ivar deals_requested: deals asked for.
    :ivar hands: hands (tables) played.
    :ivar bots: per bot a dict: ``name``, ``wp``, ``wp_ci`` ([low, high], 95%), ``adp``,
        ``adp_ci``, ``elo``, ``elo_ci`` (from ``wp``), ``won`` (the share of its seats
        that won), ``roles`` (``landlord`` and ``farmer``, each with ``wp``, ``wp_ci``,
        ``adp``, ``adp_ci`` and ``deals``: how many deals it held the role in),
        ``decisions``, ``ms_per_decision``, ``forfeits``, ``timeouts``.

        ``wp`` is the duplicate score: per deal and opponent ``0.5 + (w_A - w_B) / 2``
        with ``w`` the share of the bot's seats that won at the deal's tables, averaged
        over opponents and deals. In ``douzero`` mode one side wins each table, so it is
        DouZero's WP (the share of deals won over both seatings); in ``game`` mode it is
        0.5 for two equal bots. ``adp`` is the points per deal: DouZero's in its mode (per
        side: the landlord's, or both farmers'), ``ddz``'s settlement per seat in game
        mode. A role's ``wp`` and ``adp`` are the plain win rate and points per deal in
        that role.
    :ivar pairs: per pair of bots ``(A, B)``: ``bots``, A's ``wp``, ``wp_ci``, ``adp``,
        ``adp_ci`` against B, and ``diff``/``diff_ci``: A's mean score minus B's per deal.
    :ivar wp_matrix: ``wp_matrix[i][j]``: bot i's WP against bot j (``None`` on the
        diagonal).
    :ivar sprt: the SPRT's final state (a dict) or ``None``.
    :ivar seconds: wall time of the play (workers warmed up first).
    :ivar workers: processes that played.
    :ivar forfeits: every forfeit: ``deal``, ``pair``, ``table``, ``bot``, ``seat``,
        ``kind``, ``detail``.
    :ivar interrupted: Ctrl-C stopped the run; the figures are those of the deals
        finished (``deals``).
    """

    mode: str
    rules: Rules
    seed: int
    deals: int
    deals_requested: int
    hands: int
    bots: List[Dict[str, Any]]
    pairs: List[Dict[str, Any]]
    wp_matrix: List[List[Optional[float]]]
    sprt: Optional[Dict[str, Any]]
    seconds: float
    workers: int
    forfeits: List[Dict[str, Any]] = field(default_factory=list)
    interrupted: bool = False

    @property
    def hands_per_second(self) -> float:
        """Hands played per second of wall time."""
        return self.hands / self.seconds if self.seconds > 0 else math.inf

    def to_dict(self) -> Dict[str, Any]:
        """Every field as JSON-serializable data (``rules`` as :meth:`ddz.Rules.to_json`;
        a number that is not finite, such as the WP of a role a bot never played or the
        Elo of a WP of 1, is ``None``)."""
        return _finite({"mode": self.mode, "rules": self.rules.to_json(), "seed": self.seed, "deals": self.deals,
                "deals_requested": self.deals_requested, "hands": self.hands, "bots": self.bots,
                "pairs": self.pairs, "wp_matrix": self.wp_matrix, "sprt": self.sprt,
                "seconds": self.seconds, "hands_per_second": self.hands_per_second, "workers": self.workers,
                "forfeits": self.forfeits, "interrupted": self.interrupted})

    def numbers(self) -> Dict[str, Any]:
        """:meth:`to_dict` without what depends on the machine (``seconds``,
        ``hands_per_second``, ``workers``, each bot's ``ms_per_decision``): what a run
        with another number of workers reproduces exactly."""
        d = self.to_dict()
        for key in ("seconds", "hands_per_second", "workers"):
            d.pop(key)
        for bot in d["bots"]:
            bot.pop("ms_per_decision")
        return d

    def forfeit_lines(self) -> List[str]:
        """Why bots forfeited: a line per bot and kind of forfeit (``start``, ``crash``,
        ``illegal``, ...) with its count and the first one's detail; ``[]`` when none did."""
        seen: Dict[Tuple[str, str], List[Any]] = {}
        for f in self.forfeits:
            key = (str(f.get("bot")), str(f.get("kind")))
            if key in seen:
                seen[key][0] += 1
            else:
                seen[key] = [1, f.get("detail")]
        return [f"forfeit: {bot}: {n} x {kind}" + (f" (first: {detail})" if detail else "")
                for (bot, kind), (n, detail) in seen.items()]

    def never_started(self) -> List[str]:
        """The bots that made no decision and forfeited every hand they sat at because
        their program could not start (``kind == "start"``)."""
        out = []
        for b in self.bots:
            kinds = {f.get("kind") for f in self.forfeits if f.get("bot") == b["name"]}
            if kinds == {"start"} and b["decisions"] == 0:
                out.append(b["name"])
        return out

    def __str__(self) -> str:
        lines = [f"{self.mode} mode, {self.deals} deals"
                 + (f" of {self.deals_requested}" if self.deals != self.deals_requested else "")
                 + (" (interrupted)" if self.interrupted else "")
                 + f", {self.hands} hands, seed {self.seed}; 95% intervals on per-deal values"]
        w = max(8, max(len(b["name"]) for b in self.bots))
        lines.append(f"{'bot':<{w}}  {'WP':>22}  {'ADP':>26}  {'WP landlord':>12}  {'WP farmer':>10}  "
                     f"{'ms/dec':>7}  {'forfeits':>8}  {'timeouts':>8}")
        for b in self.bots:
            lines.append(f"{b['name']:<{w}}  {b['wp']:.3f} [{b['wp_ci'][0]:.3f}, {b['wp_ci'][1]:.3f}]  "
                         f"{b['adp']:+.3f} [{b['adp_ci'][0]:+.3f}, {b['adp_ci'][1]:+.3f}]  "
                         f"{b['roles']['landlord']['wp']:>12.3f}  {b['roles']['farmer']['wp']:>10.3f}  "
                         f"{b['ms_per_decision']:>7.3f}  {b['forfeits']:>8}  {b['timeouts']:>8}")
        lines += self.forfeit_lines()
        if len(self.bots) > 2:
            lines.append("WP of the row against the column:")
            lines.append(" " * (w + 2) + "  ".join(f"{b['name'][:8]:>8}" for b in self.bots))
            for b, row in zip(self.bots, self.wp_matrix):
                lines.append(f"{b['name']:<{w}}  " + "  ".join("       -" if v is None else f"{v:8.3f}" for v in row))
        if self.sprt is not None:
            s = self.sprt
            lines.append(f"SPRT elo0={s['elo0']:g} elo1={s['elo1']:g} alpha={s['alpha']:g} beta={s['beta']:g}: "
                         f"LLR {s['llr']:.3f} in [{s['lower']:.3f}, {s['upper']:.3f}] after {s['samples']} deals: "
                         + ({"H1": "H1 accepted (the first bot is stronger)", "H0": "H0 accepted"}.get(s["decision"])
                            or "undecided"))
        hps = self.hands_per_second
        lines.append(f"{hps:,.0f}" if hps >= 10 else f"{hps:.2g}")
        lines[-1] += (f" hands per second ({self.workers} worker"
                     f"{'s' if self.workers != 1 else ''}, {self.seconds:.1f} s)")
        return "\n".join(lines)


def _finite(x: Any) -> Any:
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


class _Tally:
    """Per-deal values accumulated in deal order."""

    def __init__(self, nbots: int, npairs: int) -> None:
        self.bot_wp: List[List[float]] = [[] for _ in range(nbots)]
        self.bot_adp: List[List[float]] = [[] for _ in range(nbots)]
        self.bot_won: List[List[float]] = [[] for _ in range(nbots)]
        self.role: Dict[Tuple[int, str], Tuple[List[float], List[float]]] = {
            (k, r): ([], []) for k in range(nbots) for r in ("landlord", "farmer")}
        self.pair_wp: List[List[float]] = [[] for _ in range(npairs)]
        self.pair_wp_b: List[List[float]] = [[] for _ in range(npairs)]
        self.pair_adp: List[List[float]] = [[] for _ in range(npairs)]
        self.pair_diff: List[List[float]] = [[] for _ in range(npairs)]
        self.decisions = [0] * nbots
        self.seconds = [0.0] * nbots
        self.forfeits = [0] * nbots
        self.timeouts = [0] * nbots
        self.forfeit_list: List[Dict[str, Any]] = []
        self.hands = 0
        self.deals = 0


def _summary(d: int, tables: List[tuple], pairs: List[Tuple[int, int]], n_tables: int, mode: str,
             nb: int) -> tuple:
    """The per-deal values of deal ``d`` from its tables (computed in the worker, so that
    little crosses between processes): ``(hands, forfeits, decisions, seconds, timeouts,
    pair values, bot values, role values, names, record lines)``."""
    decisions_k = [0] * nb
    seconds_k = [0.0] * nb
    timeouts_k = [0] * nb
    forfeits = []
    wins = [[0.0, 0] for _ in range(nb)]      # per bot this deal: won, seats
    pts = [0.0] * nb
    scores_k: List[List[float]] = [[] for _ in range(nb)]
    role_acc: Dict[Tuple[int, str], List[float]] = {}
    pair_values = []
    names: List[str] = []
    for p, (a, b) in enumerate(pairs):
        pw = {a: [0.0, 0], b: [0.0, 0]}
        pp = {a: 0.0, b: 0.0}
        for t in range(n_tables):
            lineup, lord, won, scores, bombs, forfeit, events, decisions, seconds, names, _ = tables[p * n_tables + t]
            if forfeit is not None:
                forfeits.append((p, t, lineup[forfeit["seat"]], forfeit))
            seats = range(len(lineup))
            if mode == "douzero":
                # one side per table: the landlord's seat, and the farmers' side as one
                fs = (lord + 1) % 3
                sides = [(lineup[lord], won[lord], scores[lord], "landlord"),
                         (lineup[fs], won[fs], scores[fs] + scores[(lord + 2) % 3], "farmer")]
            else:
                sides = [(lineup[s], won[s], scores[s], None if lord is None else
                          ("landlord" if s == lord else "farmer")) for s in seats]
            for k, w, sc, role in sides:
                pw[k][0] += w
                pw[k][1] += 1
                pp[k] += sc
                if role is not None:
                    acc = role_acc.setdefault((k, role), [0.0, 0.0, 0])
                    acc[0] += w
                    acc[1] += sc
                    acc[2] += 1
            for s in seats:
                k = lineup[s]
                decisions_k[k] += decisions[s]
                seconds_k[k] += seconds[s]
            for e in events:
                if e.get("event") == "timeout":
                    timeouts_k[lineup[e["seat"]]] += 1
        wa, wb = pw[a][0] / pw[a][1], pw[b][0] / pw[b][1]
        sa, sb = pp[a] / pw[a][1], pp[b] / pw[b][1]
        # the duplicate score: A's share of the deal against B (DouZero's WP in its mode,
        # where one side wins each table and wa + wb = 1)
        score = 0.5 + (wa - wb) / 2
        pair_values.append((score, sa, sb))
        for k, sc in ((a, score), (b, 1 - score)):
            scores_k[k].append(sc)
            wins[k][0] += pw[k][0]
            wins[k][1] += pw[k][1]
            pts[k] += pp[k]
    bot_values = [(sum(scores_k[k]) / len(scores_k[k]), wins[k][0] / wins[k][1], pts[k] / wins[k][1])
                  if wins[k][1] else None for k in range(nb)]
    role_values = [(k, role, w / c, sc / c) for (k, role), (w, sc, c) in role_acc.items()]
    lines = [t[-1] for t in tables] if tables and tables[0][-1] is not None else None
    return (len(tables), forfeits, decisions_k, seconds_k, timeouts_k, pair_values, bot_values, role_values,
            names, lines)


def _add_deal(tally: _Tally, d: int, summary: tuple, pairs: List[Tuple[int, int]], names: List[str]) -> float:
    """Add deal ``d``'s :func:`_summary`; returns the first pair's SPRT sample (its
    duplicate score)."""
    hands, forfeits, decisions, seconds, timeouts, pair_values, bot_values, role_values, seen, _ = summary
    names[:] = seen
    tally.deals += 1
    tally.hands += hands
    for p, t, k, forfeit in forfeits:
        a, b = pairs[p]
        tally.forfeits[k] += 1
        tally.forfeit_list.append({"deal": d, "pair": [names[a], names[b]], "table": t, "bot": names[k], **forfeit})
    for k in range(len(decisions)):
        tally.decisions[k] += decisions[k]
        tally.seconds[k] += seconds[k]
        tally.timeouts[k] += timeouts[k]
    for p, (score, sa, sb) in enumerate(pair_values):
        tally.pair_wp[p].append(score)
        tally.pair_wp_b[p].append(1 - score)
        tally.pair_adp[p].append(sa)
        tally.pair_diff[p].append(sa - sb)
    for k, v in enumerate(bot_values):
        if v is not None:
            tally.bot_wp[k].append(v[0])
            tally.bot_won[k].append(v[1])
            tally.bot_adp[k].append(v[2])
    for k, role, w, sc in role_values:
        tally.role[(k, role)][0].append(w)
        tally.role[(k, role)][1].append(sc)
    return pair_values[0][0]


def _result(tally: _Tally, names: List[str], pairs: List[Tuple[int, int]], mode: str, rules: Rules, seed: int,
            deals: int, sprt: Optional[Sprt], samples: List[float], seconds: float, workers: int) -> ArenaResult:
    bots = []
    for k, name in enumerate(names):
        wp, wp_ci = _stat(tally.bot_wp[k])
        adp, adp_ci = _stat(tally.bot_adp[k])
        roles = {}
        for role in ("landlord", "farmer"):
            w, s = tally.role[(k, role)]
            rwp, rwp_ci = _stat(w)
            radp, radp_ci = _stat(s)
            roles[role] = {"wp": rwp, "wp_ci": rwp_ci, "adp": radp, "adp_ci": radp_ci, "deals": len(w)}
        dec = tally.decisions[k]
        bots.append({"name": name, "wp": wp, "wp_ci": wp_ci, "adp": adp, "adp_ci": adp_ci,
                     "won": _stat(tally.bot_won[k])[0],
                     "elo": elo_of(wp), "elo_ci": [elo_of(wp_ci[0]), elo_of(wp_ci[1])], "roles": roles,
                     "decisions": dec, "ms_per_decision": 1000 * tally.seconds[k] / dec if dec else 0.0,
                     "forfeits": tally.forfeits[k], "timeouts": tally.timeouts[k]})
    pair_rows = []
    matrix: List[List[Optional[float]]] = [[None] * len(names) for _ in names]
    for p, (a, b) in enumerate(pairs):
        wp, wp_ci = _stat(tally.pair_wp[p])
        adp, adp_ci = _stat(tally.pair_adp[p])
        diff, diff_ci = _stat(tally.pair_diff[p])
        pair_rows.append({"bots": [names[a], names[b]], "wp": wp, "wp_ci": wp_ci, "adp": adp, "adp_ci": adp_ci,
                          "diff": diff, "diff_ci": diff_ci})
        matrix[a][b] = wp
        matrix[b][a] = _stat(tally.pair_wp_b[p])[0]
    state = None
    if sprt is not None:
        st = sprt.state(samples)
        state = {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha, "beta": sprt.beta, **st.to_dict()}
    return ArenaResult(mode, rules, seed, tally.deals, deals, tally.hands, bots, pair_rows, matrix, state, seconds,
                       workers, tally.forfeit_list)
