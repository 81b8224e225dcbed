"""The arena's printed text: a result's table (``str(result)``, ``ddz arena show``) and
the progress line written when standard error is not a terminal."""

from __future__ import annotations

import math
from typing import Any, List, Optional

__all__ = ["table", "progress_line"]


def _num(v: Any, fmt: str) -> str:
    return "-" if v is None or (isinstance(v, float) and not math.isfinite(v)) else format(v, fmt)


def _ci(v: Any, ci: Any, fmt: str) -> str:
    lo, hi = (ci or [None, None])[:2]
    return f"{_num(v, fmt)} [{_num(lo, fmt)}, {_num(hi, fmt)}]"


def _elo(b: dict) -> str:
    lo, hi = (b.get("elo_ci") or [None, None])[:2]
    if b.get("elo") is None:
        return "-"
    return f"{b['elo']:+.0f} [{'-inf' if lo is None else format(lo, '+.0f')}, {'+inf' if hi is None else format(hi, '+.0f')}]"


def table(r: Any) -> str:
    """The table of an :class:`ddz.arena.ArenaResult`: per bot WP, Elo and ADP with 95%
    intervals, the role WPs, speed and forfeits; the WP matrix and the Bradley-Terry rating
    list for three or more bots; the SPRT; the speed of the run."""
    lines = [f"{r.mode} mode, {r.deals} deals"
             + (f" of {r.deals_requested}" if r.deals != r.deals_requested else "")
             + (" (interrupted)" if r.interrupted else "")
             + f", {r.hands} hands, seed {'(several)' if r.seed is None else r.seed}; 95% intervals on per-deal values"]
    w = max(8, max(len(b["name"]) for b in r.bots))
    cells = [(b["name"], _ci(b["wp"], b["wp_ci"], ".3f"), _elo(b), _ci(b["adp"], b["adp_ci"], "+.3f"),
              _num(b["roles"]["landlord"]["wp"], ".3f"), _num(b["roles"]["farmer"]["wp"], ".3f"),
              _num(b.get("ms_per_decision"), ".3f"), str(b["forfeits"]), str(b["timeouts"])) for b in r.bots]
    heads = ("bot", "WP", "Elo", "ADP", "WP landlord", "WP farmer", "ms/dec", "forfeits", "timeouts")
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(heads)]
    widths[0] = w
    lines.append("  ".join(h.ljust(widths[0]) if i == 0 else h.rjust(widths[i]) for i, h in enumerate(heads)))
    for c in cells:
        lines.append("  ".join(v.ljust(widths[0]) if i == 0 else v.rjust(widths[i]) for i, v in enumerate(c)))
    lines += r.forfeit_lines()
    if len(r.bots) > 2:
        lines.append("WP of the row against the column:")
        lines.append(" " * (w + 2) + "  ".join(f"{b['name'][:8]:>8}" for b in r.bots))
        for b, row in zip(r.bots, r.wp_matrix):
            lines.append(f"{b['name']:<{w}}  " + "  ".join("       -" if v is None else f"{v:8.3f}" for v in row))
    if getattr(r, "ratings", None):
        lines.append("Bradley-Terry ratings (Elo, mean 0; 95% intervals by a bootstrap over deals):")
        for x in sorted(r.ratings, key=lambda x: -x["elo"]):
            lo, hi = x["elo_ci"]
            lines.append(f"  {x['name']:<{w}}  {x['elo']:+7.1f} [{lo:+7.1f}, {hi:+7.1f}]")
    if r.sprt is not None:
        s = r.sprt
        floor = f", no decision before {s['min_deals']} deals" if "min_deals" in s else ""
        lines.append(f"SPRT elo0={s['elo0']:g} elo1={s['elo1']:g} alpha={s['alpha']:g} beta={s['beta']:g}{floor}: "
                     f"LLR {s['llr']:.3f} in [{s['lower']:.3f}, {s['upper']:.3f}] after {s['samples']} deals: "
                     + ({"H1": "H1 accepted (the first bot is stronger)", "H0": "H0 accepted"}.get(s["decision"])
                        or "undecided"))
    hps = r.hands_per_second
    lines.append(f"{hps:,.0f}" if hps >= 10 else f"{hps:.2g}")
    lines[-1] += (f" hands per second ({r.workers} worker"
                  f"{'s' if r.workers != 1 else ''}, {r.seconds:.1f} s)")
    return "\n".join(lines)


def progress_line(done: int, total: int, seconds: float, first: Optional[List[Any]] = None) -> str:
    """``arena: 1,200 of 10,000 deals (12%), 35 s, about 4 min 20 s to go`` (the estimate
    from the deals' rate so far)."""
    pct = 100.0 * done / total if total else 100.0
    text = f"arena: {done:,} of {total:,} deals ({pct:.0f}%), {_duration(seconds)}"
    if 0 < done < total and seconds > 0:
        text += f", about {_duration(seconds / done * (total - done))} to go"
    return text


def _duration(s: float) -> str:
    s = max(0, int(round(s)))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {s % 3600 // 60} min"


class ProgressLines:
    """Progress as lines on a stream that is not a terminal (a log, a pipe): the first after
    ``first`` seconds with an estimate of the time left, then one every ``every``
    seconds. ``advance()`` per deal, ``close()`` at the end.

    :param clock: a function giving seconds (``time.monotonic``; tests pass their own).
    """

    def __init__(self, total: int, stream: Any, first: float = 10.0, every: float = 60.0, clock: Any = None) -> None:
        import time   # start-up time: only a run that reports progress reads the clock
        self.total, self.stream, self.every = total, stream, every
        self.clock = clock or time.monotonic
        self.start = self.clock()
        self.next = self.start + first
        self.done = 0

    def advance(self, n: int = 1) -> None:
        """Count ``n`` deals; print a line when one is due."""
        self.done += n
        now = self.clock()
        if now >= self.next:
            self.next = now + self.every
            try:
                print(progress_line(self.done, self.total, now - self.start), file=self.stream, flush=True)
            except (OSError, ValueError):
                pass

    def close(self) -> None:
        """Nothing to undo (the lines are written)."""
